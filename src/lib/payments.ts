import { addDays, startOfBrasiliaDay, startOfNextBrasiliaDay } from './calendar';
import * as z from 'zod/mini';
import { CHARGED_METHODS } from './charges';
import { formatDate } from './format';
import { formatBRL } from './products/money';
import { isoDateField, listHref, optionalField, pageField, parseListQuery, type ParsedListQuery } from './list-query';
import type { PageLink } from './keyset-pages';
import { FILTER_MESSAGES, nrApoliceField, seguradoField, type InstallmentStatus } from './policies';
import { CSV_OPTIONS as PORTAL_CSV_OPTIONS } from './csv';

/*
 * The payment pages (issue 13): the 2ª via search (/v2/boleto), the payments of a policy or an insured
 * (/consulta-pagamento) and the payments received in a period (/relatorio-pagamento, and its CSV).
 * The rules the pages, the services and the export share; pure, so they are tested as tables.
 * Days are ISO calendar days in Brasília ('2026-11-23'); money is integer cents.
 */

export const PAYMENTS_PAGE_SIZE = 10;

/** Both lookups search one policy, or the policies of one insured. */
export const SEARCH_FIELDS = ['nrApolice', 'segurado'] as const;

const searchSchema = z.object({
  nrApolice: optionalField(nrApoliceField),
  segurado: optionalField(seguradoField),
  page: optionalField(pageField(FILTER_MESSAGES.page)),
});

export type PaymentSearch = Omit<z.output<typeof searchSchema>, 'page'>;

/** Reads a lookup's address (the same fields and messages as the policies' filters). */
export const parsePaymentSearch = (query: URLSearchParams | Record<string, unknown>): ParsedListQuery<PaymentSearch> =>
  parseListQuery(searchSchema, query);

/** Nothing typed yet: the page says what to search for rather than listing every installment. */
export const isBlankSearch = (search: PaymentSearch) => search.nrApolice === undefined && search.segurado === undefined;

/** What /v2/boleto offers for an installment still to be paid, by its state and its charge. */
export type BoletoOffer =
  /** An open installment: its boleto and Pix are on the policy's page. */
  | 'pagina-da-apolice'
  /** Overdue with no payable charge: a 2ª via with a new due date. */
  | 'segunda-via'
  /** Overdue, and a 2ª via still payable was issued: its codes, and another 2ª via if wanted. */
  | 'segunda-via-emitida'
  /** Card and debit are charged by their networks: no boleto. */
  | 'sem-boleto';

export function boletoOffer(
  installment: { status: InstallmentStatus; formaPagamento: string; charge: { vencimento: string } | null },
  today: string,
): BoletoOffer | undefined {
  if (installment.status === 'PAGA' || installment.status === 'CANCELADA') return undefined;
  if (!CHARGED_METHODS.includes(installment.formaPagamento)) return 'sem-boleto';
  if (installment.status === 'ABERTA') return 'pagina-da-apolice';
  return installment.charge && installment.charge.vencimento >= today ? 'segunda-via-emitida' : 'segunda-via';
}

/* ---------- The period of the payments report ---------- */

export const REPORT_FIELDS = ['de', 'ate'] as const;

export const PERIOD_MESSAGES = {
  date: 'Informe uma data válida.',
  order: 'A data final não pode ser anterior à data inicial.',
  tooLong: 'O período pode ter no máximo 1 ano: diminua o intervalo.',
  page: FILTER_MESSAGES.page,
} as const;

/** The month of `today`: its first and its last day. */
export function monthOf(today: string): Period {
  const [year, month] = today.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
  return { de: `${today.slice(0, 7)}-01`, ate: last };
}

/** The last day a period starting on `de` may end on: a year later, less a day (01/01 to 31/12). */
export function lastDayOfPeriod(de: string): string {
  const [year, month, day] = de.split('-').map(Number) as [number, number, number];
  const sameDay = new Date(Date.UTC(year + 1, month - 1, day));
  // 29 February: a year later is 28 February (Date.UTC would roll over to 1 March).
  if (sameDay.getUTCMonth() !== month - 1) sameDay.setUTCDate(0);
  return addDays(sameDay.toISOString().slice(0, 10), -1);
}

export interface Period {
  de: string;
  ate: string;
}

/** The report's period: blank days are the current month's; a bad, reversed or over-a-year one is a field error. */
export function parsePeriodQuery(query: URLSearchParams | Record<string, unknown>, today: string): ParsedListQuery<Period> {
  const month = monthOf(today);
  const schema = z
    .pipe(
      z.object({
        de: optionalField(isoDateField(PERIOD_MESSAGES.date)),
        ate: optionalField(isoDateField(PERIOD_MESSAGES.date)),
        page: optionalField(pageField(PERIOD_MESSAGES.page)),
      }),
      z.transform(({ de = month.de, ate = month.ate, page }) => ({ de, ate, page })),
    )
    .check(
      z.superRefine((value, ctx) => {
        // ISO days compare as text.
        if (value.ate < value.de) ctx.addIssue({ code: 'custom', input: value, path: ['ate'], message: PERIOD_MESSAGES.order });
        else if (value.ate > lastDayOfPeriod(value.de))
          ctx.addIssue({ code: 'custom', input: value, path: ['ate'], message: PERIOD_MESSAGES.tooLong });
      }),
    );
  return parseListQuery(schema, query);
}

/**
 * The instants a period covers, from midnight of its first day in Brasília to midnight after its
 * last. Brasília keeps UTC−3 all year (no daylight saving since 2019), so the offset is fixed.
 */
export const periodBounds = ({ de, ate }: Period) => ({ from: startOfBrasiliaDay(de), to: startOfNextBrasiliaDay(ate) });

/* ---------- Payments received, their totals and their CSV ---------- */

export type PaymentMethodPaid = 'BOLETO' | 'PIX';

export const PAID_METHOD_LABELS: Record<PaymentMethodPaid, string> = { BOLETO: 'Boleto', PIX: 'Pix' };

/** One payment received, as the report and its CSV show it (the insured's document masked). */
export interface PaymentRow {
  pagoEm: string;
  nrApolice: string;
  productName: string;
  nomeSegurado: string;
  documentoSegurado: string;
  numero: number;
  parcelas: number;
  valor: number;
  meio: PaymentMethodPaid;
}

export interface ProductTotal {
  productName: string;
  count: number;
  amount: number;
}

/** The totals per product, by name, and the grand total of the period. */
export function reportTotals(perProduct: readonly ProductTotal[]): { products: ProductTotal[]; total: { count: number; amount: number } } {
  const products = [...perProduct].sort((a, b) => a.productName.localeCompare(b.productName, 'pt-BR'));
  const total = products.reduce((sum, p) => ({ count: sum.count + p.count, amount: sum.amount + p.amount }), { count: 0, amount: 0 });
  return { products, total };
}

/** Cents as a spreadsheet in pt-BR reads a number: 123456 → '1234,56' (no thousands separator, no 'R$'). */
export const csvAmount = (cents: number): string =>
  `${cents < 0 ? '-' : ''}${Math.trunc(Math.abs(cents) / 100)},${String(Math.abs(cents) % 100).padStart(2, '0')}`;

/** The CSV's columns: its pt-BR header and the cell of a payment. */
export const CSV_COLUMNS: readonly [header: string, cell: (row: PaymentRow) => string][] = [
  ['Data do pagamento', (r) => formatDate(r.pagoEm)],
  ['Apólice', (r) => r.nrApolice],
  ['Produto', (r) => r.productName],
  ['Segurado', (r) => r.nomeSegurado],
  ['CPF/CNPJ', (r) => r.documentoSegurado],
  // '1 de 4', not '1/4': a spreadsheet in pt-BR would read that as a date (1 April).
  ['Parcela', (r) => `${r.numero} de ${r.parcelas}`],
  ['Valor pago (R$)', (r) => csvAmount(r.valor)],
  ['Meio', (r) => PAID_METHOD_LABELS[r.meio]],
];

/** csv-stringify's options: the portal's one set for every CSV (lib/csv.ts), with this export's header. */
export const CSV_OPTIONS = { ...PORTAL_CSV_OPTIONS, header: true, columns: CSV_COLUMNS.map(([header]) => header) } as const;

export const csvRecord = (row: PaymentRow): string[] => CSV_COLUMNS.map(([, cell]) => cell(row));

export const csvFileName = ({ de, ate }: Period) => `pagamentos-${de}-a-${ate}.csv`;

/** The export's address for a period (the page's link). */
export const csvHref = ({ de, ate }: Period) => `/relatorio-pagamento/exportar.csv?${new URLSearchParams({ de, ate })}`;

/** A page of the report: its period, and past page 1 the page and the cursor that reaches it (lib/keyset-pages.ts). */
export const reportPageHref = ({ de, ate }: Period, link: PageLink) =>
  listHref('/relatorio-pagamento', REPORT_FIELDS, { de, ate }, link.page, link.cursor);

/* ---------- A boleto that is no longer there to pay ---------- */

/** The page of a policy in its generation (the way back from a boleto that cannot be paid). */
export const policyPageHref = (generation: 'v1' | 'v2', nrApolice: string) =>
  generation === 'v2' ? `/v2/apolices/${nrApolice}` : `/apolices/${nrApolice}`;

export interface BoletoGone {
  title: string;
  heading: string;
  detail: string;
  /** Where to go instead; none for the insured's links (issue 31), who have no portal page to go to. */
  link?: { href: string; label: string };
}

/**
 * Why an installment of a policy the viewer may charge has no boleto to download (issue 27 item 12):
 * paid, cancelled, or overdue with no charge payable today — said plainly, with the way to the policy,
 * instead of the bare 404 page. Undefined for anything else (a card or debit policy, an open one):
 * the 404 page, as before. Only asked once the scope holds the policy, so it tells nobody else anything.
 */
export function boletoGone(
  generation: 'v1' | 'v2',
  nrApolice: string,
  installment: { numero: number; status: InstallmentStatus; pagaEm: string | null; valorPago: number | null },
  formaPagamento: string,
): BoletoGone | undefined {
  if (!CHARGED_METHODS.includes(formaPagamento)) return undefined;
  const link = { href: policyPageHref(generation, nrApolice), label: `Ver a apólice nº ${nrApolice}` };
  const which = `A ${installment.numero}ª parcela da apólice ${nrApolice}`;
  if (installment.status === 'PAGA') {
    const on = installment.pagaEm ? ` em ${formatDate(installment.pagaEm)}` : '';
    const amount = installment.valorPago === null ? '' : ` (${formatBRL(installment.valorPago)})`;
    return { title: 'Parcela paga', heading: `Parcela paga${on}`, detail: `${which} já foi paga${amount}: não há boleto a pagar.`, link };
  }
  if (installment.status === 'CANCELADA')
    return { title: 'Parcela cancelada', heading: 'Parcela cancelada', detail: `${which} foi cancelada: não há boleto a pagar.`, link };
  if (installment.status === 'VENCIDA')
    return {
      title: 'Boleto vencido',
      heading: 'Boleto vencido',
      detail: `O boleto da ${installment.numero}ª parcela da apólice ${nrApolice} venceu. Emita a 2ª via, com a nova data, na página da apólice.`,
      link,
    };
  return undefined;
}
