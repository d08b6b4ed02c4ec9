import { clockSummary, type Clock } from './acceptance';
import { addDays, daysBetween } from './calendar';
import { brasiliaDay, formatDate, formatIsoDate } from './format';

export { bellLabel, countText, NEW_COUNT_CAP } from './worklist-bell';

/*
 * The worklist ("Pendências", issue 31): everything waiting for a user's action, as data. The service
 * (server/services/reporting/worklist.ts) reads the items through the scoping function; this module
 * decides what each kind is called, how long each window is, how an item's deadline reads, how items
 * are grouped and ordered, and which items are new.
 *
 * Two sorts of kinds: an *action* stays in the list until it is done (a proposal still waits for
 * documents however often it was read) — reading it only stops it counting as new; a *notice* (a
 * decision, a report ready, a nota fiscal decided, an import finished) is there to be read, and
 * leaves the list once read.
 */

export const WORKLIST_KINDS = {
  DOCUMENTOS: { title: 'Propostas aguardando documentos', notice: false, staff: false },
  ANALISE: { title: 'Propostas em análise', notice: false, staff: true },
  PARCELA_VENCIDA: { title: 'Parcelas vencidas', notice: false, staff: false },
  RESTITUICAO: { title: 'Restituições a pagar', notice: false, staff: true },
  RENOVACAO: { title: 'Apólices a renovar', notice: false, staff: false },
  COTACAO_EXPIRANDO: { title: 'Cotações a vencer sem proposta', notice: false, staff: false },
  DECISAO: { title: 'Propostas aceitas ou recusadas', notice: true, staff: false },
  RELATORIO: { title: 'Relatórios de vendas prontos', notice: true, staff: false },
  NOTA_FISCAL: { title: 'Notas fiscais aprovadas ou recusadas', notice: true, staff: false },
  IMPORTACAO: { title: 'Importações de usuários concluídas', notice: true, staff: false },
} as const;

export type WorklistKind = keyof typeof WORKLIST_KINDS;
export const WORKLIST_KIND_LIST = Object.keys(WORKLIST_KINDS) as WorklistKind[];
export const isWorklistKind = (value: unknown): value is WorklistKind => typeof value === 'string' && value in WORKLIST_KINDS;

/** Windows, in days: policies ending within RENEWAL, quotes expiring within QUOTE_EXPIRY, installments overdue for at most OVERDUE, notices for NOTICE. */
export const WORKLIST_WINDOWS = { RENEWAL: 60, QUOTE_EXPIRY: 5, OVERDUE: 60, NOTICE: 30 } as const;

/** At most this many items of a kind are read per request (the page and the count): a worklist is not a report. */
export const WORKLIST_KIND_LIMIT = 50;
/** The bell counts up to this and then says "99+". */
/** How many items the home shows. */
export const HOME_ITEMS = 5;
/**
 * How many of a kind the whole worklist shows, the rest a link away (its kind's page shows up to
 * WORKLIST_KIND_LIMIT): at a real book of business every kind is full, and fifty of each made a page of
 * 450 KB that nobody reads to the end.
 */
export const WORKLIST_GROUP_PREVIEW = 10;

/** What a group shows: a kind's own page all it read, the whole worklist its first few — and how many more. */
export function shownOf(group: WorklistGroup, filtered: boolean): { items: WorklistItem[]; more: number } {
  const items = filtered ? group.items : group.items.slice(0, WORKLIST_GROUP_PREVIEW);
  return { items, more: group.items.length - items.length };
}

export const WORKLIST_PAGE = { v1: '/pendencias', v2: '/v2/pendencias' } as const;

/**
 * An item's key: kind, record and version — the instant it became what it is — so an item that
 * changes again (documents asked for a second time, a new overdue month) is new again.
 */
export const itemKey = (kind: WorklistKind, id: number | string, since: Date): string => `${kind}:${id}:${since.getTime()}`;

const KEY = /^([A-Z_]{3,20}):(\d{1,20}):(\d{1,15})$/;
/** A key as a form posts it, or undefined: anything else is not a key of ours. */
export const parseItemKey = (value: unknown): string | undefined => {
  if (typeof value !== 'string') return undefined;
  const match = KEY.exec(value);
  return match && isWorklistKind(match[1]) ? value : undefined;
};

export interface WorklistItem {
  kind: WorklistKind;
  key: string;
  /** What: 'Proposta nº 123 — Residencial'. */
  what: string;
  /** Whose: the insured, the company, the seller (whatever the kind has). */
  whose: string[];
  /** The deadline as an instant (ISO) or a day ('YYYY-MM-DD'); the order within a kind. */
  deadline: string;
  /** The deadline in words ('vence em 3 dias (12/12/2026)'). */
  deadlineText: string;
  /** When it became what it is (ISO): decides whether it is new. */
  since: string;
  /** The link that does it, and what it says. */
  href: string;
  action: string;
  isNew: boolean;
}

export interface WorklistGroup {
  kind: WorklistKind;
  title: string;
  items: WorklistItem[];
}

const plural = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`);

/** A day's deadline as a partner reads it, from today ('YYYY-MM-DD', Brasília). */
export function dayPhrase(
  day: string,
  today: string,
  verb: { future: string; past: string } = { future: 'vence', past: 'venceu' },
): string {
  const days = daysBetween(today, day);
  const date = formatIsoDate(day);
  if (days === 0) return `${verb.future} hoje (${date})`;
  if (days > 0) return `${verb.future} em ${plural(days, 'dia', 'dias')} (${date})`;
  return `${verb.past} há ${plural(-days, 'dia', 'dias')} (${date})`;
}

/** A refund's planned day: "a pagar em 9 dias", "atrasada há 240 dias" (issue 42: it read "prevista para há 240 dias"). */
export const REFUND_DEADLINE = { future: 'a pagar', past: 'atrasada' } as const;

/** The 25-day clock of a proposal in a row: the history's own words (lib/acceptance.ts clockSummary). */
export const clockPhrase = (clock: Clock): string => clockSummary(clock, formatDate) ?? 'Decidida';

/** A notice's time: 'em 12/12/2026'. */
export const noticePhrase = (at: Date | string): string => `em ${formatDate(at)}`;

/** The order of the items of one kind: the nearest deadline first (notices: the latest first). */
export function sortItems(kind: WorklistKind, items: WorklistItem[]): WorklistItem[] {
  const sign = WORKLIST_KINDS[kind].notice ? -1 : 1;
  return [...items].sort((a, b) => sign * a.deadline.localeCompare(b.deadline) || a.key.localeCompare(b.key));
}

/** A deadline compared across kinds: a day is read as its start in Brasília. */
const instantOf = (deadline: string) => (deadline.length === 10 ? Date.parse(`${deadline}T00:00:00-03:00`) : Date.parse(deadline));

/**
 * Items grouped by kind, each group in its order, the groups by their most urgent action (the
 * nearest deadline), the notices after every action, newest first.
 */
export function groupItems(items: WorklistItem[]): WorklistGroup[] {
  const groups = WORKLIST_KIND_LIST.map((kind) => ({
    kind,
    title: WORKLIST_KINDS[kind].title,
    items: sortItems(
      kind,
      items.filter((i) => i.kind === kind),
    ),
  })).filter((g) => g.items.length > 0);
  const urgency = (g: WorklistGroup) => (WORKLIST_KINDS[g.kind].notice ? Number.POSITIVE_INFINITY : instantOf(g.items[0]!.deadline));
  return groups.sort((a, b) => urgency(a) - urgency(b) || WORKLIST_KIND_LIST.indexOf(a.kind) - WORKLIST_KIND_LIST.indexOf(b.kind));
}

/** The home's few: the most urgent actions, then the newest notices. */
export function mostUrgent(groups: WorklistGroup[], count = HOME_ITEMS): WorklistItem[] {
  const all = groups.flatMap((g) => g.items);
  const actions = all.filter((i) => !WORKLIST_KINDS[i.kind].notice).sort((a, b) => instantOf(a.deadline) - instantOf(b.deadline));
  const notices = all.filter((i) => WORKLIST_KINDS[i.kind].notice).sort((a, b) => instantOf(b.deadline) - instantOf(a.deadline));
  return [...actions, ...notices].slice(0, count);
}

/** Is an item new for a user: after the "all read" mark, and not read one by one. A notice that is not new leaves the list. */
export const isNewItem = (since: Date, readAllAt: Date | null, readKeys: ReadonlySet<string>, key: string): boolean =>
  (readAllAt === null || since.getTime() > readAllAt.getTime()) && !readKeys.has(key);

/** How many of these items are new (the bell's count where a page has read the whole worklist anyway). */
export const newCountOf = (groups: WorklistGroup[]): number => groups.reduce((n, g) => n + g.items.filter((i) => i.isNew).length, 0);

/** The windows' bounds for today (Brasília days). */
export function windowsOf(now: Date) {
  const today = brasiliaDay(now);
  return {
    today,
    renewalUntil: addDays(today, WORKLIST_WINDOWS.RENEWAL),
    overdueFrom: addDays(today, -WORKLIST_WINDOWS.OVERDUE),
    quoteExpiryUntil: new Date(now.getTime() + WORKLIST_WINDOWS.QUOTE_EXPIRY * 86_400_000),
    noticesFrom: new Date(now.getTime() - WORKLIST_WINDOWS.NOTICE * 86_400_000),
  };
}

/** Where each kind's link goes, per generation (routes of other slices: renewals C, refunds E). */
export const WORKLIST_LINKS = {
  renewal: (generation: 'v1' | 'v2', nrApolice: string) =>
    `${generation === 'v2' ? '/v2/renovacoes' : '/renovacoes'}/${encodeURIComponent(nrApolice)}`,
  /** Where documents are sent, or one proposal's. */
  documents: (generation: 'v1' | 'v2', nrProposta?: string) =>
    `${generation === 'v2' ? '/v2/documentos/envio' : '/documentos/envio'}${nrProposta ? `?${new URLSearchParams({ proposta: nrProposta })}` : ''}`,
  /** The refunds queue, or one policy's refunds in it (its filter). */
  refunds: (generation: 'v1' | 'v2', nrApolice?: string) =>
    `${generation === 'v2' ? '/v2/restituicoes' : '/restituicoes'}${nrApolice ? `?${new URLSearchParams({ nrApolice })}` : ''}`,
  policy: (generation: 'v1' | 'v2', nrApolice: string) =>
    `${generation === 'v2' ? '/v2/apolices' : '/apolices'}/${encodeURIComponent(nrApolice)}`,
  /** The 2ª via (v2) or the payment lookup (legacy), the policy's installments already searched. */
  secondCopy: (generation: 'v1' | 'v2', nrApolice: string) =>
    `${generation === 'v2' ? '/v2/boleto' : '/consulta-pagamento'}?${new URLSearchParams({ nrApolice })}`,
  analysis: (nrProposta: string) => `/v2/propostas/analise?${new URLSearchParams({ decidir: nrProposta, acao: 'ACEITAR' })}`,
  report: (generation: 'v1' | 'v2', id: number) =>
    `${generation === 'v2' ? '/v2/relatorios/vendas/arquivo' : '/relatorio-vendas/arquivo'}/${id}`,
  notaFiscal: () => '/v2/comissoes/nota-fiscal',
  importResult: (generation: 'v1' | 'v2', id: number) =>
    `${generation === 'v2' ? '/v2/usuario/importacao/resultado' : '/importar-usuarios/resultado'}/${id}`,
} as const;
