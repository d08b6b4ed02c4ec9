import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { sellResidential, viewerByEmail } from '../fixtures/selling';
import { currentCharge, payCharge } from '../../src/server/services/after-sale/charges';
import {
  applyScheduledCancellations,
  cancellationContext,
  confirmCancellation,
  previewOf,
  saveCoverages,
  saveReason,
  undoScheduledCancellation,
  type CancellationActor,
} from '../../src/server/services/after-sale/cancellation';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import { scopeFor } from '../../src/server/services/identity/scope';
import { computeRefund, shortTermPercent } from '../../src/lib/refund';
import type { Scope } from '../../src/lib/scope';
import * as z from 'zod/mini';
import { contactSchema } from '../../src/lib/endorsements';
import { formatBRL } from '../../src/lib/products/money';
import { endorseContact } from '../../src/server/services/after-sale/endorsement-contact';

/**
 * Issue 14: cancelling a policy through the real services — the steps kept in a draft, the refund
 * by the rules, the open installments and their boletos cancelled or reduced, once however often
 * it is confirmed, and nothing for a viewer whose scope does not hold the policy.
 */
const SOLD = new Date('2026-03-02T13:00:00Z');
const at = (iso: string) => new Date(`${iso}T15:00:00Z`);
/** The demo residential insured's own CPF key: a refund goes only to the insured's document (decision 056). */
const PIX = { tipo: 'PIX', chave: DEMO_INSURED.residencial.cpf };
let db: DB;
let close: () => Promise<void>;
let partner: Scope;
let partnerId: number;
let actor: CancellationActor;

beforeAll(async () => {
  ({ db, close } = await freshDatabase({ afterSaleDemo: false }));
  const viewer = await viewerByEmail(db, 'parceiro@parceiro.demo');
  partner = await scopeFor(db, viewer, 'APOLICES');
  partnerId = viewer.user.idUsuario;
  actor = { userId: partnerId, insurerStaff: false };
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

const context = (idContratacao: number, when: Date, scope = partner, who = actor) =>
  cancellationContext(db, scope, 'v2', idContratacao, who, when.toISOString().slice(0, 10));

async function steps(idContratacao: number, when: Date, reason: Record<string, unknown>, coverages: Record<string, unknown>, who = actor) {
  await saveReason(db, await context(idContratacao, when, partner, who), reason, when);
  await saveCoverages(db, await context(idContratacao, when, partner, who), coverages, when);
  return context(idContratacao, when, partner, who);
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
        solicitadaEm: '2026-06-10',
        efetivaEm: '2026-06-10',
        premio: { net: p.premioLiquido, policyCost: p.custoApolice, iof: p.iof, total: p.premioTotal },
        pago: paid,
        commissionPercent: ctx.commissionPercent,
      }),
    );

    const [first, second] = await Promise.all([
      confirmCancellation(db, partner, 'v2', policy.idContratacao, actor, { chave: ctx.draft!.chave, conta: PIX }, when),
      confirmCancellation(db, partner, 'v2', policy.idContratacao, actor, { chave: ctx.draft!.chave, conta: PIX }, when),
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
        { solicitante: 'SEGURADO', motivo: 'OUTRO_SEGURO', efetivaEm: '2026-06-11' },
        when,
      ),
    ).rejects.toMatchObject({ kind: 'conflict' });
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
    const done = await confirmCancellation(db, partner, 'v2', policy.idContratacao, actor, { chave: ctx.draft!.chave }, when);
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
    await confirmCancellation(db, partner, 'v2', policy.idContratacao, actor, { chave: ctx.draft!.chave, conta: PIX }, when);
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
      { solicitante: 'SEGURADO', motivo: 'OUTRO_SEGURO', efetivaEm: '2026-04-01' },
      when,
    );
    const ctx = await context(policy.idContratacao, when);
    const main = ctx.inForce[0]!.id;
    await expect(saveCoverages(db, ctx, { escopo: 'PARCIAL', coberturas: [main] }, when)).rejects.toMatchObject({
      kind: 'invalid',
      fieldErrors: { coberturas: [expect.stringContaining('cobertura básica')] },
    });
    await expect(saveCoverages(db, ctx, { escopo: 'PARCIAL', coberturas: ['nada'] }, when)).rejects.toMatchObject({
      kind: 'invalid',
    });
    await expect(saveCoverages(db, ctx, { escopo: 'PARCIAL', coberturas: [] }, when)).rejects.toMatchObject({ kind: 'invalid' });
    await expect(saveCoverages(db, ctx, {}, when)).rejects.toMatchObject({
      kind: 'invalid',
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
      saveReason(db, ctx, { solicitante: 'SEGURADO', motivo: 'VENDA_DO_BEM', efetivaEm: '2026-02-01' }, when),
    ).rejects.toMatchObject({
      kind: 'invalid',
      fieldErrors: { efetivaEm: ['O cancelamento não pode valer antes do início da vigência (02/03/2026).'] },
    });
    await expect(
      saveReason(db, ctx, { solicitante: 'SEGURADO', motivo: 'VENDA_DO_BEM', efetivaEm: '2027-03-03' }, when),
    ).rejects.toMatchObject({
      kind: 'invalid',
      fieldErrors: { efetivaEm: [expect.stringContaining('depois do fim da vigência')] },
    });
    await expect(
      saveReason(db, ctx, { solicitante: 'SEGURADO', motivo: 'FALTA_PAGAMENTO', efetivaEm: '2026-04-01' }, when),
    ).rejects.toMatchObject({
      kind: 'invalid',
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
      confirmCancellation(db, partner, 'v2', policy.idContratacao, actor, { chave: done.draft!.chave, conta: account }, when),
    ).rejects.toMatchObject({ kind: 'invalid', fieldErrors: { 'conta.titular': [expect.stringContaining('segurado')] } });
    await expect(
      confirmCancellation(
        db,
        partner,
        'v2',
        policy.idContratacao,
        actor,
        { chave: done.draft!.chave, conta: { tipo: 'PIX', chave: 'não é chave' } },
        when,
      ),
    ).rejects.toMatchObject({ kind: 'invalid' });
    // Issue 27: a key that does not show whose it is took the insured's refund.
    await expect(
      confirmCancellation(
        db,
        partner,
        'v2',
        policy.idContratacao,
        actor,
        { chave: done.draft!.chave, conta: { tipo: 'PIX', chave: 'terceiro.qualquer@gmail.com' } },
        when,
      ),
    ).rejects.toMatchObject({
      kind: 'invalid',
      fieldErrors: { 'conta.chave': [expect.stringContaining('chave Pix de CPF/CNPJ do segurado')] },
    });
    // Nothing was written by the refused confirmations.
    expect(await db.selectFrom('endorsements').selectAll().where('policy_id', '=', policy.id).execute()).toHaveLength(0);
    expect((await db.selectFrom('policies').select('status').where('id', '=', policy.id).executeTakeFirstOrThrow()).status).toBe('VIGENTE');
  });

  it('is a 404 for a viewer of another company, and for a contract that does not exist', async () => {
    const policy = await soldPolicy();
    const other = await scopeFor(db, await viewerByEmail(db, 'substabelecido@parceiro.demo'), 'APOLICES');
    await expect(context(policy.idContratacao, at('2026-04-01'), other)).rejects.toMatchObject({ kind: 'not-found' });
    await expect(context(999_999, at('2026-04-01'))).rejects.toMatchObject({ kind: 'not-found' });
    await expect(
      confirmCancellation(db, other, 'v2', policy.idContratacao, actor, { chave: crypto.randomUUID() }, at('2026-04-01')),
    ).rejects.toMatchObject({ kind: 'not-found' });
  });
});

const emailsTo = (to: string, template: string) =>
  db
    .selectFrom('emails')
    .select(['subject', 'text_body'])
    .where('to_address', '=', to)
    .where('template', '=', template)
    .orderBy('id')
    .execute();

describe('the effective day (issue 27, decision 055)', () => {
  // Reproduces the finding: 45 days after contracting, a partner dated the cancellation to the term's
  // start and was given a withdrawal's full refund for coverage already run.
  it('refuses a partner a day in the past, and counts the 7 days of withdrawal to the request', async () => {
    const policy = await soldPolicy();
    await pay(policy.nrApolice, 1, at('2026-03-05'));
    const when = at('2026-04-16'); // 45 days after the sale on 02/03
    await expect(
      saveReason(
        db,
        await context(policy.idContratacao, when),
        { solicitante: 'SEGURADO', motivo: 'OUTRO_SEGURO', efetivaEm: '2026-03-02' },
        when,
      ),
    ).rejects.toMatchObject({
      kind: 'invalid',
      fieldErrors: {
        efetivaEm: ['Só a seguradora cancela com data retroativa: escolha hoje (16/04/2026) ou um dia adiante, que fica agendado.'],
      },
    });
    const ctx = await steps(
      policy.idContratacao,
      when,
      { solicitante: 'SEGURADO', motivo: 'OUTRO_SEGURO', efetivaEm: '2026-04-16' },
      { escopo: 'TOTAL' },
    );
    const preview = previewOf(ctx)!;
    expect(preview).toMatchObject({ timing: 'IMEDIATO', refund: { rule: 'PRAZO_CURTO', daysUsed: 45 } });
    expect(preview.refund.netKept).toBeGreaterThan(0);
  });

  it('lets the insurer’s staff date it back up to 30 days, with a reason, still counting the withdrawal to the request', async () => {
    const policy = await soldPolicy();
    await pay(policy.nrApolice, 1, at('2026-03-05'));
    const when = at('2026-04-16');
    const admin = await viewerByEmail(db, 'admin@seguradora.demo');
    const staff: CancellationActor = { userId: admin.user.idUsuario, insurerStaff: true };
    const ctx = () => context(policy.idContratacao, when, partner, staff);
    await expect(
      saveReason(db, await ctx(), { solicitante: 'SEGURADO', motivo: 'OUTRO_SEGURO', efetivaEm: '2026-03-10' }, when),
    ).rejects.toMatchObject({
      kind: 'invalid',
      fieldErrors: { efetivaEm: ['Um cancelamento retroativo vale desde 17/03/2026, no máximo: 30 dias antes de hoje.'] },
    });
    await expect(
      saveReason(db, await ctx(), { solicitante: 'SEGURADO', motivo: 'OUTRO_SEGURO', efetivaEm: '2026-03-20' }, when),
    ).rejects.toMatchObject({
      kind: 'invalid',
      fieldErrors: { detalhe: [expect.stringContaining('Justifique a data retroativa')] },
    });
    const done = await steps(
      policy.idContratacao,
      when,
      { solicitante: 'SEGURADO', motivo: 'OUTRO_SEGURO', detalhe: 'Pedido por carta recebida em 20/03.', efetivaEm: '2026-03-20' },
      { escopo: 'TOTAL' },
      staff,
    );
    const preview = previewOf(done)!;
    expect(preview).toMatchObject({ timing: 'RETROATIVO', refund: { rule: 'PRAZO_CURTO', daysUsed: 18 } });
    const confirmed = await confirmCancellation(
      db,
      partner,
      'v2',
      policy.idContratacao,
      staff,
      { chave: done.draft!.chave, conta: PIX },
      when,
    );
    expect(confirmed).toMatchObject({ agendadaPara: null, repeated: false });
    const row = await db.selectFrom('policies').select(['status', 'cancelada_em']).where('id', '=', policy.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'CANCELADA', cancelada_em: '2026-03-20' });
  });

  it('refuses at the confirmation a draft whose day became the past', async () => {
    const policy = await soldPolicy();
    const ctx = await steps(
      policy.idContratacao,
      at('2026-04-16'),
      { solicitante: 'SEGURADORA', motivo: 'FALTA_PAGAMENTO', efetivaEm: '2026-04-16' },
      { escopo: 'TOTAL' },
    );
    await expect(
      confirmCancellation(db, partner, 'v2', policy.idContratacao, actor, { chave: ctx.draft!.chave }, at('2026-04-17')),
    ).rejects.toMatchObject({ kind: 'conflict', message: expect.stringContaining('Volte às etapas anteriores') });
  });
});

describe('a cancellation scheduled for a day ahead', () => {
  it('keeps the policy in force until the day, then cancels it with the refund of what was paid by then', async () => {
    const policy = await soldPolicy();
    await pay(policy.nrApolice, 1, at('2026-03-05'));
    const asked = at('2026-04-01');
    const ctx = await steps(
      policy.idContratacao,
      asked,
      { solicitante: 'SEGURADO', motivo: 'VENDA_DO_BEM', efetivaEm: '2026-05-15' },
      { escopo: 'TOTAL' },
    );
    expect(previewOf(ctx)!.timing).toBe('AGENDADO');
    // The account is asked even if nothing would come back today: what comes back is known on the day.
    await expect(
      confirmCancellation(db, partner, 'v2', policy.idContratacao, actor, { chave: ctx.draft!.chave }, asked),
    ).rejects.toMatchObject({
      kind: 'invalid',
    });
    const [first, second] = await Promise.all([
      confirmCancellation(db, partner, 'v2', policy.idContratacao, actor, { chave: ctx.draft!.chave, conta: PIX }, asked),
      confirmCancellation(db, partner, 'v2', policy.idContratacao, actor, { chave: ctx.draft!.chave, conta: PIX }, asked),
    ]);
    expect([first, second].map((c) => [c.nrEndosso, c.agendadaPara])).toEqual([
      [null, '2026-05-15'],
      [null, '2026-05-15'],
    ]);
    expect([first.repeated, second.repeated].sort()).toEqual([false, true]);
    expect((await db.selectFrom('policies').select('status').where('id', '=', policy.id).executeTakeFirstOrThrow()).status).toBe('VIGENTE');
    expect((await installments(policy.id)).map((i) => i.status)).toEqual(['PAGA', 'ABERTA', 'ABERTA', 'ABERTA']);
    expect(await db.selectFrom('endorsements').selectAll().where('policy_id', '=', policy.id).execute()).toHaveLength(0);
    const [scheduledNotice] = await emailsTo(DEMO_INSURED.residencial.email, 'cancelamento-agendado-segurado');
    expect(scheduledNotice!.text_body).toContain('será cancelada a partir de 15/05/2026');

    // No second cancellation while one is scheduled.
    await expect(
      saveReason(
        db,
        await context(policy.idContratacao, asked),
        { solicitante: 'SEGURADO', motivo: 'OUTRO_SEGURO', efetivaEm: '2026-04-01' },
        asked,
      ),
    ).rejects.toMatchObject({ kind: 'conflict', message: expect.stringContaining('cancelamento agendado para 15/05/2026') });

    // Paid meanwhile: the 2nd installment (due 10/04) counts in the refund.
    await pay(policy.nrApolice, 2, at('2026-04-10'));
    expect(await applyScheduledCancellations(db, at('2026-05-14'))).toBe(0);
    const onTheDay = at('2026-05-15');
    const expected = previewOf(await context(policy.idContratacao, onTheDay), ctx.draft!.dados, '2026-04-01')!;
    const [a, b] = await Promise.all([applyScheduledCancellations(db, onTheDay), applyScheduledCancellations(db, onTheDay)]);
    expect(a + b).toBe(1);
    const row = await db.selectFrom('policies').select(['status', 'cancelada_em']).where('id', '=', policy.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'CANCELADA', cancelada_em: '2026-05-15' });
    // Due 10/05 before the day, still unpaid: the rule of decision 037 cancels it with the rest.
    expect((await installments(policy.id)).map((i) => i.status)).toEqual(['PAGA', 'PAGA', 'CANCELADA', 'CANCELADA']);
    const refund = await db.selectFrom('refunds').selectAll().where('policy_id', '=', policy.id).executeTakeFirstOrThrow();
    expect(refund.valor).toBe(expected.refund.total);
    expect(expected.refund.netPaid).toBeGreaterThan(0);
    const endorsement = await db
      .selectFrom('endorsements')
      .select(['user_id', 'efetiva_em'])
      .where('policy_id', '=', policy.id)
      .executeTakeFirstOrThrow();
    expect(endorsement).toEqual({ user_id: partnerId, efetiva_em: '2026-05-15' });
    expect(await applyScheduledCancellations(db, at('2026-05-16'))).toBe(0);
  });

  it('may be undone before its day: the policy goes on, and the insured is told', async () => {
    const policy = await soldPolicy();
    const asked = at('2026-04-01');
    const ctx = await steps(
      policy.idContratacao,
      asked,
      { solicitante: 'SEGURADO', motivo: 'VENDA_DO_BEM', efetivaEm: '2026-06-01' },
      { escopo: 'TOTAL' },
    );
    await confirmCancellation(db, partner, 'v2', policy.idContratacao, actor, { chave: ctx.draft!.chave, conta: PIX }, asked);
    const other = await scopeFor(db, await viewerByEmail(db, 'substabelecido@parceiro.demo'), 'APOLICES');
    await expect(undoScheduledCancellation(db, other, 'v2', policy.idContratacao, actor, asked)).rejects.toMatchObject({
      kind: 'not-found',
    });
    expect(await undoScheduledCancellation(db, partner, 'v2', policy.idContratacao, actor, at('2026-04-02'))).toEqual({
      efetivaEm: '2026-06-01',
    });
    await expect(undoScheduledCancellation(db, partner, 'v2', policy.idContratacao, actor, at('2026-04-02'))).rejects.toMatchObject({
      kind: 'conflict',
    });
    expect(await applyScheduledCancellations(db, at('2026-06-01'))).toBe(0);
    expect((await db.selectFrom('policies').select('status').where('id', '=', policy.id).executeTakeFirstOrThrow()).status).toBe('VIGENTE');
    const undone = await emailsTo(DEMO_INSURED.residencial.email, 'cancelamento-desfeito-segurado');
    expect(undone.at(-1)!.text_body).toContain('O cancelamento agendado para 01/06/2026');
  });
});

describe('the insured is told (issue 27)', () => {
  it('of a cancellation: when and how the refund is paid; and the seller too', async () => {
    const policy = await soldPolicy();
    await pay(policy.nrApolice, 1, at('2026-03-05'));
    const when = at('2026-04-01');
    const before = (await emailsTo(DEMO_INSURED.residencial.email, 'cancelamento-segurado')).length;
    const ctx = await steps(
      policy.idContratacao,
      when,
      { solicitante: 'SEGURADO', motivo: 'OUTRO_SEGURO', efetivaEm: '2026-04-01' },
      { escopo: 'TOTAL' },
    );
    const { nrEndosso } = await confirmCancellation(
      db,
      partner,
      'v2',
      policy.idContratacao,
      actor,
      { chave: ctx.draft!.chave, conta: PIX },
      when,
    );
    const notices = await emailsTo(DEMO_INSURED.residencial.email, 'cancelamento-segurado');
    expect(notices).toHaveLength(before + 1);
    const text = notices.at(-1)!.text_body;
    const refund = await db
      .selectFrom('refunds')
      .select(['valor', 'prevista_para'])
      .where('policy_id', '=', policy.id)
      .executeTakeFirstOrThrow();
    expect(text).toContain(`Endosso nº ${nrEndosso}`);
    expect(text).toContain('a seu pedido (Contratou outro seguro)');
    expect(text).toContain(`Você receberá a restituição de ${formatBRL(refund.valor)} até 15/04/2026, em Pix (CPF) *******6391.`);
    expect(text).toContain('As parcelas em aberto (2ª, 3ª e 4ª) foram canceladas');
    const seller = await emailsTo('parceiro@parceiro.demo', 'cancelamento-vendedor');
    expect(seller.at(-1)!.text_body).toContain(`endosso nº ${nrEndosso}`);
  });

  it('of a contact change: at the new address and at the old one', async () => {
    const policy = await soldPolicy();
    const newContact = { ...DEMO_INSURED.residencial, email: 'marina.nova@exemplo.com.br', telefone: '(11) 91234-5678' };
    const contact = z.parse(contactSchema, { email: newContact.email, telefone: newContact.telefone, endereco: newContact.endereco });
    await endorseContact(db, partner, 'v2', policy.idContratacao, contact, partnerId, at('2026-04-01'));
    const [toNew] = await emailsTo('marina.nova@exemplo.com.br', 'dados-alterados-segurado');
    expect(toNew!.text_body).toContain('foram alterados em 01/04/2026, por meio de');
    expect(toNew!.text_body).toContain(': e-mail e telefone.');
    const toOld = await emailsTo(DEMO_INSURED.residencial.email, 'dados-alterados-segurado');
    expect(toOld.at(-1)!.text_body).toContain('Este aviso vai também para o e-mail que a apólice tinha antes.');
  });
});
