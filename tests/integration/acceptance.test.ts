import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { HOUSE, sellResidential } from '../fixtures/selling';
import { apiClient, signInApi, tokenOf } from '../fixtures/api';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import { sellableOffers } from '../../src/server/services/network/offers';
import { findUserByEmail, loadV2User } from '../../src/server/services/identity/principals';
import { createQuote, saveStep, sendProposal, type Seller } from '../../src/server/services/selling/quotes';
import { sellerFromV2 } from '../../src/server/services/selling/sellers';
import { acceptBySilence, analysisQueue, decideProposal, documentsSent } from '../../src/server/services/after-sale/acceptance';
import type { V2SessionUser } from '../../src/lib/session';

/**
 * Issue 13: a proposal is accepted by the rules, by the provider's ADMIN or by silence after 25 days
 * (Lei 15.040/2024), and acceptance issues the policy with its installments — sold through the real
 * quote services.
 */
const DAY_MS = 86_400_000;
const START = new Date('2026-11-23T13:00:00Z');
let db: DB;
let close: () => Promise<void>;
let partner: { user: V2SessionUser; seller: Seller };
let adminId: number;

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  const row = (await findUserByEmail(db, 'parceiro@parceiro.demo'))!;
  const user = await loadV2User(db, row, { fullyAuthenticated: true });
  partner = { user, seller: await sellerFromV2(db, user) };
  adminId = (await findUserByEmail(db, 'admin@seguradora.demo'))!.id;
});
afterAll(() => close());

/** A residential proposal sent at `at`: `construcao: 'mista'` refers it for analysis. */
const sell = async (respostas: Record<string, unknown> = HOUSE, at = START) => (await sellResidential(db, { respostas, at })).nrProposta;

const proposal = (nrProposta: string) =>
  db.selectFrom('proposals').selectAll().where('nr_proposta', '=', nrProposta).executeTakeFirstOrThrow();
const timeline = async (nrProposta: string) =>
  (
    await db
      .selectFrom('proposal_events as e')
      .innerJoin('proposals as p', 'p.id', 'e.proposal_id')
      .select(['e.tipo', 'e.detalhe', 'e.user_id'])
      .where('p.nr_proposta', '=', nrProposta)
      .orderBy('e.id')
      .execute()
  ).map((e) => e.tipo);
const policyOf = (nrProposta: string) =>
  db
    .selectFrom('policies as a')
    .innerJoin('proposals as p', 'p.id', 'a.proposal_id')
    .selectAll('a')
    .where('p.nr_proposta', '=', nrProposta)
    .executeTakeFirst();
const installmentsOf = (policyId: number) =>
  db.selectFrom('installments').selectAll().where('policy_id', '=', policyId).orderBy('numero').execute();

describe('acceptance straight through', () => {
  it('accepts a proposal within the rules at once and issues its policy, term and installments', async () => {
    const nrProposta = await sell();
    expect(await proposal(nrProposta)).toMatchObject({ status: 'ACEITA', decidida_em: START });
    expect(await timeline(nrProposta)).toEqual(['ENVIADA', 'ACEITA_AUTOMATICAMENTE', 'APOLICE_EMITIDA']);
    const policy = (await policyOf(nrProposta))!;
    expect(policy).toMatchObject({
      nr_apolice: expect.stringMatching(/^01142026\d{7}$/),
      inicio_vigencia: '2026-11-23',
      fim_vigencia: '2027-11-23',
      status: 'VIGENTE',
      forma_pagamento: 'boleto',
      nome_segurado: DEMO_INSURED.residencial.nome,
      user_id: partner.seller.userId,
      company_id: partner.seller.companyId,
    });
    expect(policy.point_of_sale_id).not.toBeNull();
    const installments = await installmentsOf(policy.id);
    // Boleto on the 10th: the first due date at least five days after issuance, then monthly.
    expect(installments.map((i) => i.vencimento)).toEqual(['2026-12-10', '2027-01-10', '2027-02-10', '2027-03-10']);
    expect(installments.reduce((sum, i) => sum + i.valor, 0)).toBe(policy.premio_total);
    expect(installments.every((i) => i.status === 'ABERTA')).toBe(true);
  });

  it('sending the proposal again issues nothing more', async () => {
    const offer = (await sellableOffers(db, partner.user, START)).find((o) => o.code === 'RES')!;
    const quote = await createQuote(db, partner.seller, offer, { segurado: DEMO_INSURED.residencial, respostas: HOUSE }, START);
    await saveStep(db, partner.seller, quote.nrCotacao, 'planos', { selecao: { plan: 'essencial', capitals: {} } }, START);
    await saveStep(db, partner.seller, quote.nrCotacao, 'contratacao', { contratacao: { formaPagamento: 'pix', parcelas: 1 } }, START);
    const first = await sendProposal(db, partner.seller, quote.nrCotacao, { aceiteTermo: true }, START);
    const again = await sendProposal(db, partner.seller, quote.nrCotacao, { aceiteTermo: true }, START);
    expect(again.nrProposta).toBe(first.nrProposta);
    const policy = (await policyOf(first.nrProposta))!;
    // Pix has no due day: due a few days after issuance.
    expect((await installmentsOf(policy.id)).map((i) => i.vencimento)).toEqual(['2026-11-26']);
    expect(await timeline(first.nrProposta)).toEqual(['ENVIADA', 'ACEITA_AUTOMATICAMENTE', 'APOLICE_EMITIDA']);
  });
});

describe('a proposal referred for analysis', () => {
  const MIXED = { ...HOUSE, construcao: 'mista' };

  it('waits in analysis with its reason and its 25-day deadline; the ADMIN accepts it and the policy is issued', async () => {
    const nrProposta = await sell(MIXED);
    expect(await proposal(nrProposta)).toMatchObject({ status: 'EM_ANALISE', aceite_ate: new Date(START.getTime() + 25 * DAY_MS) });
    expect(await policyOf(nrProposta)).toBeUndefined();
    const later = new Date(START.getTime() + 2 * DAY_MS);
    await decideProposal(db, adminId, nrProposta, { decisao: 'ACEITAR' }, later);
    expect(await timeline(nrProposta)).toEqual(['ENVIADA', 'ENCAMINHADA_ANALISE', 'ACEITA', 'APOLICE_EMITIDA']);
    // The term runs from the proposal's day, not the decision's.
    expect(await policyOf(nrProposta)).toMatchObject({ inicio_vigencia: '2026-11-23', fim_vigencia: '2027-11-23' });
    await expect(decideProposal(db, adminId, nrProposta, { decisao: 'RECUSAR', motivo: 'Tarde demais' }, later)).rejects.toMatchObject({
      kind: 'conflict',
    });
  });

  it('a refusal records its reason and issues no policy', async () => {
    const nrProposta = await sell(MIXED);
    await decideProposal(db, adminId, nrProposta, { decisao: 'RECUSAR', motivo: 'Risco fora da política de aceitação.' }, START);
    expect(await proposal(nrProposta)).toMatchObject({ status: 'RECUSADA', motivo: 'Risco fora da política de aceitação.' });
    expect(await policyOf(nrProposta)).toBeUndefined();
    // A decided proposal is past the clock: the deadline job leaves it as it is.
    await acceptBySilence(db, new Date(START.getTime() + 40 * DAY_MS));
    expect(await proposal(nrProposta)).toMatchObject({ status: 'RECUSADA' });
    expect(await policyOf(nrProposta)).toBeUndefined();
  });

  it('asking for documents stops the clock; sending them resumes it with the days it stood still added', async () => {
    const nrProposta = await sell(MIXED);
    const asked = new Date(START.getTime() + 5 * DAY_MS);
    await decideProposal(db, adminId, nrProposta, { decisao: 'SOLICITAR_DOCUMENTOS', motivo: 'Fotos da fachada.' }, asked);
    expect(await proposal(nrProposta)).toMatchObject({ status: 'AGUARDANDO_DOCUMENTOS', suspensa_desde: asked });
    // Waiting for documents, the clock does not run out.
    expect(await acceptBySilence(db, new Date(START.getTime() + 30 * DAY_MS))).toBe(0);
    const sent = new Date(START.getTime() + 12 * DAY_MS);
    await documentsSent(db, partner.seller.userId, nrProposta, 'Fotos anexadas por e-mail.', sent);
    const deadline = new Date(START.getTime() + (25 + 7) * DAY_MS);
    expect(await proposal(nrProposta)).toMatchObject({ status: 'EM_ANALISE', suspensa_desde: null, aceite_ate: deadline });
    await expect(documentsSent(db, partner.seller.userId, nrProposta, 'de novo', sent)).rejects.toMatchObject({ kind: 'conflict' });

    expect(await acceptBySilence(db, new Date(deadline.getTime() - 1))).toBe(0);
    expect(await acceptBySilence(db, deadline)).toBeGreaterThanOrEqual(1);
    expect(await timeline(nrProposta)).toEqual([
      'ENVIADA',
      'ENCAMINHADA_ANALISE',
      'DOCUMENTOS_SOLICITADOS',
      'DOCUMENTOS_ENVIADOS',
      'ACEITA_POR_SILENCIO',
      'APOLICE_EMITIDA',
    ]);
    expect(await policyOf(nrProposta)).toBeDefined();
  });

  it('an unknown proposal is a 404', async () => {
    await expect(decideProposal(db, adminId, '999', { decisao: 'ACEITAR' }, START)).rejects.toMatchObject({ kind: 'not-found' });
  });
});

describe('the deadline job', () => {
  it('accepts each overdue proposal once, however many instances run it at the same time', async () => {
    const sent = [await sell({ ...HOUSE, construcao: 'mista' }), await sell({ ...HOUSE, construcao: 'mista' })];
    const due = new Date(START.getTime() + 26 * DAY_MS);
    const runs = await Promise.all([acceptBySilence(db, due), acceptBySilence(db, due), acceptBySilence(db, due)]);
    expect(runs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2);
    for (const nrProposta of sent) {
      expect(await proposal(nrProposta)).toMatchObject({ status: 'ACEITA' });
      expect((await timeline(nrProposta)).filter((t) => t === 'APOLICE_EMITIDA')).toHaveLength(1);
    }
    const issued = await db.selectFrom('policies').select(db.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const accepted = await db
      .selectFrom('proposals')
      .select(db.fn.countAll<string>().as('n'))
      .where('status', '=', 'ACEITA')
      .executeTakeFirstOrThrow();
    expect(issued.n).toBe(accepted.n);
  });
});

describe('the API: the ADMIN decides, the partner answers a request for documents', () => {
  const call = () => apiClient(db);
  const tokens = new Map<string, string>();
  async function as(email: string, simulator = false) {
    const key = `${email}:${simulator}`;
    if (!tokens.has(key)) {
      const login = await signInApi(call(), email);
      expect(login.status, JSON.stringify(login.json)).toBe(200);
      let token: string = tokenOf(login.json) as string;
      if (simulator) {
        const sim = await call()('POST', '/api/plataforma/v1/login/token', {
          body: { nome: 'Portal', idCanalUltron: 1, nomeCanalUltron: 'Portal', email, cdAutenticacao: 'x', idCanal: 1 },
          headers: { authtoken: token },
        });
        token = sim.json.resultado.token;
      }
      tokens.set(key, token);
    }
    return { authtoken: tokens.get(key)! };
  }
  const decide = async (email: string, nrProposta: string, body: unknown) =>
    call()('POST', `/api/bff/v1/propostas/${nrProposta}/decisao`, { headers: await as(email), body });
  it('only the provider’s ADMIN decides, with a reason to refuse or to ask for documents', async () => {
    const { nrProposta, nrCotacao } = await sellResidential(db, { respostas: { ...HOUSE, construcao: 'mista' } });
    expect((await analysisQueue(db, new Date())).content.map((q) => q.nrProposta)).toContain(nrProposta);
    expect((await decide('parceiro@parceiro.demo', nrProposta, { decisao: 'ACEITAR' })).status).toBe(403);
    expect((await decide('parceiro.admin@parceiro.demo', nrProposta, { decisao: 'ACEITAR' })).status).toBe(403);
    const noReason = await decide('admin@seguradora.demo', nrProposta, { decisao: 'RECUSAR', motivo: ' ' });
    expect(noReason).toMatchObject({ status: 400, json: { erros: { motivo: [expect.stringContaining('motivo da recusa')] } } });
    expect((await decide('admin@seguradora.demo', nrProposta, { decisao: 'TALVEZ' })).status).toBe(400);
    expect((await decide('admin@seguradora.demo', '123456789', { decisao: 'ACEITAR' })).status).toBe(404);
    expect((await decide('admin@seguradora.demo', 'abc', { decisao: 'ACEITAR' })).status).toBe(400);
    expect(await proposal(nrProposta)).toMatchObject({ status: 'EM_ANALISE' });

    const asked = await decide('admin@seguradora.demo', nrProposta, {
      decisao: 'SOLICITAR_DOCUMENTOS',
      motivo: 'Fotos da fachada e da cozinha.',
    });
    expect(asked.status, JSON.stringify(asked.json)).toBe(200);
    const page = await call()('GET', `/api/bff/v1/cotacoes/${nrCotacao}`, { headers: await as('parceiro@parceiro.demo', true) });
    expect(page.json.dado.cotacao.proposta).toMatchObject({
      status: 'Aguardando documentos',
      motivo: 'Fotos da fachada e da cozinha.',
      clock: { state: 'suspended', daysLeft: 25 },
    });

    const answer = (email: string, mensagem: unknown) =>
      as(email, true).then((headers) =>
        call()('POST', `/api/bff/v1/cotacoes/${nrCotacao}/proposta/documentos`, { headers, body: { mensagem } }),
      );
    expect((await answer('parceiro@parceiro.demo', 'ok')).status).toBe(400);
    // Another company's user does not see the quote: 404, never a hint that it exists.
    expect((await answer('substabelecido@parceiro.demo', 'Fotos enviadas.')).status).toBe(404);
    const sent = await answer('parceiro@parceiro.demo', 'Fotos enviadas por e-mail ao atendimento.');
    expect(sent.status, JSON.stringify(sent.json)).toBe(200);
    expect(sent.json.dado.cotacao.proposta).toMatchObject({ status: 'Em análise', clock: { state: 'running' } });
    expect((await answer('parceiro@parceiro.demo', 'De novo, as mesmas fotos.')).status).toBe(409);

    const accepted = await decide('admin@seguradora.demo', nrProposta, { decisao: 'ACEITAR' });
    expect(accepted.status).toBe(200);
    const after = await call()('GET', `/api/bff/v1/cotacoes/${nrCotacao}`, { headers: await as('parceiro@parceiro.demo', true) });
    expect(after.json.dado.cotacao).toMatchObject({
      statusLabel: 'Proposta aceita',
      proposta: { status: 'Aceita', nrApolice: expect.stringMatching(/^0114\d{11}$/), clock: { state: 'stopped' } },
    });
    expect(after.json.dado.cotacao.proposta.timeline.map((e: { label: string }) => e.label)).toEqual([
      'Proposta enviada à seguradora',
      'Encaminhada para análise da seguradora',
      'Documentos solicitados — prazo de aceitação suspenso',
      'Documentos enviados — prazo de aceitação retomado',
      'Aceita pela seguradora',
      'Apólice emitida',
    ]);
    expect((await decide('admin@seguradora.demo', nrProposta, { decisao: 'ACEITAR' })).status).toBe(409);
  });
});
