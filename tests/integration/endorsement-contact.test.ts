import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, signInApi } from '../fixtures/api';
import { pdfText } from '../fixtures/pdf';
import { sellResidential, viewerByEmail } from '../fixtures/selling';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import { endorseContact } from '../../src/server/services/after-sale/endorsement-contact';
import { endorsementHistory } from '../../src/server/services/after-sale/endorsements';
import { findPolicy } from '../../src/server/services/after-sale/policies';
import { scopeFor } from '../../src/server/services/identity/scope';
import { policyPdfResponse } from '../../src/features/policies/policy-pdf.server';
import type { InsuredContact } from '../../src/lib/endorsements';

/**
 * Issue 14, the contact endorsement through the real services and the API router: who may endorse
 * which policy (the APOLICES scope, per company and generation), its rules (nothing unchanged, no
 * cancelled or expired policy, no premium effect), and its PDF beside the policy's.
 */
let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;
let policy: { nrApolice: string; idContratacao: number; nrProposta: string };
let legacy: { nrApolice: string; idContratacao: number };

const SELLER = 'parceiro@parceiro.demo';
const NEW_CONTACT: InsuredContact = {
  email: 'marina.nova@exemplo.com.br',
  telefone: '11912345678',
  endereco: {
    cep: '01451000',
    logradouro: 'Rua Açaí',
    numero: '7',
    complemento: 'apto 12',
    bairro: 'Jardim Paulistano',
    cidade: 'São Paulo',
    uf: 'SP',
  },
};
const flat = (text: string) => text.replace(/\s+/g, ' ');

async function contractOf(nrApolice: string) {
  return db
    .selectFrom('policies as a')
    .innerJoin('proposals as p', 'p.id', 'a.proposal_id')
    .select(['a.nr_apolice as nrApolice', 'a.id_contratacao as idContratacao', 'p.nr_proposta as nrProposta', 'a.id'])
    .where('a.nr_apolice', '=', nrApolice)
    .executeTakeFirstOrThrow();
}

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  call = apiClient(db);
  policy = await contractOf((await sellResidential(db)).nrApolice!);
  legacy = await db
    .selectFrom('policies')
    .select(['nr_apolice as nrApolice', 'id_contratacao as idContratacao'])
    .where('generation', '=', 'v1')
    // The seed also has legacy policies cancelled (a refund owed) and renewed: the one in force first sold.
    .where('status', '=', 'VIGENTE')
    .orderBy('id')
    .executeTakeFirstOrThrow();
});
afterAll(() => close());

const tokens = new Map<string, string>();
async function headers(email: string) {
  if (!tokens.has(email)) {
    const login = await signInApi(call, email);
    expect(login.status, JSON.stringify(login.json)).toBe(200);
    tokens.set(email, (login.json.resultado?.token ?? login.json.token ?? login.json.dado?.token) as string);
  }
  return { authtoken: tokens.get(email)! };
}
const endorse = async (email: string, idContratacao: number, body: unknown, base = 'bff') =>
  call('POST', `/api/${base}/v1/apolices/${idContratacao}/endossos/contato`, { headers: await headers(email), body });

async function serviceEndorse(email: string, idContratacao: number, contact: InsuredContact, at = new Date()) {
  const viewer = await viewerByEmail(db, email);
  const scope = await scopeFor(db, viewer, 'APOLICES');
  return endorseContact(db, scope, viewer.generation, idContratacao, contact, viewer.user.idUsuario, at);
}

describe('the contact endorsement’s rules', () => {
  it('changes the contact from today, with its endorsement holding before and after and the premium untouched', async () => {
    const fresh = await contractOf((await sellResidential(db)).nrApolice!);
    const { nrEndosso } = await serviceEndorse(SELLER, fresh.idContratacao, NEW_CONTACT);
    expect(nrEndosso).toMatch(/^\d{4}\d{8}$/);
    const row = await db.selectFrom('policies').select(['contato', 'premio_total']).where('id', '=', fresh.id).executeTakeFirstOrThrow();
    expect(row.contato).toEqual(NEW_CONTACT);
    const [entry] = await endorsementHistory(db, fresh.id);
    expect(entry).toMatchObject({
      nrEndosso,
      tipo: 'CONTATO',
      premioAnterior: row.premio_total,
      premioNovo: row.premio_total,
      restituicao: null,
    });
    const stored = await db.selectFrom('endorsements').select('dados').where('nr_endosso', '=', nrEndosso).executeTakeFirstOrThrow();
    expect(stored.dados).toMatchObject({ antes: { email: DEMO_INSURED.residencial.email }, depois: NEW_CONTACT });
    // The same data again changes nothing, and says so.
    await expect(serviceEndorse(SELLER, fresh.idContratacao, NEW_CONTACT)).rejects.toMatchObject({
      kind: 'invalid',
      message: 'Nenhum dado foi alterado.',
    });
    // So does the quote's contact typed with masks and case: the schema's output is compared, not the typing.
    const other = await contractOf((await sellResidential(db)).nrApolice!);
    const quoted: InsuredContact = {
      email: DEMO_INSURED.residencial.email.toUpperCase(),
      telefone: '(11) 98765-4321',
      endereco: { ...(DEMO_INSURED.residencial.endereco as InsuredContact['endereco']), complemento: '' },
    };
    await expect(serviceEndorse(SELLER, other.idContratacao, quoted)).rejects.toMatchObject({ kind: 'invalid' });
    expect(await endorsementHistory(db, fresh.id)).toHaveLength(1);
  });

  it('refuses a cancelled or an expired policy (409, pt-BR) and writes nothing', async () => {
    const cancelled = await contractOf((await sellResidential(db)).nrApolice!);
    await db.updateTable('policies').set({ status: 'CANCELADA', cancelada_em: '2026-01-10' }).where('id', '=', cancelled.id).execute();
    await expect(serviceEndorse(SELLER, cancelled.idContratacao, NEW_CONTACT)).rejects.toMatchObject({
      kind: 'conflict',
      message: 'Esta apólice está cancelada: não aceita endossos.',
    });
    const expired = await contractOf((await sellResidential(db)).nrApolice!);
    await expect(serviceEndorse(SELLER, expired.idContratacao, NEW_CONTACT, new Date(Date.now() + 800 * 86_400_000))).rejects.toMatchObject(
      {
        kind: 'conflict',
        message: 'A vigência desta apólice terminou: não aceita endossos.',
      },
    );
    const written = await db.selectFrom('endorsements').select('id').where('policy_id', 'in', [cancelled.id, expired.id]).execute();
    expect(written).toEqual([]);
  });
});

describe('POST /v1/apolices/{idContratacao}/endossos/contato, per company', () => {
  it.each([
    ['the seller', SELLER, 200],
    ['the partner admin of the company', 'parceiro.admin@parceiro.demo', 200],
    ['a user of another company', 'substabelecido@parceiro.demo', 404],
  ])('%s: %s → %i', async (_, email, status) => {
    const fresh = await contractOf((await sellResidential(db)).nrApolice!);
    const answer = await endorse(email, fresh.idContratacao, NEW_CONTACT);
    expect(answer.status, JSON.stringify(answer.json)).toBe(status);
    if (status === 200)
      expect(answer.json.dado.endosso).toMatchObject({
        nrApolice: fresh.nrApolice,
        pdf: expect.stringMatching(new RegExp(`^/v2/relatorios/pdf/endosso/apolice/${fresh.nrApolice}\\?endosso=\\d{12}$`)),
      });
    else expect(answer.json.message).toBe('Apólice não encontrada.');
  });

  it('an unknown contract is the same 404; without a session 401; another generation’s session 401', async () => {
    expect((await endorse(SELLER, 99_999_999, NEW_CONTACT)).status).toBe(404);
    const anonymous = await call('POST', `/api/bff/v1/apolices/${policy.idContratacao}/endossos/contato`, { body: NEW_CONTACT });
    expect(anonymous.status).toBe(401);
    expect((await endorse('vendedor@legado.demo', policy.idContratacao, NEW_CONTACT)).status).toBe(401);
  });

  it('bad input: 400 with each field’s pt-BR message', async () => {
    const answer = await endorse(SELLER, policy.idContratacao, {
      ...NEW_CONTACT,
      telefone: '123',
      endereco: { ...NEW_CONTACT.endereco, cep: '0145' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.erros).toMatchObject({
      telefone: ['Informe o telefone no formato (DD) NNNNN-NNNN.'],
      'endereco.cep': ['Informe o CEP com 8 dígitos.'],
    });
    expect((await endorse(SELLER, 0, NEW_CONTACT)).status).toBe(400);
  });

  it('legacy: the seller endorses their policy through the platform API; another legacy user and the v2 BFF get a 404', async () => {
    expect((await endorse('consultor@legado.demo', legacy.idContratacao, NEW_CONTACT, 'plataforma')).status).toBe(404);
    expect((await endorse(SELLER, legacy.idContratacao, NEW_CONTACT)).status).toBe(404);
    const answer = await endorse('vendedor@legado.demo', legacy.idContratacao, NEW_CONTACT, 'plataforma');
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.resultado.endosso.pdf).toMatch(new RegExp(`^/relatorios/endosso/apolice/${legacy.nrApolice}\\?endosso=`));
  });
});

describe('the endorsement PDF and the policy’s', () => {
  const pdf = async (email: string, nrApolice: string, type: string, endosso: string | null = null) =>
    policyPdfResponse(db, await viewerByEmail(db, email), { type, nrApolice, parcela: null, endosso }, new Date(), '127.0.0.1');

  it('prints the endorsement for whoever sees the policy, and the policy then carries the new contact', async () => {
    const fresh = await contractOf((await sellResidential(db)).nrApolice!);
    const { nrEndosso } = await serviceEndorse(SELLER, fresh.idContratacao, NEW_CONTACT);
    const response = (await pdf(SELLER, fresh.nrApolice, 'endosso', nrEndosso))!;
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toMatch(
      new RegExp(`^inline; filename="endosso-${nrEndosso}-apolice-${fresh.nrApolice}\\.pdf";`),
    );
    const text = flat(await pdfText(new Uint8Array(await response.arrayBuffer())));
    expect(text).toContain(`Nº do endosso ${nrEndosso}`);
    expect(text).toContain('Alteração de dados cadastrais');
    expect(text).toContain(DEMO_INSURED.residencial.cpf);
    expect(text).toContain('Telefone (alterado) (11) 98765-4321 (11) 91234-5678');
    expect(text).toContain('Rua Açaí, 7, apto 12 — Jardim Paulistano, São Paulo/SP — CEP 01451-000');
    expect((await pdf('parceiro.admin@parceiro.demo', fresh.nrApolice, 'endosso', nrEndosso))?.status).toBe(200);

    const policyText = flat(await pdfText(new Uint8Array(await (await pdf(SELLER, fresh.nrApolice, 'apolice'))!.arrayBuffer())));
    expect(policyText).toContain('marina.nova@exemplo.com.br');
    expect(policyText).toContain('Rua Açaí, 7, apto 12');
    expect(policyText).not.toContain('Avenida Paulista, 120');
    const viewer = await viewerByEmail(db, SELLER);
    const detail = await findPolicy(db, await scopeFor(db, viewer, 'APOLICES'), 'v2', fresh.nrApolice, '2026-01-01');
    expect(detail?.contact).toEqual(NEW_CONTACT);
  });

  it('is a 404 for another company, another policy’s number, an unknown or malformed endorsement', async () => {
    const fresh = await contractOf((await sellResidential(db)).nrApolice!);
    const { nrEndosso } = await serviceEndorse(SELLER, fresh.idContratacao, NEW_CONTACT);
    expect(await pdf('substabelecido@parceiro.demo', fresh.nrApolice, 'endosso', nrEndosso)).toBeUndefined();
    expect(await pdf('vendedor@legado.demo', fresh.nrApolice, 'endosso', nrEndosso)).toBeUndefined();
    expect(await pdf(SELLER, policy.nrApolice, 'endosso', nrEndosso)).toBeUndefined();
    expect(await pdf(SELLER, fresh.nrApolice, 'endosso', '209900000001')).toBeUndefined();
    expect(await pdf(SELLER, fresh.nrApolice, 'endosso', `${nrEndosso}'`)).toBeUndefined();
    expect(await pdf(SELLER, fresh.nrApolice, 'endosso', null)).toBeUndefined();
  });
});
