import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { cancelWholePolicy, sellResidential, viewerByEmail } from '../fixtures/selling';
import { currentCharge, payCharge } from '../../src/server/services/after-sale/charges';
import { scopeFor } from '../../src/server/services/identity/scope';
import { ledgerCsv, ledgerOfPolicy } from '../../src/server/services/after-sale/ledger';
import { listRefundQueue, payRefund, reopenRefund, returnRefund, type RefundActor } from '../../src/server/services/after-sale/refunds';
import { pageAccess } from '../../src/lib/route-guards';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import type { Scope } from '../../src/lib/scope';

/**
 * Issue 31 (slice E): the ledger of a policy and the refunds queue through the real services — a
 * policy sold, paid in part, cancelled with a refund owed; the ledger and its CSV only within the
 * viewer's scope; the queue's actions for the staff only; a refund paid twice at once paid once with
 * one e-mail; returned, its destination corrected (decision 056), paid again.
 */
const SOLD = new Date('2026-03-02T13:00:00Z');
const CANCELLED = new Date('2026-06-10T15:00:00Z');
let db: DB;
let close: () => Promise<void>;
let admin: Scope;
let actor: RefundActor;
let policy: { nrApolice: string; id: number };
let refundId: number;

const demoBank = { demoBank: true };
const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  ({ db, close } = await freshDatabase({ afterSaleDemo: false }));
  const { nrApolice } = await sellResidential(db, { at: SOLD });
  const boletos = await scopeFor(db, await viewerByEmail(db, 'parceiro@parceiro.demo'), 'BOLETOS');
  for (const numero of [1, 2]) {
    const charge = await currentCharge(db, boletos, 'v2', nrApolice!, numero);
    await payCharge(db, { code: charge.linhaDigitavel, externalId: `t-${numero}`, origem: 'BANCO_DEMO' }, at('2026-03-05T12:00:00Z'));
  }
  // A duplicate payment of the 1st installment: received, owed back.
  const first = await db
    .selectFrom('charges as c')
    .innerJoin('installments as i', 'i.id', 'c.installment_id')
    .innerJoin('policies as a', 'a.id', 'i.policy_id')
    .select(['c.linha_digitavel', 'c.total'])
    .where('a.nr_apolice', '=', nrApolice!)
    .where('i.numero', '=', 1)
    .executeTakeFirstOrThrow();
  await payCharge(
    db,
    { code: first.linha_digitavel, externalId: 't-dup', origem: 'WEBHOOK', valor: first.total },
    at('2026-03-06T12:00:00Z'),
  );
  await cancelWholePolicy(db, 'parceiro@parceiro.demo', nrApolice!, CANCELLED);
  const row = await db.selectFrom('policies').select('id').where('nr_apolice', '=', nrApolice!).executeTakeFirstOrThrow();
  policy = { nrApolice: nrApolice!, id: row.id };
  // The cancellation's refund (the duplicate payment has its own, decision 074).
  refundId = (
    await db
      .selectFrom('refunds')
      .select('id')
      .where('policy_id', '=', row.id)
      .where('endorsement_id', 'is not', null)
      .executeTakeFirstOrThrow()
  ).id;
  const staff = await viewerByEmail(db, 'admin@seguradora.demo');
  admin = await scopeFor(db, staff, 'APOLICES');
  actor = { userId: staff.user.idUsuario, email: staff.user.email, generation: 'v2', ip: '203.0.113.9' };
});
afterAll(() => close());

const mails = () =>
  db.selectFrom('emails').select(['to_address', 'text_body']).where('template', '=', 'restituicao-paga-segurado').orderBy('id').execute();

describe('the ledger of a policy', () => {
  it('lists the charges, the payments (the duplicate owed back), the installments cancelled and the refund owed', async () => {
    const ledger = await ledgerOfPolicy(db, policy.id, '2026-06-10');
    const kinds = ledger.lines.map((l) => l.kind);
    expect(kinds.filter((k) => k === 'PARCELA')).toHaveLength(4);
    expect(kinds.filter((k) => k === 'RECEBIMENTO')).toHaveLength(3);
    expect(kinds.filter((k) => k === 'PARCELA_CANCELADA')).toHaveLength(2);
    const refund = await db.selectFrom('refunds').select(['valor', 'prevista_para']).where('id', '=', refundId).executeTakeFirstOrThrow();
    // The cancellation's (the duplicate's own refund has its line too, decision 074); amounts are unsigned.
    const owed = ledger.lines.find((l) => l.kind === 'RESTITUICAO_DEVIDA' && l.description.includes('endosso'))!;
    expect(owed.amount).toBe(refund.valor);
    expect(owed.description).toContain(`Restituição prevista ${refund.prevista_para.split('-').reverse().join('/')}`);
    const duplicate = ledger.lines.filter((l) => l.kind === 'RECEBIMENTO').at(-1)!;
    expect(duplicate.description).toContain('em duplicidade');
    // What was received above the paid installments (its own refund, decision 074), and the cancellation's refund, are owed to the insured.
    expect(ledger.totals.owedToInsured).toBe(ledger.totals.receivedInExcess + refund.valor);
    expect(ledger.totals.owedByInsured).toEqual({ due: 0, later: 0 });
    expect(ledger.totals.owedBack).toBe(refund.valor + ledger.totals.receivedInExcess);
  });

  it('is a CSV for whoever sees the policy, and nothing (the 404) for anyone else', async () => {
    const csvFor = async (email: string, generation: 'v1' | 'v2' = 'v2') =>
      ledgerCsv(db, await scopeFor(db, await viewerByEmail(db, email), 'APOLICES'), generation, policy.nrApolice, '2026-06-10');
    const csv = await csvFor('parceiro@parceiro.demo');
    expect(csv!.startsWith('\ufeffData;Tipo;Descrição;Valor (R$);Segurado deve (R$);A devolver ao segurado (R$);A vencer')).toBe(true);
    expect(csv).toContain('Restituição devida');
    expect(await csvFor('admin@seguradora.demo')).toBe(csv);
    expect(await csvFor('igor.pereira@parceiro.demo')).toBeUndefined();
    expect(await csvFor('substabelecido@parceiro.demo')).toBeUndefined();
    // The legacy generation does not hold a v2 sale, even for its administrators.
    expect(await csvFor('admin@legado.demo', 'v1')).toBeUndefined();
    expect(await ledgerCsv(db, admin, 'v2', '1 or 1=1', '2026-06-10')).toBeUndefined();
  });
});

describe('the refunds queue', () => {
  it('opens to the staff only: the legacy administrators and the v2 ADMIN', async () => {
    const cases: [string, string, string][] = [
      ['admin@seguradora.demo', '/v2/restituicoes', 'allowed'],
      ['parceiro.admin@parceiro.demo', '/v2/restituicoes', 'forbidden'],
      ['parceiro@parceiro.demo', '/v2/restituicoes', 'forbidden'],
      ['substabelecido@parceiro.demo', '/v2/restituicoes', 'forbidden'],
      ['admin@legado.demo', '/restituicoes', 'allowed'],
      ['vendedor@legado.demo', '/restituicoes', 'forbidden'],
      ['gestor@legado.demo', '/restituicoes', 'forbidden'],
    ];
    for (const [email, path, expected] of cases)
      expect([email, pageAccess(path, await viewerByEmail(db, email), 'DEV')]).toEqual([email, expected]);
  });

  it('lists the refund a pagar in its generation only', async () => {
    const owed = await listRefundQueue(db, admin, 'v2', { status: 'DEVIDA' }, { page: 1 });
    // The duplicate payment's refund (owed since 06/03) comes first, then the cancellation's.
    expect(owed.content.map((r) => [r.nrApolice, r.nrEndosso === null])).toEqual([
      [policy.nrApolice, true],
      [policy.nrApolice, false],
    ]);
    expect(owed.content[1]!.id).toBe(refundId);
    for (const r of owed.content) expect(r.destino).toMatch(/^Pix \(CPF\) \*+\d{4}$/);
    expect((await listRefundQueue(db, admin, 'v1', { status: 'DEVIDA' }, { page: 1 })).content).toEqual([]);
    expect((await listRefundQueue(db, admin, 'v2', { status: 'PAGA' }, { page: 1 })).content).toEqual([]);
    expect((await listRefundQueue(db, admin, 'v2', { status: 'DEVIDA', nrApolice: '999' }, { page: 1 })).content).toEqual([]);
  });

  it('records a payment outside the demo only with the bank’s receipt', async () => {
    await expect(payRefund(db, admin, actor, refundId, {}, { demoBank: false }, CANCELLED)).rejects.toMatchObject({
      kind: 'invalid',
      fieldErrors: { comprovante: [expect.stringContaining('comprovante')] },
    });
    await expect(payRefund(db, admin, actor, refundId, { comprovante: '=cmd|x' }, demoBank, CANCELLED)).rejects.toMatchObject({
      kind: 'invalid',
    });
    expect((await db.selectFrom('refunds').select('status').where('id', '=', refundId).executeTakeFirstOrThrow()).status).toBe('DEVIDA');
  });

  it('cannot mark as returned what was not paid', async () => {
    await expect(returnRefund(db, admin, actor, refundId, { motivo: 'CONTA_ENCERRADA' }, CANCELLED)).rejects.toMatchObject({
      kind: 'conflict',
    });
  });

  it('pays a refund clicked twice at once once: one event, one e-mail to the insured', async () => {
    const when = at('2026-06-12T14:00:00Z');
    const outcomes = await Promise.all([
      payRefund(db, admin, actor, refundId, {}, demoBank, when),
      payRefund(db, admin, actor, refundId, {}, demoBank, when),
    ]);
    expect(outcomes.map((o) => o.repeated).sort()).toEqual([false, true]);
    const row = await db.selectFrom('refunds').selectAll().where('id', '=', refundId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'PAGA', tentativas: 1, paga_por: actor.userId });
    expect(row.comprovante).toMatch(/^DEMO-/);
    expect(await db.selectFrom('refund_events').select('acao').where('refund_id', '=', refundId).execute()).toEqual([{ acao: 'PAGA' }]);
    const sent = await mails();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to_address).toBe(DEMO_INSURED.residencial.email);
    expect(sent[0]!.text_body).toContain(row.comprovante!);
    const logged = await db
      .selectFrom('access_events')
      .select(['registro', 'detalhe'])
      .where('event', '=', 'RESTITUICAO_ALTERADA')
      .execute();
    expect(logged).toEqual([{ registro: policy.nrApolice, detalhe: expect.stringContaining('paga, comprovante DEMO-') }]);
    // The commission clawback stays what the cancellation recorded.
    expect(row.estorno_comissao).toBeGreaterThanOrEqual(0);
  });

  it('returned by the bank, put back with a corrected destination (only the insured’s own), and paid again', async () => {
    await expect(returnRefund(db, admin, actor, refundId, { motivo: 'OUTRO' }, at('2026-06-13T12:00:00Z'))).rejects.toMatchObject({
      fieldErrors: { detalhe: [expect.any(String)] },
    });
    await expect(returnRefund(db, admin, actor, refundId, { motivo: 'X' }, at('2026-06-13T12:00:00Z'))).rejects.toMatchObject({
      fieldErrors: { motivo: ['Escolha o motivo da devolução.'] },
    });
    const back = await returnRefund(
      db,
      admin,
      actor,
      refundId,
      { motivo: 'CONTA_ENCERRADA', detalhe: 'conta fechada' },
      at('2026-06-13T12:00:00Z'),
    );
    expect(back).toMatchObject({ repeated: false, status: 'DEVOLVIDA' });
    const returned = await listRefundQueue(db, admin, 'v2', { status: 'DEVOLVIDA' }, { page: 1 });
    expect(returned.content[0]).toMatchObject({ nrApolice: policy.nrApolice, motivoDevolucao: 'CONTA_ENCERRADA: conta fechada' });

    // Decision 056: an e-mail key, or an account of someone else, is refused.
    await expect(
      reopenRefund(db, admin, actor, refundId, { tipo: 'PIX', chave: 'terceiro@gmail.com' }, '2026-06-27', at('2026-06-13T13:00:00Z')),
    ).rejects.toMatchObject({ kind: 'invalid', fieldErrors: { chave: [expect.stringContaining('e-mail')] } });
    await expect(
      reopenRefund(
        db,
        admin,
        actor,
        refundId,
        { tipo: 'CONTA', banco: '001', agencia: '1234', conta: '567890', tipoConta: 'corrente', titular: '52998224725' },
        '2026-06-27',
        at('2026-06-13T13:00:00Z'),
      ),
    ).rejects.toMatchObject({ kind: 'invalid' });
    const account = {
      tipo: 'CONTA',
      banco: '001',
      agencia: '1234',
      conta: '567890',
      tipoConta: 'corrente',
      titular: DEMO_INSURED.residencial.cpf,
    };
    const reopened = await reopenRefund(db, admin, actor, refundId, account, '2026-06-27', at('2026-06-13T13:00:00Z'));
    expect(reopened.status).toBe('DEVIDA');
    const again = await listRefundQueue(db, admin, 'v2', { status: 'DEVIDA' }, { page: 1 });
    expect(again.content.find((r) => r.id === refundId)).toMatchObject({
      previstaPara: '2026-06-27',
      tentativas: 1,
      destino: expect.stringContaining('conta ***890'),
    });

    await payRefund(db, admin, actor, refundId, { comprovante: 'TED 2026/0001' }, { demoBank: false }, at('2026-06-14T12:00:00Z'));
    const row = await db.selectFrom('refunds').selectAll().where('id', '=', refundId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'PAGA', tentativas: 2, comprovante: 'TED 2026/0001' });
    expect(await mails()).toHaveLength(2);

    const ledger = await ledgerOfPolicy(db, policy.id, '2026-06-14');
    const refundLines = ledger.lines.filter((l) => l.kind.startsWith('RESTITUICAO')).map((l) => l.kind);
    expect(refundLines).toEqual([
      'RESTITUICAO_DEVIDA', // the duplicate's, owed since 06/03
      'RESTITUICAO_DEVIDA',
      'RESTITUICAO_PAGA',
      'RESTITUICAO_DEVOLVIDA',
      'RESTITUICAO_REABERTA',
      'RESTITUICAO_PAGA',
    ]);
    expect(ledger.totals.paidBack).toBe(row.valor);
    // The duplicate's refund is still to be paid.
    expect(ledger.totals.owedToInsured).toBe(ledger.totals.receivedInExcess);
  });

  it('tells no one when the insured has no e-mail on file', async () => {
    const { nrApolice } = await sellResidential(db, { at: SOLD });
    const boletos = await scopeFor(db, await viewerByEmail(db, 'parceiro@parceiro.demo'), 'BOLETOS');
    const charge = await currentCharge(db, boletos, 'v2', nrApolice!, 1);
    await payCharge(db, { code: charge.linhaDigitavel, externalId: 'sem-email-1', origem: 'BANCO_DEMO' }, at('2026-03-05T12:00:00Z'));
    await cancelWholePolicy(db, 'parceiro@parceiro.demo', nrApolice!, at('2026-03-06T15:00:00Z'));
    const p = await db.selectFrom('policies').select(['id', 'contato']).where('nr_apolice', '=', nrApolice!).executeTakeFirstOrThrow();
    const contato = { ...(p.contato ?? { telefone: '', endereco: {} }), email: '' };
    await db
      .updateTable('policies')
      .set({ contato: JSON.stringify(contato) })
      .where('id', '=', p.id)
      .execute();
    const refund = await db.selectFrom('refunds').select('id').where('policy_id', '=', p.id).executeTakeFirstOrThrow();
    const before = (await mails()).length;
    await payRefund(db, admin, actor, refund.id, {}, demoBank, at('2026-03-07T12:00:00Z'));
    expect((await mails()).length).toBe(before);
  });

  it('finds no refund outside the viewer’s scope or generation', async () => {
    const other = await scopeFor(db, await viewerByEmail(db, 'igor.pereira@parceiro.demo'), 'APOLICES');
    await expect(returnRefund(db, other, actor, refundId, { motivo: 'CONTA_ENCERRADA' }, CANCELLED)).rejects.toMatchObject({
      kind: 'not-found',
    });
    await expect(
      returnRefund(db, admin, { ...actor, generation: 'v1' }, refundId, { motivo: 'CONTA_ENCERRADA' }, CANCELLED),
    ).rejects.toMatchObject({
      kind: 'not-found',
    });
  });
});
