import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { sellResidential, viewerByEmail } from '../fixtures/selling';
import { currentCharge, payCharge } from '../../src/server/services/charges';
import { cancellationContext, confirmCancellation, previewOf, saveCoverages, saveReason } from '../../src/server/services/cancellation';
import { scopeFor } from '../../src/server/services/scope';
import { computeRefund, shortTermPercent } from '../../src/lib/refund';
import type { Scope } from '../../src/lib/scope';

/**
 * Issue 14: cancelling a policy through the real services — the steps kept in a draft, the refund
 * by the rules, the open installments and their boletos cancelled or reduced, once however often
 * it is confirmed, and nothing for a viewer whose scope does not hold the policy.
 */
const SOLD = new Date('2026-03-02T13:00:00Z');
const at = (iso: string) => new Date(`${iso}T15:00:00Z`);
const PIX = { tipo: 'PIX', chave: 'marina.alves@exemplo.com.br' };
let db: DB;
let close: () => Promise<void>;
let partner: Scope;
let partnerId: number;

beforeAll(async () => {
  ({ db, close } = await freshDatabase({ afterSaleDemo: false }));
  const viewer = await viewerByEmail(db, 'parceiro@parceiro.demo');
  partner = await scopeFor(db, viewer, 'APOLICES');
  partnerId = viewer.user.idUsuario;
});
afterAll(() => close());

async function soldPolicy(contratacao?: Record<string, unknown>, when = SOLD) {
  const { nrApolice } = await sellResidential(db, { at: when, ...(contratacao ? { contratacao } : {}) });
  const row = await db
    .selectFrom('policies')
    .select(['id', 'id_contratacao'])
    .where('nr_apolice', '=', nrApolice!)
    .executeTakeFirstOrThrow();
  return { nrApolice: nrApolice!, id: row.id, idContratacao: row.id_contratacao };
}

async function pay(nrApolice: string, numero: number, when: Date) {
  const boletos = await scopeFor(db, await viewerByEmail(db, 'parceiro@parceiro.demo'), 'BOLETOS');
  const charge = await currentCharge(db, boletos, 'v2', nrApolice, numero);
  await payCharge(db, { code: charge.linhaDigitavel, externalId: `t-${nrApolice}-${numero}`, origem: 'BANCO_DEMO' }, when);
}

const context = (idContratacao: number, when: Date, scope = partner) =>
  cancellationContext(db, scope, 'v2', idContratacao, partnerId, when.toISOString().slice(0, 10));

async function steps(idContratacao: number, when: Date, reason: Record<string, unknown>, coverages: Record<string, unknown>) {
  await saveReason(db, await context(idContratacao, when), partnerId, reason, when);
  await saveCoverages(db, await context(idContratacao, when), partnerId, coverages, when);
  return context(idContratacao, when);
}

const installments = (policyId: number) =>
  db.selectFrom('installments').select(['numero', 'status', 'valor']).where('policy_id', '=', policyId).orderBy('numero').execute();

describe('a whole cancellation asked by the insured', () => {
  it('keeps the short-term share, cancels the open installments and their boletos, and is confirmed once', async () => {
    const policy = await soldPolicy();
    for (const numero of [1, 2, 3]) await pay(policy.nrApolice, numero, at('2026-03-05'));
    const when = at('2026-06-10');
    const ctx = await steps(
      policy.idContratacao,
      when,
      { solicitante: 'SEGURADO', motivo: 'VENDA_DO_BEM', efetivaEm: '2026-06-10' },
      { escopo: 'TOTAL' },
    );
    const preview = previewOf(ctx)!;
    const { policy: p } = ctx;
    expect(preview.refund.rule).toBe('PRAZO_CURTO');
    expect(preview.refund.daysUsed).toBe(100);
    expect(preview.refund.percentKept).toBe(shortTermPercent(100));
    const paid = (await installments(policy.id)).filter((i) => i.status === 'PAGA').reduce((sum, i) => sum + i.valor, 0);
    expect(preview.refund.total).toBeGreaterThan(0);
    expect(preview.refund).toEqual(
      computeRefund({
        requester: 'SEGURADO',
        inicioVigencia: p.inicioVigencia,
        fimVigencia: p.fimVigencia,
        contratadaEm: '2026-03-02',
        efetivaEm: '2026-06-10',
        premio: { net: p.premioLiquido, policyCost: p.custoApolice, iof: p.iof, total: p.premioTotal },
        pago: paid,
        commissionPercent: ctx.commissionPercent,
      }),
    );

    const [first, second] = await Promise.all([
      confirmCancellation(db, partner, 'v2', policy.idContratacao, partnerId, { chave: ctx.draft!.chave, conta: PIX }, when),
      confirmCancellation(db, partner, 'v2', policy.idContratacao, partnerId, { chave: ctx.draft!.chave, conta: PIX }, when),
    ]);
    expect(second.nrEndosso).toBe(first.nrEndosso);
    expect([first.repeated, second.repeated].sort()).toEqual([false, true]);
    const endorsements = await db.selectFrom('endorsements').selectAll().where('policy_id', '=', policy.id).execute();
    expect(endorsements).toHaveLength(1);
    expect(endorsements[0]!.tipo).toBe('CANCELAMENTO');

    const after = await db.selectFrom('policies').select(['status', 'cancelada_em']).where('id', '=', policy.id).executeTakeFirstOrThrow();
    expect(after).toEqual({ status: 'CANCELADA', cancelada_em: '2026-06-10' });
    expect((await installments(policy.id)).map((i) => i.status)).toEqual(['PAGA', 'PAGA', 'PAGA', 'CANCELADA']);
    const charges = await db
      .selectFrom('charges as c')
      .innerJoin('installments as i', 'i.id', 'c.installment_id')
      .select('c.status')
      .where('i.policy_id', '=', policy.id)
      .where('c.status', '=', 'ATIVA')
      .execute();
    expect(charges).toHaveLength(0);
    const refund = await db.selectFrom('refunds').selectAll().where('policy_id', '=', policy.id).executeTakeFirstOrThrow();
    expect(refund.valor).toBe(preview.refund.total);
    expect(refund.estorno_comissao).toBe(preview.refund.clawback);
    expect(refund.status).toBe('DEVIDA');
    expect(refund.prevista_para).toBe('2026-06-24'); // ten business days after Wednesday 10/06
    expect(await db.selectFrom('endorsement_drafts').selectAll().where('policy_id', '=', policy.id).execute()).toHaveLength(0);

    // A cancelled policy takes no other cancellation.
    await expect(
      saveReason(
        db,
        await context(policy.idContratacao, when),
        partnerId,
        { solicitante: 'SEGURADO', motivo: 'OUTRO_SEGURO', efetivaEm: '2026-06-11' },
        when,
      ),
    ).rejects.toMatchObject({ status: 409 });
  });

  it('gives everything back within 7 days of contracting, the policy cost included', async () => {
    const policy = await soldPolicy({ formaPagamento: 'boleto', parcelas: 1, diaVencimento: 10 });
    await pay(policy.nrApolice, 1, at('2026-03-04'));
    const when = at('2026-03-06');
    const ctx = await steps(
      policy.idContratacao,
      when,
      { solicitante: 'SEGURADO', motivo: 'ARREPENDIMENTO', efetivaEm: '2026-03-06' },
      { escopo: 'TOTAL' },
    );
    const preview = previewOf(ctx)!;
    expect(preview.refund.rule).toBe('ARREPENDIMENTO');
    const paid = (await installments(policy.id))[0]!.valor;
    expect(preview.refund.total).toBe(paid);
  });

  it('is pro rata by day when the insurer cancels', async () => {
    const policy = await soldPolicy();
    const when = at('2026-05-01');
    const ctx = await steps(
      policy.idContratacao,
      when,
      { solicitante: 'SEGURADORA', motivo: 'FALTA_PAGAMENTO', efetivaEm: '2026-05-01' },
      { escopo: 'TOTAL' },
    );
    const preview = previewOf(ctx)!;
    expect(preview.refund.rule).toBe('PRO_RATA');
    expect(preview.refund.total).toBe(0); // nothing was paid
    const done = await confirmCancellation(db, partner, 'v2', policy.idContratacao, partnerId, { chave: ctx.draft!.chave }, when);
    expect(done.repeated).toBe(false);
    expect(await db.selectFrom('refunds').selectAll().where('policy_id', '=', policy.id).execute()).toHaveLength(0);
  });
});

describe('a partial cancellation', () => {
  it('drops an additional coverage: the premium and the open installments go down by its share', async () => {
    const policy = await soldPolicy();
    await pay(policy.nrApolice, 1, at('2026-03-05'));
    const when = at('2026-04-01');
    const before = await installments(policy.id);
    const ctx = await steps(
      policy.idContratacao,
      when,
      { solicitante: 'SEGURADO', motivo: 'OUTRO_SEGURO', efetivaEm: '2026-04-01' },
      { escopo: 'PARCIAL', coberturas: ['roubo'] },
    );
    const preview = previewOf(ctx)!;
    expect(preview.partial).toBe(true);
    expect(preview.coverages.map((c) => c.id)).toEqual(['roubo']);
    await confirmCancellation(db, partner, 'v2', policy.idContratacao, partnerId, { chave: ctx.draft!.chave, conta: PIX }, when);
    const after = await installments(policy.id);
    expect(after.map((i) => i.status)).toEqual(['PAGA', 'ABERTA', 'ABERTA', 'ABERTA']);
    const reduction = before.slice(1).reduce((s, i) => s + i.valor, 0) - after.slice(1).reduce((s, i) => s + i.valor, 0);
    expect(reduction).toBe(preview.openReduction);
    const row = await db
      .selectFrom('policies')
      .select(['status', 'premio_total', 'coberturas_canceladas'])
      .where('id', '=', policy.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'VIGENTE', premio_total: preview.premiumAfter, coberturas_canceladas: ['roubo'] });
    const now = await context(policy.idContratacao, when);
    expect(now.policy.coverages.find((c) => c.id === 'roubo')!.cancelled).toBe(true);
    expect(now.inForce.map((c) => c.id)).not.toContain('roubo');
  });

  it('refuses the main coverage, an unknown one, and a line that does not allow it', async () => {
    const policy = await soldPolicy();
    const when = at('2026-04-01');
    await saveReason(
      db,
      await context(policy.idContratacao, when),
      partnerId,
      { solicitante: 'SEGURADO', motivo: 'OUTRO_SEGURO', efetivaEm: '2026-04-01' },
      when,
    );
    const ctx = await context(policy.idContratacao, when);
    const main = ctx.inForce[0]!.id;
    await expect(saveCoverages(db, ctx, partnerId, { escopo: 'PARCIAL', coberturas: [main] }, when)).rejects.toMatchObject({
      status: 400,
      fieldErrors: { coberturas: [expect.stringContaining('cobertura básica')] },
    });
    await expect(saveCoverages(db, ctx, partnerId, { escopo: 'PARCIAL', coberturas: ['nada'] }, when)).rejects.toMatchObject({
      status: 400,
    });
    await expect(saveCoverages(db, ctx, partnerId, { escopo: 'PARCIAL', coberturas: [] }, when)).rejects.toMatchObject({ status: 400 });
    await expect(saveCoverages(db, ctx, partnerId, {}, when)).rejects.toMatchObject({
      status: 400,
      fieldErrors: { escopo: expect.any(Array) },
    });
  });
});

describe('bad input and other viewers', () => {
  it('refuses a day outside the term, a reason of the other requester, and an account not the insured’s', async () => {
    const policy = await soldPolicy();
    await pay(policy.nrApolice, 1, at('2026-03-05'));
    const when = at('2026-04-01');
    const ctx = await context(policy.idContratacao, when);
    await expect(
      saveReason(db, ctx, partnerId, { solicitante: 'SEGURADO', motivo: 'VENDA_DO_BEM', efetivaEm: '2026-02-01' }, when),
    ).rejects.toMatchObject({
      status: 400,
      fieldErrors: { efetivaEm: ['O cancelamento não pode valer antes do início da vigência (02/03/2026).'] },
    });
    await expect(
      saveReason(db, ctx, partnerId, { solicitante: 'SEGURADO', motivo: 'VENDA_DO_BEM', efetivaEm: '2027-03-03' }, when),
    ).rejects.toMatchObject({
      status: 400,
      fieldErrors: { efetivaEm: [expect.stringContaining('depois do fim da vigência')] },
    });
    await expect(
      saveReason(db, ctx, partnerId, { solicitante: 'SEGURADO', motivo: 'FALTA_PAGAMENTO', efetivaEm: '2026-04-01' }, when),
    ).rejects.toMatchObject({
      status: 400,
      fieldErrors: { motivo: expect.any(Array) },
    });
    const done = await steps(
      policy.idContratacao,
      when,
      { solicitante: 'SEGURADO', motivo: 'VENDA_DO_BEM', efetivaEm: '2026-04-01' },
      { escopo: 'TOTAL' },
    );
    const account = { tipo: 'CONTA', banco: '341', agencia: '1234', conta: '123456', tipoConta: 'corrente', titular: '529.982.247-25' };
    await expect(
      confirmCancellation(db, partner, 'v2', policy.idContratacao, partnerId, { chave: done.draft!.chave, conta: account }, when),
    ).rejects.toMatchObject({ status: 400, fieldErrors: { 'conta.titular': [expect.stringContaining('segurado')] } });
    await expect(
      confirmCancellation(
        db,
        partner,
        'v2',
        policy.idContratacao,
        partnerId,
        { chave: done.draft!.chave, conta: { tipo: 'PIX', chave: 'não é chave' } },
        when,
      ),
    ).rejects.toMatchObject({ status: 400 });
    // Nothing was written by the refused confirmations.
    expect(await db.selectFrom('endorsements').selectAll().where('policy_id', '=', policy.id).execute()).toHaveLength(0);
    expect((await db.selectFrom('policies').select('status').where('id', '=', policy.id).executeTakeFirstOrThrow()).status).toBe('VIGENTE');
  });

  it('is a 404 for a viewer of another company, and for a contract that does not exist', async () => {
    const policy = await soldPolicy();
    const other = await scopeFor(db, await viewerByEmail(db, 'substabelecido@parceiro.demo'), 'APOLICES');
    await expect(context(policy.idContratacao, at('2026-04-01'), other)).rejects.toMatchObject({ status: 404 });
    await expect(context(999_999, at('2026-04-01'))).rejects.toMatchObject({ status: 404 });
    await expect(
      confirmCancellation(db, other, 'v2', policy.idContratacao, partnerId, { chave: crypto.randomUUID() }, at('2026-04-01')),
    ).rejects.toMatchObject({ status: 404 });
  });
});
