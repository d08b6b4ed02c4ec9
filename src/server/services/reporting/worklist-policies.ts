import { sql } from 'kysely';
import type { Scope } from '../../../lib/scope';
import { formatBRL } from '../../../lib/products/money';
import { dayPhrase, REFUND_DEADLINE, WORKLIST_KIND_LIMIT, WORKLIST_LINKS } from '../../../lib/worklist';
import { soldWithinBranches } from '../identity/scope';
import { refundsInScope } from '../after-sale/refunds';
import { hasOpenRenewal, renewablePolicies } from '../selling/renewals';
import { branchOf, dayStart, keyOf, type KindReader } from './worklist-reader';

/* The worklist's kinds of policies (services/reporting/worklist.ts): overdue installments, renewals, refunds. */

/** Policies' open installments overdue within the window (the 2ª via), the longest overdue first. */
export function overdueKind(scope: Scope): KindReader {
  return {
    kind: 'PARCELA_VENCIDA',
    branches: (db, ctx, reading) =>
      soldWithinBranches(scope, sql.ref('i.seller_id'), sql.ref('i.company_id')).map((within) => {
        const since = dayStart(sql<string>`i.vencimento + 1`);
        const k = keyOf('PARCELA_VENCIDA', sql.ref('i.id'), since);
        const base = db
          .selectFrom('installments as i')
          .where('i.status', '=', 'ABERTA')
          .where('i.vencimento', '>=', ctx.w.overdueFrom)
          .where('i.vencimento', '<', ctx.w.today)
          .where('i.generation', '=', ctx.generation)
          .where(within)
          .orderBy('i.vencimento')
          .limit(WORKLIST_KIND_LIMIT);
        return branchOf(reading, ctx, base, { k, since }, (qb) =>
          qb
            .innerJoin('policies as a', 'a.id', 'i.policy_id')
            .select([k.as('k'), since.as('since'), 'i.id', 'i.numero', 'i.vencimento', 'i.valor', 'a.nr_apolice', 'a.nome_segurado']),
        );
      }),
    item: (row, ctx) => {
      const secondCopy = WORKLIST_LINKS.secondCopy(ctx.generation, row.nr_apolice as string);
      return {
        what: `Parcela ${row.numero} da apólice nº ${row.nr_apolice} (${formatBRL(row.valor as number)}) em atraso`,
        whose: [row.nome_segurado as string],
        deadline: row.vencimento as string,
        deadlineText: dayPhrase(row.vencimento as string, ctx.w.today),
        // The 2ª via's page asks for its own permission; whoever sees the policy but not it issues it from the policy.
        ...(ctx.opens(secondCopy)
          ? { href: secondCopy, action: 'Emitir a 2ª via' }
          : { href: WORKLIST_LINKS.policy(ctx.generation, row.nr_apolice as string), action: 'Ver a apólice' }),
      };
    },
  };
}

/**
 * Policies "Renovar" accepts (selling/renewals.ts renewablePolicies: not renewed, no cancellation
 * scheduled), the nearest end first; one whose renewal quote is open is to be continued.
 */
export function renewalsKind(scope: Scope): KindReader {
  return {
    kind: 'RENOVACAO',
    branches: (db, ctx, reading) =>
      renewablePolicies(db, scope, ctx.generation, ctx.w.today).map((renewable) => {
        const since = dayStart(sql<string>`a.fim_vigencia - 60`);
        const k = keyOf('RENOVACAO', sql.ref('a.id'), since);
        const base = renewable.orderBy('a.fim_vigencia').limit(WORKLIST_KIND_LIMIT);
        return branchOf(reading, ctx, base, { k, since }, (qb) =>
          qb
            .leftJoin('companies as c', 'c.id', 'a.company_id')
            .select([
              k.as('k'),
              since.as('since'),
              'a.id',
              'a.nr_apolice',
              'a.nome_segurado',
              'a.fim_vigencia',
              'c.razao_social as company',
              hasOpenRenewal(sql.ref('a.id'), ctx.now).as('quoted'),
            ]),
        );
      }),
    item: (row, ctx) => ({
      what: `Apólice nº ${row.nr_apolice} termina a vigência`,
      whose: [row.nome_segurado as string, row.company as string | null].filter(Boolean) as string[],
      deadline: row.fim_vigencia as string,
      deadlineText: dayPhrase(row.fim_vigencia as string, ctx.w.today, { future: 'termina', past: 'terminou' }),
      href: WORKLIST_LINKS.renewal(ctx.generation, row.nr_apolice as string),
      action: row.quoted ? 'Continuar a renovação' : 'Renovar',
    }),
  };
}

/**
 * Refunds owed, the earliest planned first: the queue's own query of its tab "a pagar"
 * (after-sale/refunds.ts refundsInScope) in the viewer's generation, for whoever its page lets in —
 * the insurer's ADMIN (v2), the legacy administrators' group (v1) — each linking to its row there.
 */
export function refundsKind(scope: Scope): KindReader {
  return {
    kind: 'RESTITUICAO',
    page: (generation) => WORKLIST_LINKS.refunds(generation),
    branches: (db, ctx, reading) =>
      refundsInScope(db, scope, ctx.generation, 'DEVIDA').map((owed) => {
        const since = sql<Date>`r.created_at`;
        const k = keyOf('RESTITUICAO', sql.ref('r.id'), since);
        const base = owed.orderBy('r.prevista_para').orderBy('r.id').limit(WORKLIST_KIND_LIMIT);
        return branchOf(reading, ctx, base, { k, since }, (qb) =>
          qb.select([k.as('k'), since.as('since'), 'r.id', 'r.valor', 'r.prevista_para', 'a.nr_apolice', 'a.nome_segurado']),
        );
      }),
    item: (row, ctx) => ({
      what: `Restituição de ${formatBRL(row.valor as number)} da apólice nº ${row.nr_apolice}`,
      whose: [row.nome_segurado as string],
      deadline: row.prevista_para as string,
      deadlineText: dayPhrase(row.prevista_para as string, ctx.w.today, REFUND_DEADLINE),
      href: WORKLIST_LINKS.refunds(ctx.generation, row.nr_apolice as string),
      action: 'Pagar a restituição',
    }),
  };
}
