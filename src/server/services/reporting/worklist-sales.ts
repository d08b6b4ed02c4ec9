import { sql } from 'kysely';
import { proposalClock, type ProposalStatus } from '../../../lib/acceptance';
import type { Scope } from '../../../lib/scope';
import { formatDate } from '../../../lib/format';
import { clockPhrase, noticePhrase, WORKLIST_KIND_LIMIT, WORKLIST_LINKS } from '../../../lib/worklist';
import { soldWithinBranches } from '../identity/scope';
import { branchOf, keyOf, quoteHref, whoseOfSale, withSaleNames, type KindReader } from './worklist-reader';

/* The worklist's kinds of sales (services/reporting/worklist.ts): proposals and quotes, read by the history's scope. */

/** Proposals waiting for documents, the nearest deadline first. */
export function documentsKind(scope: Scope): KindReader {
  return {
    kind: 'DOCUMENTOS',
    page: (generation) => WORKLIST_LINKS.documents(generation),
    branches: (db, ctx, reading) =>
      soldWithinBranches(scope, sql.ref('p.seller_id'), sql.ref('p.company_id')).map((within) => {
        const since = sql<Date>`p.suspensa_desde`;
        const k = keyOf('DOCUMENTOS', sql.ref('p.id'), since);
        const base = db
          .selectFrom('proposals as p')
          .where('p.status', '=', 'AGUARDANDO_DOCUMENTOS')
          .where('p.generation', '=', ctx.generation)
          .where(within)
          .orderBy('p.aceite_ate')
          .limit(WORKLIST_KIND_LIMIT);
        return branchOf(reading, ctx, base, { k, since }, (qb) =>
          withSaleNames(qb).select([
            k.as('k'),
            since.as('since'),
            'p.id',
            'p.nr_proposta',
            'p.aceite_ate',
            'p.suspensa_desde',
            'p.status',
            'p.motivo',
            'q.nr_cotacao',
          ]),
        );
      }),
    item: (row, ctx) => {
      const clock = proposalClock(
        { status: row.status as ProposalStatus, deadline: row.aceite_ate as Date, suspendedAt: row.suspensa_desde as Date },
        ctx.now,
      );
      return {
        what: `Proposta nº ${row.nr_proposta}: enviar documentos${row.motivo ? ` (${row.motivo})` : ''}`,
        whose: whoseOfSale(row),
        deadline: new Date(row.aceite_ate as Date).toISOString(),
        deadlineText: clockPhrase(clock),
        href: WORKLIST_LINKS.documents(ctx.generation, row.nr_proposta as string),
        action: 'Enviar documentos',
      };
    },
  };
}

/** Proposals accepted or refused lately (notices): the latest first. */
export function decisionsKind(scope: Scope): KindReader {
  return {
    kind: 'DECISAO',
    branches: (db, ctx, reading) =>
      soldWithinBranches(scope, sql.ref('p.seller_id'), sql.ref('p.company_id')).map((within) => {
        const since = sql<Date>`p.decidida_em`;
        const k = keyOf('DECISAO', sql.ref('p.id'), since);
        const base = db
          .selectFrom('proposals as p')
          .where('p.status', 'in', ['ACEITA', 'RECUSADA'])
          .where('p.decidida_em', '>=', ctx.w.noticesFrom)
          .where('p.generation', '=', ctx.generation)
          .where(within)
          .orderBy('p.decidida_em', 'desc')
          .limit(WORKLIST_KIND_LIMIT);
        return branchOf(reading, ctx, base, { k, since, notice: true }, (qb) =>
          withSaleNames(qb)
            .leftJoin('policies as a', 'a.proposal_id', 'p.id')
            .select([
              k.as('k'),
              since.as('since'),
              'p.id',
              'p.nr_proposta',
              'p.status',
              'p.decidida_em',
              'p.motivo',
              'q.nr_cotacao',
              'q.line',
              'q.etapa',
              'q.simulator_code',
              'a.nr_apolice',
            ]),
        );
      }),
    item: (row, ctx) => {
      const accepted = row.status === 'ACEITA';
      return {
        what: accepted
          ? `Proposta nº ${row.nr_proposta} aceita${row.nr_apolice ? `: apólice nº ${row.nr_apolice} emitida` : ''}`
          : `Proposta nº ${row.nr_proposta} recusada${row.motivo ? `: ${row.motivo}` : ''}`,
        whose: whoseOfSale(row),
        deadline: new Date(row.decidida_em as Date).toISOString(),
        deadlineText: `Decidida ${noticePhrase(row.decidida_em as Date)}`,
        href:
          accepted && row.nr_apolice
            ? WORKLIST_LINKS.policy(ctx.generation, row.nr_apolice as string)
            : quoteHref(ctx.generation, row, true),
        action: accepted && row.nr_apolice ? 'Ver a apólice' : 'Ver a proposta',
      };
    },
  };
}

/** Quotes still being made whose validity ends within the window, the nearest first (worklist.ts asks for the viewer's own). */
export function expiringQuotesKind(scope: Scope): KindReader {
  return {
    kind: 'COTACAO_EXPIRANDO',
    branches: (db, ctx, reading) =>
      soldWithinBranches(scope, sql.ref('q.user_id'), sql.ref('q.company_id')).map((within) => {
        const since = sql<Date>`q.valida_ate - interval '5 days'`;
        const k = keyOf('COTACAO_EXPIRANDO', sql.ref('q.id'), since);
        const base = db
          .selectFrom('quotes as q')
          .where('q.status', '=', 'EM_ELABORACAO')
          .where('q.generation', '=', ctx.generation)
          .where('q.valida_ate', '>=', ctx.now)
          .where('q.valida_ate', '<=', ctx.w.quoteExpiryUntil)
          .where(within)
          .orderBy('q.valida_ate')
          .limit(WORKLIST_KIND_LIMIT);
        return branchOf(reading, ctx, base, { k, since }, (qb) =>
          qb.select([
            k.as('k'),
            since.as('since'),
            'q.id',
            'q.nr_cotacao',
            'q.nome_segurado',
            'q.valida_ate',
            'q.line',
            'q.etapa',
            'q.simulator_code',
          ]),
        );
      }),
    item: (row, ctx) => ({
      what: `Cotação nº ${row.nr_cotacao} ainda sem proposta`,
      whose: [row.nome_segurado as string],
      deadline: new Date(row.valida_ate as Date).toISOString(),
      deadlineText: `Válida até ${formatDate(row.valida_ate as Date)}`,
      href: quoteHref(ctx.generation, row, false),
      action: 'Continuar a cotação',
    }),
  };
}

/** The acceptance queue (the provider's ADMIN): proposals in analysis, the nearest deadline first. */
export const analysisKind: KindReader = {
  kind: 'ANALISE',
  page: () => '/v2/propostas/analise',
  branches: (db, ctx, reading) => {
    const since = sql<Date>`p.created_at`;
    const k = keyOf('ANALISE', sql.ref('p.id'), since);
    const base = db.selectFrom('proposals as p').where('p.status', '=', 'EM_ANALISE').orderBy('p.aceite_ate').limit(WORKLIST_KIND_LIMIT);
    return [
      branchOf(reading, ctx, base, { k, since }, (qb) =>
        withSaleNames(qb).select([k.as('k'), since.as('since'), 'p.id', 'p.nr_proposta', 'p.status', 'p.aceite_ate', 'p.suspensa_desde']),
      ),
    ];
  },
  item: (row, ctx) => ({
    what: `Proposta nº ${row.nr_proposta} aguarda a análise da seguradora`,
    whose: whoseOfSale(row),
    deadline: new Date(row.aceite_ate as Date).toISOString(),
    deadlineText: clockPhrase(
      proposalClock({ status: 'EM_ANALISE', deadline: row.aceite_ate as Date, suspendedAt: row.suspensa_desde as Date | null }, ctx.now),
    ),
    href: WORKLIST_LINKS.analysis(row.nr_proposta as string),
    action: 'Analisar',
  }),
};
