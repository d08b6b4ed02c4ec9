import { startOfBrasiliaDay, startOfNextBrasiliaDay } from '../../../lib/calendar';
import { embeddedQuoteHref } from '../../../lib/embedded-apps';
import { sql, type ExpressionBuilder } from 'kysely';
import type { DB } from '../../db';
import type { Database } from '../../db/schema';
import {
  HISTORY_PAGE_SIZE,
  maskDocument,
  type HistoryFilters,
  type HistoryResult,
  type HistoryRow,
  type HistoryStatus,
} from '../../../lib/history';
import { stepPath, type Generation, type QuoteStep } from '../../../lib/quote-flow';
import { reportHref } from '../../../lib/simulator-links';
import { readKeysetPage } from '../../db/keyset-page';
import type { PageRequest } from '../../../lib/keyset-pages';
import { soldWithinBranches } from '../identity/scope';
import { proposalClock } from '../../../lib/acceptance';
import { statusLabel, type QuoteStatus } from '../../../lib/quotes';
import type { ProductLine } from '../../../lib/simulators';
import { isExpired, sellerScope, type Seller } from './quotes';
import { now as clockNow } from '../../clock';

/**
 * The quote and proposal history (docs/decisions/018-history.md): the quotes a seller may see —
 * the same rule as opening one (services/quotes `visibleTo`) — filtered, newest first, one page of
 * HISTORY_PAGE_SIZE at a time, with each row's document masked.
 */

type HistoryEb = ExpressionBuilder<Database & { q: Database['quotes']; p: Database['proposals'] }, 'q' | 'p'>;

/** What each history status means in the database; VENCIDA is not stored, it is an unsent quote past `valida_ate`. */
const STATUS_CONDITIONS: Record<HistoryStatus, (eb: HistoryEb, now: Date) => ReturnType<HistoryEb['and']>> = {
  EM_ELABORACAO: (eb, now) => eb.and([eb('q.status', '=', 'EM_ELABORACAO'), eb('q.valida_ate', '>=', now)]),
  VENCIDA: (eb, now) => eb.and([eb('q.status', '=', 'EM_ELABORACAO'), eb('q.valida_ate', '<', now)]),
  PROPOSTA_EM_ANALISE: (eb) => eb.and([eb('q.status', '=', 'PROPOSTA_EM_ANALISE')]),
};

/**
 * The quotes a seller may see that match the filters, as disjoint branches of the seller's scope —
 * the same rule as visibleTo (services/quotes), one condition per index (migration 031): what a keyset
 * page reads, each branch in (created_at, id) order.
 */
function filteredQuoteBranches(db: DB, seller: Seller, filters: HistoryFilters, now: Date) {
  const { de, ate, simulador, linha, status, documento, numero } = filters;
  return soldWithinBranches(sellerScope(seller), sql.ref('q.user_id'), sql.ref('q.company_id')).map((within) =>
    db
      .selectFrom('quotes as q')
      .leftJoin('proposals as p', 'p.quote_id', 'q.id')
      .where(within)
      .where('q.generation', '=', seller.generation)
      .$if(de !== undefined, (qb) => qb.where('q.created_at', '>=', startOfBrasiliaDay(de!)))
      .$if(ate !== undefined, (qb) => qb.where('q.created_at', '<', startOfNextBrasiliaDay(ate!)))
      .$if(simulador !== undefined, (qb) => qb.where('q.simulator_code', 'in', simulador!))
      .$if(linha !== undefined, (qb) => qb.where('q.line', '=', linha!))
      .$if(status !== undefined, (qb) => qb.where((eb) => STATUS_CONDITIONS[status!](eb, now)))
      .$if(documento !== undefined, (qb) => qb.where('q.documento_segurado', '=', documento!))
      // The quote of that number or of the proposal of that number, each found by its unique index: an
      // OR across the two tables would walk the whole branch for a number that is not there.
      .$if(numero !== undefined, (qb) =>
        qb.where('q.id', 'in', (eb) =>
          eb
            .selectFrom('quotes as nq')
            .select('nq.id')
            .where('nq.nr_cotacao', '=', numero!)
            .union(eb.selectFrom('proposals as np').select('np.quote_id as id').where('np.nr_proposta', '=', numero!)),
        ),
      ),
  );
}

type QuoteBranch = ReturnType<typeof filteredQuoteBranches>[number];

/** PDFs of a quote in its generation's report routes: the quote always, the proposal once sent. */
const pdfLinks = (generation: Generation, nrCotacao: string, sent: boolean) => ({
  cotacao: reportHref(generation, 'cotacao', nrCotacao),
  proposta: sent ? reportHref(generation, 'proposta', nrCotacao) : null,
});

/**
 * A keyset page (lib/keyset-pages.ts) of the quotes the seller may see that match the filters, newest
 * first by (created_at, id); counted only up to COUNT_LIMIT.
 */
export async function listQuotes(
  db: DB,
  seller: Seller,
  filters: HistoryFilters,
  request: PageRequest = { page: 1 },
  now = clockNow(),
): Promise<HistoryResult> {
  const read = await readKeysetPage(
    db,
    {
      branches: filteredQuoteBranches(db, seller, filters, now),
      time: 'q.created_at',
      id: 'q.id',
      columns: (branch: QuoteBranch) =>
        branch
          .innerJoin('offers as o', 'o.id', 'q.offer_id')
          .innerJoin('simulators as s', 's.id', 'o.simulator_id')
          .innerJoin('users as u', 'u.id', 'q.user_id')
          .select([
            'q.nr_cotacao',
            'q.simulator_code',
            'q.line',
            'q.generation',
            'q.status',
            'q.etapa',
            'q.nome_segurado',
            'q.documento_segurado',
            'q.premio_total',
            'q.valida_ate',
            'q.created_at',
            'p.nr_proposta',
            'p.status as proposal_status',
            'p.aceite_ate',
            'p.suspensa_desde',
            's.nome as product_name',
            'u.nome as seller_name',
          ]),
    },
    request,
    HISTORY_PAGE_SIZE,
  );
  const content = read.content.map((row): HistoryRow => {
    const quoteStatus = row.status as QuoteStatus;
    const sent = quoteStatus === 'PROPOSTA_EM_ANALISE';
    const expired = isExpired(row, now);
    const line = row.line as ProductLine;
    return {
      nrCotacao: row.nr_cotacao,
      nrProposta: row.nr_proposta,
      code: row.simulator_code,
      line,
      productName: row.product_name,
      nomeSegurado: row.nome_segurado,
      documentoSegurado: maskDocument(row.documento_segurado),
      premioTotal: row.premio_total,
      status: expired ? 'VENCIDA' : quoteStatus,
      statusLabel: statusLabel(quoteStatus, expired, row.proposal_status),
      // From the row itself, by the rule of the proposal's own page: no query per row.
      clock: row.proposal_status
        ? proposalClock({ status: row.proposal_status, deadline: row.aceite_ate, suspendedAt: row.suspensa_desde }, now)
        : null,
      createdAt: new Date(row.created_at).toISOString(),
      validaAte: new Date(row.valida_ate).toISOString(),
      seller: row.seller_name,
      // pinned: a legacy residential finalizacao without its number would open the latest proposal, not this one.
      // A legacy quote of EMP, IP or VE opens in its embedded issuance app (lib/embedded-apps.ts).
      href:
        (row.generation === 'v1' &&
          embeddedQuoteHref(row.simulator_code, row.nr_cotacao, row.etapa, sent || expired ? 'visualizar' : 'editar')) ||
        stepPath(row.generation, line, row.etapa as QuoteStep, row.nr_cotacao, {
          action: sent || expired ? 'visualizar' : 'editar',
          sent,
          pinned: true,
        }),
      pdf: pdfLinks(row.generation, row.nr_cotacao, sent),
    };
  });
  return { ...read, content };
}
