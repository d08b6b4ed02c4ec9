import { sql, type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { DB } from '../../db';
import type { Database, ProposalsTable } from '../../db/schema';
import { now as clockNow } from '../../clock';
import { announce } from '../../cache';
import { proposalClock, type ProposalStatus } from '../../../lib/acceptance';
import { V1_ADMIN_GROUP } from '../../../lib/permissions';
import type { Scope, BeneficiaryScope } from '../../../lib/scope';
import { isInsurerStaff, type SessionViewer } from '../../../lib/session';
import { stepPath, type QuoteStep } from '../../../lib/quote-flow';
import type { ProductLine } from '../../../lib/simulators';
import { embeddedQuoteHref } from '../../../lib/embedded-apps';
import { formatBRL } from '../../../lib/products/money';
import { formatDate } from '../../../lib/format';
import {
  clockPhrase,
  dayPhrase,
  groupItems,
  NEW_COUNT_CAP,
  noticePhrase,
  WORKLIST_KIND_LIMIT,
  WORKLIST_KINDS,
  WORKLIST_LINKS,
  windowsOf,
  type WorklistGroup,
  type WorklistItem,
  type WorklistKind,
} from '../../../lib/worklist';
import { pageAccess } from '../../../lib/route-guards';
import { config } from '../../config';
import { commissionScopeFor, quoteScopeFor, scopeFor, soldWithinBranches } from '../identity/scope';

/*
 * The worklist (issue 31; rules in lib/worklist.ts): what waits for a user's action, each kind read
 * through the scope the page that shows its record uses — proposals and quotes the history's
 * (quoteScopeFor), policies renewals the policies' (APOLICES), overdue installments the 2ª via's
 * (BOLETOS), notas fiscais the commissions' (commissionScopeFor), a report or an import its owner's —
 * and, for the insurer's staff, the acceptance queue and the refunds to pay. Each kind is read as the
 * scope's disjoint branches, each in its index's order within its window and cut at the kind's limit
 * (migrations 037 and 042: the proposals and installments carry their sale's scope), so neither the page
 * nor the bell's count grows with the book.
 *
 * An item's key and its `since` (the instant it became what it is) are worked out in SQL, once: the
 * count filters the new ones there, the page marks them.
 */

const ZONE = 'America/Sao_Paulo';

interface Context {
  generation: 'v1' | 'v2';
  userId: number;
  now: Date;
  w: ReturnType<typeof windowsOf>;
  /** Read so far: items that became what they are after this, and not read one by one, are new. */
  readAllAt: Date | null;
  /** Whether the viewer may open a page (the menus' guards): a link goes only where it opens. */
  opens: (href: string) => boolean;
}

/** `kind:id:version`, the version being `since` in milliseconds (lib/worklist.ts itemKey). */
const keyOf = (kind: WorklistKind, id: Expression<number>, since: RawBuilder<Date> | Expression<Date>) =>
  sql<string>`${kind} || ':' || ${id} || ':' || floor(extract(epoch from ${since}) * 1000)::bigint`;

/** A Brasília day as the instant it starts. */
const dayStart = (day: RawBuilder<string>) => sql<Date>`(${day})::timestamp at time zone ${ZONE}`;

/** Only what is new: after the "all read" mark and not read one by one. */
const newOnly = (ctx: Context, key: RawBuilder<string>, since: RawBuilder<Date> | Expression<Date>): Expression<SqlBool> =>
  sql<SqlBool>`(${ctx.readAllAt === null ? sql`true` : sql`${since} > ${ctx.readAllAt}`} and not exists (select 1 from worklist_reads wr where wr.user_id = ${ctx.userId} and wr.item_key = ${key}))`;

// ---------------------------------------------------------------------------------------------
// The kinds: each a list of branch queries (one per branch of its scope), each read in its kind's
// order and cut at its limit. The page's select `k`, `since` and what the item shows (joining what
// names it); the count's only the keys of the new ones, without those joins — at 1000× the demo its
// one statement of ~20 branches costs mostly the planning of each join. A notice is an item only
// while new, on the page too.
// ---------------------------------------------------------------------------------------------

interface Row {
  k: string;
  since: Date;
  id: number;
  [column: string]: unknown;
}

type Branch = { execute(): Promise<Row[]> } & Expression<unknown>;

type Reading = 'page' | 'count';

interface KindReader {
  kind: WorklistKind;
  branches(db: DB, ctx: Context, reading: Reading): Branch[];
  item(row: Row, ctx: Context): Omit<WorklistItem, 'kind' | 'key' | 'since' | 'isNew'>;
}

/** A branch as `reading` needs it: the count, only the key of what is new; the page, what `display` selects. */
// biome-ignore lint/suspicious/noExplicitAny: any kind's table and joins.
function branchOf<QB extends SelectQueryBuilder<any, any, any>>(
  reading: Reading,
  ctx: Context,
  base: QB,
  key: { k: RawBuilder<string>; since: RawBuilder<Date>; notice?: boolean },
  display: (qb: QB) => Expression<unknown>,
): Branch {
  const wanted = (reading === 'count' || key.notice ? base.where(newOnly(ctx, key.k, key.since)) : base) as QB;
  return (reading === 'count' ? wanted.select(key.k.as('k')) : display(wanted)) as unknown as Branch;
}

const lineOf = (row: Row) => row.line as ProductLine;

/** A quote's own page, as the history opens it (quote-history.ts): read-only once sent or expired. */
function quoteHref(generation: 'v1' | 'v2', row: Row, sent: boolean): string {
  const action = sent ? 'visualizar' : 'editar';
  return (
    (generation === 'v1' && embeddedQuoteHref(row.simulator_code as string, row.nr_cotacao as string, row.etapa as string, action)) ||
    stepPath(generation, lineOf(row), row.etapa as QuoteStep, row.nr_cotacao as string, { action, sent, pinned: true })
  );
}

/** A proposal's branch joined to what names its sale in an item (whoseOfSale): the insured, the company, the seller. */
const withSaleNames = <O>(qb: SelectQueryBuilder<Database & { p: ProposalsTable }, 'p', O>) =>
  qb
    .innerJoin('quotes as q', 'q.id', 'p.quote_id')
    .leftJoin('companies as c', 'c.id', 'p.company_id')
    .innerJoin('users as u', 'u.id', 'p.seller_id')
    .select(['q.nome_segurado', 'c.razao_social as company', 'u.nome as seller']);

const whoseOfSale = (row: Row) =>
  [row.nome_segurado as string, row.company as string | null, row.seller as string | null].filter(Boolean) as string[];

/** Proposals waiting for documents, the nearest deadline first. */
function documentsKind(scope: Scope): KindReader {
  return {
    kind: 'DOCUMENTOS',
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
        href: `${ctx.generation === 'v2' ? '/v2/documentos/envio' : '/documentos/envio'}?${new URLSearchParams({ proposta: row.nr_proposta as string })}`,
        action: 'Enviar documentos',
      };
    },
  };
}

/** Proposals accepted or refused lately (notices): the latest first. */
function decisionsKind(scope: Scope): KindReader {
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

/** Policies' open installments overdue within the window (the 2ª via), the longest overdue first. */
function overdueKind(scope: Scope): KindReader {
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

/** Policies in force ending within the window (renew), the nearest end first. */
function renewalsKind(scope: Scope): KindReader {
  return {
    kind: 'RENOVACAO',
    branches: (db, ctx, reading) =>
      soldWithinBranches(scope, sql.ref('a.user_id'), sql.ref('a.company_id')).map((within) => {
        const since = dayStart(sql<string>`a.fim_vigencia - 60`);
        const k = keyOf('RENOVACAO', sql.ref('a.id'), since);
        const base = db
          .selectFrom('policies as a')
          .where('a.status', '=', 'VIGENTE')
          .where('a.generation', '=', ctx.generation)
          .where('a.fim_vigencia', '>=', ctx.w.today)
          .where('a.fim_vigencia', '<=', ctx.w.renewalUntil)
          .where(within)
          // A cancellation scheduled ahead ends it: nothing to renew (lib/renewals.ts renewalRefusal).
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('scheduled_cancellations as sc')
                  .select('sc.id')
                  .whereRef('sc.policy_id', '=', 'a.id')
                  .where('sc.status', '=', 'AGENDADO'),
              ),
            ),
          )
          .orderBy('a.fim_vigencia')
          .limit(WORKLIST_KIND_LIMIT);
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
            ]),
        );
      }),
    item: (row, ctx) => ({
      what: `Apólice nº ${row.nr_apolice} termina a vigência`,
      whose: [row.nome_segurado as string, row.company as string | null].filter(Boolean) as string[],
      deadline: row.fim_vigencia as string,
      deadlineText: dayPhrase(row.fim_vigencia as string, ctx.w.today, { future: 'termina', past: 'terminou' }),
      href: WORKLIST_LINKS.renewal(ctx.generation, row.nr_apolice as string),
      action: 'Renovar',
    }),
  };
}

/** Quotes still being made whose validity ends within the window, the nearest first. */
function expiringQuotesKind(scope: Scope): KindReader {
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

/** The user's own sales reports finished lately (notices). */
const reportsKind: KindReader = {
  kind: 'RELATORIO',
  branches: (db, ctx, reading) => {
    const since = sql<Date>`r.finished_at`;
    const k = keyOf('RELATORIO', sql.ref('r.id'), since);
    const base = db
      .selectFrom('sales_reports as r')
      .where('r.user_id', '=', ctx.userId)
      .where('r.generation', '=', ctx.generation)
      .where('r.status', '=', 'PRONTO')
      .where('r.finished_at', '>=', ctx.w.noticesFrom)
      .orderBy('r.id', 'desc')
      .limit(WORKLIST_KIND_LIMIT);
    return [
      branchOf(reading, ctx, base, { k, since, notice: true }, (qb) =>
        qb.select([k.as('k'), since.as('since'), 'r.id', 'r.finished_at', 'r.linhas']),
      ),
    ];
  },
  item: (row, ctx) => ({
    what: `Relatório de vendas nº ${row.id} pronto (${row.linhas} ${row.linhas === 1 ? 'linha' : 'linhas'})`,
    whose: [],
    deadline: new Date(row.finished_at as Date).toISOString(),
    deadlineText: `Gerado ${noticePhrase(row.finished_at as Date)}`,
    href: WORKLIST_LINKS.report(ctx.generation, row.id),
    action: 'Baixar o relatório',
  }),
};

/** Notas fiscais approved or refused lately (notices), for whoever sees them (v2 only). */
function notasKind(scope: BeneficiaryScope): KindReader {
  return {
    kind: 'NOTA_FISCAL',
    branches: (db, ctx, reading) => {
      if (ctx.generation !== 'v2' || (scope.kind === 'some' && scope.companyIds.length === 0)) return [];
      const since = sql<Date>`n.decidida_em`;
      const k = keyOf('NOTA_FISCAL', sql.ref('n.id'), since);
      const base = db
        .selectFrom('notas_fiscais as n')
        .where('n.status', 'in', ['APROVADA', 'RECUSADA'])
        .where('n.decidida_em', '>=', ctx.w.noticesFrom)
        .$if(scope.kind === 'some', (qb) => qb.where('n.company_id', 'in', (scope as { companyIds: number[] }).companyIds))
        .orderBy('n.decidida_em', 'desc')
        .limit(WORKLIST_KIND_LIMIT);
      return [
        branchOf(reading, ctx, base, { k, since, notice: true }, (qb) =>
          qb
            .innerJoin('companies as c', 'c.id', 'n.company_id')
            .select([
              k.as('k'),
              since.as('since'),
              'n.id',
              'n.numero',
              'n.status',
              'n.competencia',
              'n.motivo',
              'n.decidida_em',
              'c.razao_social as company',
            ]),
        ),
      ];
    },
    item: (row) => ({
      what: `Nota fiscal nº ${row.numero} (${row.competencia}) ${row.status === 'APROVADA' ? 'aprovada' : `recusada${row.motivo ? `: ${row.motivo}` : ''}`}`,
      whose: [row.company as string],
      deadline: new Date(row.decidida_em as Date).toISOString(),
      deadlineText: `Decidida ${noticePhrase(row.decidida_em as Date)}`,
      href: WORKLIST_LINKS.notaFiscal(),
      action: 'Ver as notas fiscais',
    }),
  };
}

/** The user's own imports of users finished lately (notices). */
const importsKind: KindReader = {
  kind: 'IMPORTACAO',
  branches: (db, ctx, reading) => {
    const since = sql<Date>`m.finished_at`;
    const k = keyOf('IMPORTACAO', sql.ref('m.id'), since);
    const base = db
      .selectFrom('user_imports as m')
      .where('m.actor_id', '=', ctx.userId)
      .where('m.generation', '=', ctx.generation)
      .where('m.status', 'in', ['CONCLUIDO', 'ERRO'])
      .where('m.finished_at', '>=', ctx.w.noticesFrom)
      .orderBy('m.created_at', 'desc')
      .limit(WORKLIST_KIND_LIMIT);
    return [
      branchOf(reading, ctx, base, { k, since, notice: true }, (qb) =>
        qb.select([k.as('k'), since.as('since'), 'm.id', 'm.file_name', 'm.status', 'm.finished_at', 'm.processed_rows']),
      ),
    ];
  },
  item: (row, ctx) => ({
    what:
      row.status === 'ERRO'
        ? `Importação de usuários "${row.file_name}" interrompida por um erro`
        : `Importação de usuários "${row.file_name}" concluída (${row.processed_rows} ${row.processed_rows === 1 ? 'linha' : 'linhas'})`,
    whose: [],
    deadline: new Date(row.finished_at as Date).toISOString(),
    deadlineText: `Concluída ${noticePhrase(row.finished_at as Date)}`,
    href: WORKLIST_LINKS.importResult(ctx.generation, row.id),
    action: 'Baixar o resultado',
  }),
};

/** The acceptance queue (the provider's ADMIN): proposals in analysis, the nearest deadline first. */
const analysisKind: KindReader = {
  kind: 'ANALISE',
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

/**
 * Refunds owed, the earliest planned first: the insurer's staff pays every one; the legacy
 * administrators' group (a partner's group too, lib/session.ts isInsurerStaff) those of the legacy
 * policies its scope sees.
 */
function refundsKind(scope: Scope, generation: 'v1' | 'v2' | undefined): KindReader {
  return {
    kind: 'RESTITUICAO',
    branches: (db, ctx, reading) =>
      soldWithinBranches(scope, sql.ref('a.user_id'), sql.ref('a.company_id')).map((within) => {
        const since = sql<Date>`r.created_at`;
        const k = keyOf('RESTITUICAO', sql.ref('r.id'), since);
        // The scope's columns are the policy's: joined for the count too (the staff's scope is everyone's, `true`).
        const base = db
          .selectFrom('refunds as r')
          .innerJoin('policies as a', 'a.id', 'r.policy_id')
          .where('r.status', '=', 'DEVIDA')
          .$if(generation !== undefined, (qb) => qb.where('r.generation', '=', generation!))
          .where(within)
          .orderBy('r.prevista_para')
          .orderBy('r.id')
          .limit(WORKLIST_KIND_LIMIT);
        return branchOf(reading, ctx, base, { k, since }, (qb) =>
          qb.select([k.as('k'), since.as('since'), 'r.id', 'r.valor', 'r.prevista_para', 'a.nr_apolice', 'a.nome_segurado']),
        );
      }),
    item: (row, ctx) => ({
      what: `Restituição de ${formatBRL(row.valor as number)} da apólice nº ${row.nr_apolice}`,
      whose: [row.nome_segurado as string],
      deadline: row.prevista_para as string,
      deadlineText: dayPhrase(row.prevista_para as string, ctx.w.today, { future: 'prevista para', past: 'prevista para' }),
      href: WORKLIST_LINKS.refunds(ctx.generation),
      action: 'Pagar a restituição',
    }),
  };
}

// ---------------------------------------------------------------------------------------------

/**
 * The staff's kinds: the provider's ADMIN (lib/session.ts isInsurerStaff) works the acceptance queue —
 * as its page's guard says, v2 only — and pays every refund; the legacy administrators' group, which
 * sees every legacy sale, the refunds of those (slice E's /restituicoes decides who opens it).
 */
function staffKinds(viewer: SessionViewer, policies: Scope): KindReader[] {
  if (isInsurerStaff(viewer)) return [analysisKind, refundsKind({ kind: 'all' }, undefined)];
  if (viewer.generation === 'v1' && viewer.user.profile.includes(V1_ADMIN_GROUP)) return [refundsKind(policies, 'v1')];
  return [];
}

/** The kinds a viewer has, each with the scope its page uses. */
async function kindsOf(db: DB, viewer: SessionViewer): Promise<KindReader[]> {
  const [quotes, policies, boletos, notas] = await Promise.all([
    quoteScopeFor(db, viewer),
    scopeFor(db, viewer, 'APOLICES'),
    scopeFor(db, viewer, 'BOLETOS'),
    commissionScopeFor(db, viewer),
  ]);
  // The insurer's staff made the decisions the partners are told of (proposals, notas fiscais): no notice to itself.
  const toldOfDecisions = !isInsurerStaff(viewer);
  return [
    documentsKind(quotes),
    ...(toldOfDecisions ? [decisionsKind(quotes)] : []),
    overdueKind(boletos),
    renewalsKind(policies),
    expiringQuotesKind(quotes),
    reportsKind,
    ...(toldOfDecisions ? [notasKind(notas)] : []),
    importsKind,
    ...staffKinds(viewer, policies),
  ];
}

async function contextOf(db: DB, viewer: SessionViewer, now: Date): Promise<Context> {
  const userId = viewer.user.idUsuario;
  const seen = await db.selectFrom('worklist_seen').select('all_read_at').where('user_id', '=', userId).executeTakeFirst();
  return {
    generation: viewer.generation,
    userId,
    now,
    w: windowsOf(now),
    readAllAt: seen ? new Date(seen.all_read_at) : null,
    opens: (href) => pageAccess(href.split('?')[0]!, viewer, config().PORTAL_ENV) === 'allowed',
  };
}

/**
 * How many items this viewer has not read: one statement, each branch of each kind cut at its limit,
 * counted no further than NEW_COUNT_CAP + 1 (the bell says 99+). Asked by the live stream
 * (api/live-worklist.ts), not by every page: at 1000× the demo it costs 20–60 ms, mostly planning the
 * branches (decision 067). A given `now` (tests) reads at that instant.
 */
export async function worklistNewCount(db: DB, viewer: SessionViewer, now?: Date): Promise<number> {
  return countNew(db, viewer, now ?? clockNow());
}

async function countNew(db: DB, viewer: SessionViewer, now: Date): Promise<number> {
  const [kinds, ctx] = await Promise.all([kindsOf(db, viewer), contextOf(db, viewer, now)]);
  const branches = kinds.flatMap((kind) => kind.branches(db, ctx, 'count'));
  if (branches.length === 0) return 0;
  const union = sql.join(
    branches.map((b) => sql`(select x.k from (${b}) x)`),
    sql` union all `,
  );
  const row = await sql<{
    n: number;
  }>`select count(*)::int as n from (select 1 from (${union}) u limit ${NEW_COUNT_CAP + 1}) c`.execute(db);
  return row.rows[0]?.n ?? 0;
}

/** The viewer's worklist, grouped and ordered (lib/worklist.ts), optionally one kind only. */
export async function worklist(db: DB, viewer: SessionViewer, options: { kind?: WorklistKind; now?: Date } = {}): Promise<WorklistGroup[]> {
  const now = options.now ?? clockNow();
  const [all, ctx] = await Promise.all([kindsOf(db, viewer), contextOf(db, viewer, now)]);
  const kinds = options.kind ? all.filter((k) => k.kind === options.kind) : all;
  const read = await Promise.all(
    kinds.map(async (kind) => {
      const rows = (await Promise.all(kind.branches(db, ctx, 'page').map((b) => b.execute()))).flat();
      return rows.map((row) => ({ kind, row }));
    }),
  );
  const found = read.flat();
  const keys = found.map((f) => f.row.k);
  const readKeys = new Set(
    keys.length === 0
      ? []
      : (
          await db.selectFrom('worklist_reads').select('item_key').where('user_id', '=', ctx.userId).where('item_key', 'in', keys).execute()
        ).map((r) => r.item_key),
  );
  const items: WorklistItem[] = found.map(({ kind, row }) => {
    const since = new Date(row.since);
    return {
      kind: kind.kind,
      key: row.k,
      since: since.toISOString(),
      // A notice is read only while new (its branch keeps only those); an action is new as lib/worklist.ts says.
      isNew: WORKLIST_KINDS[kind.kind].notice || ((ctx.readAllAt === null || since > ctx.readAllAt) && !readKeys.has(row.k)),
      ...kind.item(row, ctx),
    };
  });
  // Two branches of a scope are disjoint; the kind's limit holds for the whole kind.
  return groupItems(items).map((g) => ({ ...g, items: g.items.slice(0, WORKLIST_KIND_LIMIT) }));
}

/** Marks one item read for the viewer (a key of lib/worklist.ts parseItemKey); again is nothing. */
export async function markRead(db: DB, userId: number, key: string, now: Date = clockNow()): Promise<void> {
  await db
    .insertInto('worklist_reads')
    .values({ user_id: userId, item_key: key, read_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'item_key']).doNothing())
    .execute();
  // The memoized home and the live stream hear it at once here; other instances hear migration 037's notice.
  announce(db, { kind: 'user', userId });
}

/** Marks everything read up to now: one mark, and the item-by-item rows it makes needless go. */
export async function markAllRead(db: DB, userId: number, now: Date = clockNow()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('worklist_seen')
      .values({ user_id: userId, all_read_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ all_read_at: now }))
      .execute();
    await trx.deleteFrom('worklist_reads').where('user_id', '=', userId).where('read_at', '<=', now).execute();
  });
  announce(db, { kind: 'user', userId });
}
