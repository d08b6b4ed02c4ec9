import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { aggregatedRows, driftedPayments, rollupRows, type CommissionRow } from '../fixtures/commissions-rollup';
import { cancelWholePolicy, sellResidential, viewerByEmail } from '../fixtures/selling';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import { currentCharge, payCharge } from '../../src/server/services/after-sale/charges';
import { cancellationContext, confirmCancellation, saveCoverages, saveReason } from '../../src/server/services/after-sale/cancellation';
import { scopeFor } from '../../src/server/services/identity/scope';
import { text } from 'node:stream/consumers';
import { parse } from 'csv-parse/sync';
import { beneficiaryMonths, companyInScope, scopeMonths, statementCsv, statementOf } from '../../src/server/services/earnings/commissions';
import { monthBalances } from '../../src/lib/commissions';

/**
 * Issue 29 (migration 034): the commission statement's rollup — each payment's commission and each
 * beneficiary's months — is kept by the database as the real services sell, collect and cancel, and
 * as an operator changes what a commission derives from after the sale: after every step it holds
 * exactly what the statement's old per-request aggregation over payments, installments, policies,
 * quotes, endorsements and refunds gives, and the statement's months read it.
 */
let db: DB;
let close: () => Promise<void>;

const PARTNER = 'parceiro@parceiro.demo';
const SUBAGENT = 'substabelecido@parceiro.demo';
const at = (iso: string) => new Date(`${iso}T15:00:00Z`);

/** The rollup equals the oracle, every payment's stored commission is its sale's, and the statement's months read them. */
async function expectRollupRight(): Promise<CommissionRow[]> {
  const [kept, aggregated, drifted] = await Promise.all([rollupRows(db), aggregatedRows(db), driftedPayments(db)]);
  expect(drifted).toEqual([]);
  expect(kept).toEqual(aggregated);
  const keys = [...new Set(aggregated.map((r) => r.beneficiary))];
  for (const key of keys) {
    const beneficiary = { kind: key.slice(0, 2) as 'PJ' | 'PF', id: Number(key.slice(2)) };
    const expected = monthBalances(
      aggregated.filter((r) => r.beneficiary === key).map((r) => ({ month: r.month, commissions: r.commissions, clawbacks: r.clawbacks })),
    );
    expect(await beneficiaryMonths(db, beneficiary), key).toEqual(expected);
  }
  return kept;
}

const sumOf = (rows: CommissionRow[], field: 'payments' | 'commissions' | 'refunds' | 'clawbacks', beneficiary?: string) =>
  rows.filter((r) => !beneficiary || r.beneficiary === beneficiary).reduce((sum, r) => sum + r[field], 0);

async function pay(nrApolice: string, numero: number, when: Date) {
  const charge = await currentCharge(db, { kind: 'all' }, 'v2', nrApolice, numero);
  await payCharge(db, { code: charge.linhaDigitavel, externalId: `rollup-${nrApolice}-${numero}`, origem: 'BANCO_DEMO' }, when);
}

async function policyOf(nrApolice: string) {
  return db
    .selectFrom('policies')
    .select(['id', 'id_contratacao', 'quote_id', 'company_id', 'user_id'])
    .where('nr_apolice', '=', nrApolice)
    .executeTakeFirstOrThrow();
}

const paymentsOf = (policyId: number) =>
  db
    .selectFrom('payments as pg')
    .innerJoin('installments as i', 'i.id', 'pg.installment_id')
    .select(['pg.id', 'pg.comissao', 'pg.installment_id', 'i.numero'])
    .where('i.policy_id', '=', policyId)
    .orderBy('i.numero')
    .execute();

/** A partial cancellation through the real steps: the theft coverage dropped, the premiums and open installments lowered. */
async function cancelTheft(idContratacao: number, when: Date) {
  const viewer = await viewerByEmail(db, PARTNER);
  const scope = await scopeFor(db, viewer, 'APOLICES');
  const actor = { userId: viewer.user.idUsuario, insurerStaff: false };
  const day = when.toISOString().slice(0, 10);
  const context = () => cancellationContext(db, scope, 'v2', idContratacao, actor, day);
  await saveReason(db, await context(), { solicitante: 'SEGURADO', motivo: 'OUTRO_SEGURO', efetivaEm: day }, when);
  await saveCoverages(db, await context(), { escopo: 'PARCIAL', coberturas: ['roubo'] }, when);
  const { draft } = await context();
  await confirmCancellation(
    db,
    scope,
    'v2',
    idContratacao,
    actor,
    { chave: draft!.chave, conta: { tipo: 'PIX', chave: DEMO_INSURED.residencial.cpf } },
    when,
  );
}

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
}, 120_000);
afterAll(() => close());

describe('commissions_monthly follows the services, step by step', () => {
  it('holds the demo seed as its payments aggregate them', async () => {
    const rows = await expectRollupRight();
    expect(sumOf(rows, 'payments')).toBeGreaterThan(0);
  });

  it('sell, pay, cancel a coverage, pay again, cancel the rest', async () => {
    const { nrApolice } = await sellResidential(db, { at: at('2026-03-02') });
    const policy = await policyOf(nrApolice!);
    const horizonte = `PJ${policy.company_id}`;
    const sold = await expectRollupRight();

    await pay(nrApolice!, 1, at('2026-03-10'));
    const paid = await expectRollupRight();
    const [first] = await paymentsOf(policy.id);
    expect(first!.comissao).toBeGreaterThan(0);
    expect(sumOf(paid, 'commissions', horizonte)).toBe(sumOf(sold, 'commissions', horizonte) + first!.comissao);

    // The policy's premiums go down and its first endorsement records the total at the sale: what was
    // paid keeps its commission; the next installment, lowered, earns on the sale's figures.
    await cancelTheft(policy.id_contratacao, at('2026-04-01'));
    const partial = await expectRollupRight();
    expect((await paymentsOf(policy.id))[0]!.comissao).toBe(first!.comissao);
    expect(sumOf(partial, 'commissions')).toBe(sumOf(paid, 'commissions'));
    await pay(nrApolice!, 2, at('2026-04-10'));
    const second = await expectRollupRight();
    expect(sumOf(second, 'payments', horizonte)).toBe(sumOf(paid, 'payments', horizonte) + 1);

    await cancelWholePolicy(db, PARTNER, nrApolice!, at('2026-05-05'));
    const cancelled = await expectRollupRight();
    expect(sumOf(cancelled, 'refunds', horizonte)).toBe(sumOf(second, 'refunds', horizonte) + 1);
    expect(sumOf(cancelled, 'clawbacks', horizonte)).toBeGreaterThan(sumOf(second, 'clawbacks', horizonte));
  });

  it('rebuild_commissions_monthly() gives what the triggers kept', async () => {
    const kept = await expectRollupRight();
    await sql`select rebuild_commissions_monthly()`.execute(db);
    expect(await rollupRows(db)).toEqual(kept);
  });
});

describe("the statement's CSV, read in keyset batches", () => {
  it('holds every line of the month once, in the page’s order, even lines paid in one microsecond across batches', async () => {
    const { nrApolice } = await sellResidential(db, { at: at('2026-10-01') });
    for (const numero of [1, 2, 3, 4]) await pay(nrApolice!, numero, at('2026-10-02'));
    // Four payments in one instant to the microsecond (as an import writes them), another a microsecond later.
    const ids = (await paymentsOf((await policyOf(nrApolice!)).id)).map((p) => p.id);
    await sql`update payments set pago_em = timestamptz '2026-10-20T12:00:00.123456Z' where id = any(${ids})`.execute(db);
    await sql`update payments set pago_em = timestamptz '2026-10-20T12:00:00.123457Z' where id = ${ids[0]}`.execute(db);
    const horizonte = (await companyInScope(db, { kind: 'all' }, '11222333000181'))!;
    const page = await statementOf(db, horizonte, '2026-10', 1, '2026-11-24');
    expect(page.lines.content.length).toBeGreaterThanOrEqual(4);
    const expected = page.lines.content.map((l) => [l.nrApolice, `${l.numero}/${l.parcelas}`]);
    for (const batchSize of [1, 2, 3, 500]) {
      const rows = parse(await text(statementCsv(db, horizonte, '2026-10', batchSize)), {
        bom: true,
        delimiter: ';',
        from_line: 2,
      }) as string[][];
      const lines = rows.filter((r) => r[0] === 'Comissão').map((r) => [r[2]!.trim(), r[5]]);
      expect(lines, `batches of ${batchSize}`).toEqual(expected);
    }
  });
});

describe("an operator's fix after the sale moves the commissions with it", () => {
  let nrApolice: string;
  let policy: Awaited<ReturnType<typeof policyOf>>;

  beforeAll(async () => {
    nrApolice = (await sellResidential(db, { at: at('2026-06-02') })).nrApolice!;
    policy = await policyOf(nrApolice);
    await pay(nrApolice, 1, at('2026-06-10'));
    await pay(nrApolice, 2, at('2026-07-10'));
  });

  /** Runs an operator's statement; the rollup is right after it and — when it must — not what it was. */
  async function afterFix(fix: string, changes = true) {
    const before = await rollupRows(db);
    await sql.raw(fix).execute(db);
    const after = await expectRollupRight();
    if (changes) expect(after).not.toEqual(before);
    return after;
  }

  it('the rate or the priced net premium of the quote', async () => {
    await afterFix(`update quotes set comissao_centesimos = comissao_centesimos + 250 where id = ${policy.quote_id}`);
    await afterFix(
      `update quotes set precificacao = jsonb_set(precificacao, '{netPremium}', to_jsonb((precificacao->>'netPremium')::int + 5000))
       where id = ${policy.quote_id}`,
    );
    // A quote saved again with the same figures moves nothing.
    await afterFix(`update quotes set precificacao = precificacao || '{}'::jsonb where id = ${policy.quote_id}`, false);
  });

  it("the policy's total and, priced without a net premium, its net premium", async () => {
    await afterFix(`update policies set premio_total = premio_total * 2 where id = ${policy.id}`);
    await afterFix(`update quotes set precificacao = precificacao - 'netPremium' where id = ${policy.quote_id}`);
    await afterFix(`update policies set premio_liquido = premio_liquido + 7000 where id = ${policy.id}`);
  });

  it('an endorsement inserted (its premio_anterior is the total at the sale), changed and removed', async () => {
    const userId = policy.user_id;
    await afterFix(`insert into endorsements (nr_endosso, policy_id, tipo, efetiva_em, dados, premio_anterior, premio_novo, user_id)
      select 'ROLLUP-1', id, 'CONTATO', current_date, '{}'::jsonb, premio_total * 3, premio_total, ${userId} from policies where id = ${policy.id}`);
    await afterFix(`update endorsements set premio_anterior = premio_anterior + 10000 where nr_endosso = 'ROLLUP-1'`);
    await afterFix(`delete from endorsements where nr_endosso = 'ROLLUP-1'`);
  });

  it("an installment's amount, a payment's day, its installment, a commission written by hand", async () => {
    const [first, second] = await paymentsOf(policy.id);
    await afterFix(`update installments set valor = valor + 3000 where id = ${first!.installment_id}`);
    await afterFix(`update payments set pago_em = pago_em + interval '40 days' where id = ${second!.id}`);
    // To the policy's third installment, open until now: its own amount, the same sale.
    const third = await db
      .selectFrom('installments')
      .select(['id', 'valor'])
      .where('policy_id', '=', policy.id)
      .where('numero', '=', 3)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('installments')
      .set({ valor: third.valor + 12_000 })
      .where('id', '=', third.id)
      .execute();
    await afterFix(`update payments set installment_id = ${third.id} where id = ${second!.id}`);
    // The stored commission is the database's: a value written by hand is computed again.
    await afterFix(`update payments set comissao = 0 where id = ${first!.id}`, false);
    expect((await paymentsOf(policy.id))[0]!.comissao).toBeGreaterThan(0);
  });

  it("an installment given to another company's policy takes its payment to that sale, and back", async () => {
    const [first] = await paymentsOf(policy.id);
    // A sale of no payments yet, given to the subagent's company: nothing to move in the rollup.
    const target = await policyOf((await sellResidential(db, { at: at('2026-08-20') })).nrApolice!);
    const valeVerde = await db.selectFrom('users').select('company_id').where('email', '=', SUBAGENT).executeTakeFirstOrThrow();
    await afterFix(`update policies set company_id = ${valeVerde.company_id} where id = ${target.id}`, false);
    const to = `PJ${valeVerde.company_id}`;
    const before = await expectRollupRight();
    const after = await afterFix(`update installments set policy_id = ${target.id}, numero = 90 where id = ${first!.installment_id}`);
    expect(sumOf(after, 'payments', to)).toBe(sumOf(before, 'payments', to) + 1);
    const moved = await db.selectFrom('payments').select(['company_id', 'user_id']).where('id', '=', first!.id).executeTakeFirstOrThrow();
    expect(moved.company_id).toBe(valeVerde.company_id);
    const back = await afterFix(`update installments set policy_id = ${policy.id}, numero = 1 where id = ${first!.installment_id}`);
    expect(back).toEqual(before);
  });

  it('a policy moved to another company, then to a seller of no company, takes its payments and clawbacks along', async () => {
    const other = (await sellResidential(db, { at: at('2026-08-03') })).nrApolice!;
    await pay(other, 1, at('2026-08-05'));
    await cancelWholePolicy(db, PARTNER, other, at('2026-09-02'));
    const moved = await policyOf(other);
    const valeVerde = await db.selectFrom('users').select(['id', 'company_id']).where('email', '=', SUBAGENT).executeTakeFirstOrThrow();
    const before = await expectRollupRight();
    const after = await afterFix(
      `update policies set company_id = ${valeVerde.company_id}, user_id = ${valeVerde.id} where id = ${moved.id}`,
    );
    const to = `PJ${valeVerde.company_id}`;
    expect(sumOf(after, 'payments', to)).toBe(sumOf(before, 'payments', to) + 1);
    expect(sumOf(after, 'refunds', to)).toBe(sumOf(before, 'refunds', to) + 1);
    const own = await afterFix(`update policies set company_id = null where id = ${moved.id}`);
    expect(sumOf(own, 'refunds', `PF${valeVerde.id}`)).toBe(1);
    expect(sumOf(own, 'payments', `PF${valeVerde.id}`)).toBe(1);
  });

  it("a cancellation's day, its clawback, its refund removed; a payment removed", async () => {
    const refund = await db
      .selectFrom('refunds')
      .select(['id', 'endorsement_id'])
      .where('estorno_comissao', '>', 0)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await afterFix(`update endorsements set created_at = created_at - interval '45 days' where id = ${refund.endorsement_id}`);
    await afterFix(`update refunds set estorno_comissao = estorno_comissao + 100 where id = ${refund.id}`);
    await afterFix(`delete from refunds where id = ${refund.id}`);
    const [first] = await paymentsOf(policy.id);
    await afterFix(`delete from payments where id = ${first!.id}`);
  });

  it('a TRUNCATE of refunds rebuilds the rollup; every beneficiary of the scope reads it', async () => {
    const rows = await afterFix('truncate refunds');
    expect(sumOf(rows, 'refunds')).toBe(0);
    const all = await scopeMonths(db, { kind: 'all' });
    expect(all.length).toBeGreaterThan(1);
    for (const { beneficiary, months } of all) expect(months).toEqual(await beneficiaryMonths(db, beneficiary));
  });
});
