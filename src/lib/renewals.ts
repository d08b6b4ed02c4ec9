import * as z from 'zod/mini';
import { optionalField, oneOf, pageField, parseListQuery, type ParsedListQuery } from './list-query';
import { PRODUCTS } from './products/catalog';
import { policyTerm, type StoredPolicyStatus } from './policies';
import { formatIsoDate } from './format';

/*
 * Renewals (issue 31): which policies come up for renewal, the next term's dates, whether a policy may
 * be renewed, its renewal's state and the renewal rate. Pure: the list, the "Renovar" page and the
 * metrics read these rules; services/selling/renewals.ts applies them to the database.
 */

/** A policy comes up for renewal this many days before its term ends (and until its last day). */
export const RENEWAL_WINDOW_DAYS = 60;
export const RENEWALS_PAGE_SIZE = 10;

const DAY_MS = 86_400_000;
const dayNumber = (iso: string) => Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) / DAY_MS;
const isoOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Whole days from `today` to `day` (Brasília days as 'YYYY-MM-DD'): 0 on the day, negative after it. */
export const daysUntil = (day: string, today: string): number => dayNumber(day) - dayNumber(today);

/** The end dates the renewals list shows on `today`: from today to RENEWAL_WINDOW_DAYS ahead, both included. */
export const renewalWindow = (today: string): { from: string; to: string } => ({
  from: today,
  to: isoOf(dayNumber(today) + RENEWAL_WINDOW_DAYS),
});

/** The next term of a policy: from the day after its end, for a year (lib/policies.ts policyTerm). */
export const nextTerm = (fimVigencia: string): { inicio: string; fim: string } => policyTerm(isoOf(dayNumber(fimVigencia) + 1));

export const RENEWAL_MESSAGES = {
  cancelled: 'Esta apólice foi cancelada e não pode ser renovada.',
  renewed: (nrApolice: string) => `Esta apólice já foi renovada pela apólice ${nrApolice}.`,
  ended: 'A vigência desta apólice já terminou: faça uma nova cotação.',
  early: (days: number) =>
    `A renovação abre ${RENEWAL_WINDOW_DAYS} dias antes do fim da vigência: faltam ${days} dias para o fim desta apólice.`,
  notSellable: 'Você não tem uma oferta ativa deste produto para renová-lo.',
  /** The policy's seller may no longer sell it, and neither may whoever clicks. */
  sellerGone: (seller: string) =>
    `${seller}, que vendeu esta apólice, não pode mais vendê-la, e você não tem uma oferta ativa deste produto para renová-la.`,
  scheduledCancellation: (day: string) => `Esta apólice tem um cancelamento agendado para ${day}: desfaça o agendamento para renová-la.`,
} as const;

export interface RenewablePolicy {
  status: StoredPolicyStatus;
  fimVigencia: string;
  /** The number of the policy that renewed this one, if any. */
  renovadaPor: string | null;
  /** The day its scheduled cancellation takes effect (ISO), if it has one: it ends, it is not renewed. */
  cancelamentoAgendado?: string | null;
}

/** Whether a policy may be renewed on `today`: in force, not renewed yet, within the window. */
export function renewalRefusal(policy: RenewablePolicy, today: string): string | undefined {
  if (policy.status === 'CANCELADA') return RENEWAL_MESSAGES.cancelled;
  if (policy.renovadaPor) return RENEWAL_MESSAGES.renewed(policy.renovadaPor);
  if (policy.cancelamentoAgendado) return RENEWAL_MESSAGES.scheduledCancellation(formatIsoDate(policy.cancelamentoAgendado));
  const days = daysUntil(policy.fimVigencia, today);
  if (days < 0) return RENEWAL_MESSAGES.ended;
  if (days > RENEWAL_WINDOW_DAYS) return RENEWAL_MESSAGES.early(days);
  return undefined;
}

export type RenewalState = 'NAO_RENOVADA' | 'COTADA' | 'RENOVADA' | 'CANCELAMENTO_AGENDADO';

export const RENEWAL_STATE_LABELS: Record<RenewalState, string> = {
  NAO_RENOVADA: 'Não renovada',
  COTADA: 'Renovação cotada',
  RENOVADA: 'Renovada',
  CANCELAMENTO_AGENDADO: 'Cancelamento agendado',
};

/**
 * A policy's renewal state: renewed once a renewal policy exists, quoted while a renewal quote is
 * open, else not renewable while a cancellation is scheduled (it ends then), else not renewed.
 */
export const renewalState = (renovadaPor: string | null, openQuote: string | null, cancelamentoAgendado?: string | null): RenewalState =>
  renovadaPor ? 'RENOVADA' : openQuote ? 'COTADA' : cancelamentoAgendado ? 'CANCELAMENTO_AGENDADO' : 'NAO_RENOVADA';

/**
 * Who a renewal's quote is made for (issue 42): the policy's own seller while they may still sell it,
 * whoever clicks "Renovar"; else the one who clicks (`instead` names the seller who no longer can).
 */
export interface RenewalSellerView {
  nome: string;
  policySeller: boolean;
  /** It is the viewer. */
  viewer: boolean;
  instead?: string;
}

/** What the renewal page says of who will sell it, before anyone clicks. */
export function renewalSellerText(who: RenewalSellerView): string {
  if (who.policySeller && who.viewer) return 'A cotação da renovação fica em seu nome, como esta apólice.';
  if (who.policySeller)
    return `A cotação da renovação fica em nome de ${who.nome}, que vendeu esta apólice: você poderá consultá-la, mas só quem a fez a altera e envia a proposta.`;
  return `${who.instead}, que vendeu esta apólice, não pode mais vendê-la: a cotação da renovação fica em seu nome (${who.nome}).`;
}

/** The renewal rate of a month, in percent with one decimal: renewed over ending; none when nothing ended. */
export const renewalRate = (renewed: number, ending: number): number | undefined =>
  ending > 0 ? Math.round((1000 * renewed) / ending) / 10 : undefined;

/* ---------- The list's filters ---------- */

export const RENEWAL_FIELDS = ['produto', 'vendedor', 'pontoVenda'] as const;

export const RENEWAL_FILTER_MESSAGES = {
  produto: 'Produto inválido.',
  vendedor: 'Vendedor inválido.',
  pontoVenda: 'Ponto de venda inválido.',
  page: 'Página inválida.',
} as const;

const idField = (message: string) => z.pipe(z.string({ error: message }).check(z.regex(/^[1-9]\d{0,9}$/, message)), z.transform(Number));

const renewalQuerySchema = z.object({
  produto: optionalField(oneOf(Object.keys(PRODUCTS), RENEWAL_FILTER_MESSAGES.produto, (v) => v.toUpperCase())),
  /** A seller's id and a point of sale's id, each among those the viewer sees (checked by the page). */
  vendedor: optionalField(idField(RENEWAL_FILTER_MESSAGES.vendedor)),
  pontoVenda: optionalField(idField(RENEWAL_FILTER_MESSAGES.pontoVenda)),
  page: optionalField(pageField(RENEWAL_FILTER_MESSAGES.page)),
});

export type RenewalFilters = Omit<z.output<typeof renewalQuerySchema>, 'page'>;

/** Reads the renewals list's filters; a bad value is a pt-BR field error. */
export const parseRenewalQuery = (query: URLSearchParams | Record<string, unknown>): ParsedListQuery<RenewalFilters> =>
  parseListQuery(renewalQuerySchema, query);

/* ---------- The renewal rate in the sales metrics ---------- */

export interface MonthRenewals {
  /** 'YYYY-MM': the month the terms ended (or end) in. */
  month: string;
  ending: number;
  renewed: number;
  /** Percent; undefined when no term ended that month. */
  rate?: number;
}

/** The months the metrics show the rate for: the year's months and the two ahead, whose terms are ending now. */
export function renewalMonths(yearMonths: readonly string[]): string[] {
  const next = (month: string) => {
    const [y, m] = month.split('-').map(Number) as [number, number];
    return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  };
  const last = yearMonths[yearMonths.length - 1]!;
  return [...yearMonths, next(last), next(next(last))];
}

/** A month's row per month asked for (none counted: zero, no rate), and the whole period's. */
export function renewalSeries(
  months: readonly string[],
  rows: readonly { month: string; ending: number; renewed: number }[],
): { months: MonthRenewals[]; total: MonthRenewals } {
  const byMonth = new Map(rows.map((r) => [r.month, r]));
  const series = months.map((month) => {
    const { ending = 0, renewed = 0 } = byMonth.get(month) ?? {};
    return { month, ending, renewed, rate: renewalRate(renewed, ending) };
  });
  const ending = series.reduce((sum, m) => sum + m.ending, 0);
  const renewed = series.reduce((sum, m) => sum + m.renewed, 0);
  return { months: series, total: { month: 'total', ending, renewed, rate: renewalRate(renewed, ending) } };
}
