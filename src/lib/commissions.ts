import * as z from 'zod/mini';
import { addDays, startOfBrasiliaDay } from './calendar';
import { brasiliaDay } from './format';
import { optionalField, pageField, parseListQuery, type ParsedListQuery } from './list-query';
import { roundHalfUp } from './products/money';
import type { Cents } from './products/types';
import { formatCnpj, formatCpf, normalizeCnpj } from './validators';
import { CSV_OPTIONS } from './csv';

/*
 * Commissions (issue 15; DESIGN §10; decision 041): the partner's remuneration on each paid
 * installment, at the rate fixed when the quote was made (quotes.comissao_centesimos, the CNSP
 * 382/2020 disclosure), less the clawbacks of cancellations (refunds.estorno_comissao). Everything is
 * derived on read from payments, quotes and refunds (services/earnings/commissions.ts does the same arithmetic
 * in SQL); these are the rules as pure functions, tested as tables. Money in integer cents; a month
 * (competência) is 'YYYY-MM' in America/Sao_Paulo.
 */

/**
 * The net premium inside one installment: the installment's share of the total the insured pays,
 * applied to the net premium of the sale — the convention the refund uses (lib/refund.ts
 * `paidShare`), so a commission and its clawback are measured alike. Half a cent rounds up.
 */
export const installmentNetPremium = (installment: Cents, netAtSale: Cents, totalAtSale: Cents): Cents =>
  totalAtSale <= 0 ? 0 : roundHalfUp((installment * netAtSale) / totalAtSale);

/** The commission on a net premium at a rate in hundredths of a percent (2000 = 20 %), half a cent up. */
export const commissionOf = (netPremium: Cents, rateHundredths: number): Cents => roundHalfUp((netPremium * rateHundredths) / 10_000);

/** 2000 → '20 %', 1250 → '12,5 %'. */
export const rateText = (hundredths: number): string =>
  `${new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 }).format(hundredths / 100)} %`;

/* ---------- Months (competência) ---------- */

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The month an instant belongs to in Brasília: a payment at 23:30 of 31/03 (02:30Z of 01/04) is March's. */
export const monthOf = (instant: Date | string): string => brasiliaDay(instant).slice(0, 7);

/** The month after 'YYYY-MM'. */
export function nextMonth(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, '0')}`;
}

/** The month before 'YYYY-MM'. */
export function previousMonth(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return number === 1 ? `${year - 1}-12` : `${year}-${String(number - 1).padStart(2, '0')}`;
}

/** The instants a month spans in Brasília: [start, end). */
export const monthBounds = (month: string): { start: Date; end: Date } => ({
  start: startOfBrasiliaDay(`${month}-01`),
  end: startOfBrasiliaDay(`${nextMonth(month)}-01`),
});

/** A month is closed once it has ended in Brasília: from the 1st of the next one, its nota may be sent. */
export const isClosedMonth = (month: string, today: string): boolean => month < today.slice(0, 7);

/** The last day of a month, 'YYYY-MM-DD'. */
export const lastDayOf = (month: string): string => addDays(`${nextMonth(month)}-01`, -1);

const MONTH_NAMES = [
  'janeiro',
  'fevereiro',
  'março',
  'abril',
  'maio',
  'junho',
  'julho',
  'agosto',
  'setembro',
  'outubro',
  'novembro',
  'dezembro',
] as const;

/** '2026-03' → 'março de 2026'. */
export function monthLabel(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return `${MONTH_NAMES[number - 1]} de ${year}`;
}

/** '2026-03' → 'Março/2026' (a table's short form). */
export function monthShort(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const name = MONTH_NAMES[number - 1]!;
  return `${name[0]!.toUpperCase()}${name.slice(1)}/${year}`;
}

/* ---------- A month's balance, and what is carried to the next ---------- */

export interface MonthFigures {
  month: string;
  /** Commissions on the installments paid in the month. */
  commissions: Cents;
  /** Commissions clawed back by the cancellations confirmed in the month (positive). */
  clawbacks: Cents;
}

export interface MonthBalance extends MonthFigures {
  /** commissions − clawbacks of the month itself. */
  balance: Cents;
  /** A negative balance left by earlier months (≤ 0), set against this one. */
  carriedIn: Cents;
  /** What the insurer owes for the month: the nota fiscal's amount and the informe's income (≥ 0). */
  payable: Cents;
  /** What is left negative for the months after (≤ 0). */
  carriedOut: Cents;
}

/**
 * Each month's balance in order, a negative one carried to the next months until commissions cover
 * it: a partner never owes a nota of a negative amount, and a clawback is never forgotten.
 */
export function monthBalances(months: readonly MonthFigures[]): MonthBalance[] {
  let carry = 0;
  return [...months]
    .sort((a, b) => a.month.localeCompare(b.month))
    .map((m) => {
      const balance = m.commissions - m.clawbacks;
      const carriedIn = carry;
      const net = balance + carriedIn;
      carry = Math.min(0, net);
      return { ...m, balance, carriedIn, payable: Math.max(0, net), carriedOut: carry };
    });
}

/* ---------- The statement's query ---------- */

export const COMMISSION_LINES_PAGE_SIZE = 50;

export const COMMISSION_MESSAGES = {
  competencia: 'Competência inválida: use o formato AAAA-MM (por exemplo 2026-03).',
  empresa: 'Empresa inválida: informe o CNPJ de uma empresa sua.',
  page: 'Página inválida.',
  future: 'A competência não pode ser posterior ao mês atual.',
} as const;

export const monthField = (message: string = COMMISSION_MESSAGES.competencia) =>
  z.string({ error: message }).check(
    z.regex(MONTH, message),
    z.refine((v) => Number(v.slice(0, 4)) >= 2000, message),
  );

/** A CNPJ as typed or masked ('11.222.333/0001-81'), kept as its 14 characters (digits, or the 2026 alphanumeric form). */
export const cnpjField = (message: string = COMMISSION_MESSAGES.empresa) =>
  z.pipe(
    z.pipe(z.string({ error: message }).check(z.maxLength(30, message)), z.transform(normalizeCnpj)),
    z.string().check(z.regex(/^[0-9A-Z]{12}\d{2}$/, message)),
  );

export const STATEMENT_FIELDS = ['empresa', 'competencia'] as const;

const statementSchema = z.object({
  empresa: optionalField(cnpjField()),
  competencia: optionalField(monthField()),
  page: optionalField(pageField(COMMISSION_MESSAGES.page)),
});

export type StatementQuery = Omit<z.output<typeof statementSchema>, 'page'>;

/** The statement's address as filters and a page; a month after the current one is a field error. */
export function parseStatementQuery(query: URLSearchParams | Record<string, unknown>, today: string): ParsedListQuery<StatementQuery> {
  const parsed = parseListQuery(statementSchema, query);
  if (parsed.ok && parsed.filters.competencia && parsed.filters.competencia > today.slice(0, 7))
    return { ok: false, errors: { competencia: [COMMISSION_MESSAGES.future] } };
  return parsed;
}

/* ---------- Beneficiaries ---------- */

/** Who receives commissions: a company (the partner or sub-delegated one that sold), or a person who sold without one. */
export type BeneficiaryKind = 'PJ' | 'PF';

/** A CPF or CNPJ as the pages show it. */
export const formatTaxId = (kind: BeneficiaryKind, id: string): string => (kind === 'PJ' ? formatCnpj(id) : formatCpf(id));

/** What an amount typed in pt-BR ('R$ 1.234,56', '1234,56', '1234') is in cents; undefined when it is not money. */
export function parseMoneyText(text: string): Cents | undefined {
  const match = /^\s*(?:R\$\s*)?(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,2}))?\s*$/.exec(text);
  if (!match) return undefined;
  const units = Number(match[1]!.replace(/\./g, ''));
  const cents = Number((match[2] ?? '0').padEnd(2, '0'));
  const value = units * 100 + cents;
  return Number.isSafeInteger(value) && value <= 99_999_999_999 ? value : undefined;
}

/* ---------- The statement's CSV ---------- */

export interface StatementCsvLine {
  tipo: 'Comissão' | 'Estorno';
  data: string;
  nrApolice: string;
  segurado: string;
  produto: string;
  parcela: string;
  valorParcela: Cents | null;
  premioLiquido: Cents | null;
  taxa: number | null;
  /** Positive amounts in their own columns: a negative one would start with '-', which escape_formulas turns into text. */
  comissao: Cents | null;
  estorno: Cents | null;
}

/** Money as a spreadsheet in pt-BR reads a number: '1234,56', '-12,30' (no thousands mark, no currency). */
export const csvMoney = (cents: Cents): string =>
  `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)},${String(Math.abs(cents) % 100).padStart(2, '0')}`;

const CSV_COLUMNS: [string, (line: StatementCsvLine) => string][] = [
  ['Tipo', (l) => l.tipo],
  ['Data', (l) => l.data],
  ['Apólice', (l) => l.nrApolice],
  ['Segurado', (l) => l.segurado],
  ['Produto', (l) => l.produto],
  ['Parcela', (l) => l.parcela],
  ['Valor da parcela', (l) => (l.valorParcela === null ? '' : csvMoney(l.valorParcela))],
  ['Prêmio líquido', (l) => (l.premioLiquido === null ? '' : csvMoney(l.premioLiquido))],
  ['Comissão (%)', (l) => (l.taxa === null ? '' : String(l.taxa / 100).replace('.', ','))],
  ['Comissão', (l) => (l.comissao === null ? '' : csvMoney(l.comissao))],
  ['Estorno', (l) => (l.estorno === null ? '' : csvMoney(l.estorno))],
];

/** csv-stringify's options: the portal's one set for every CSV (lib/csv.ts), with the statement's header. */
export const STATEMENT_CSV_OPTIONS = { ...CSV_OPTIONS, header: true, columns: CSV_COLUMNS.map(([header]) => header) } as const;

export const statementCsvRecord = (line: StatementCsvLine): string[] => CSV_COLUMNS.map(([, cell]) => cell(line));

export const statementCsvFileName = (cnpj: string, month: string) => `extrato-comissoes-${cnpj}-${month}.csv`;

/* ---------- The pages' addresses ---------- */

export const COMMISSION_PAGES = {
  extrato: '/v2/comissoes/extrato-comissoes',
  exportar: '/v2/comissoes/extrato-comissoes/exportar.csv',
  envio: '/v2/comissoes/envio-nota',
  notas: '/v2/comissoes/nota-fiscal',
  arquivo: '/v2/comissoes/nota-fiscal/arquivo',
} as const;

export const statementHref = (cnpj: string, month: string, page = 1) =>
  `${COMMISSION_PAGES.extrato}?${new URLSearchParams({ empresa: cnpj, competencia: month, ...(page > 1 ? { page: String(page) } : {}) })}`;

export const statementCsvHref = (cnpj: string, month: string) =>
  `${COMMISSION_PAGES.exportar}?${new URLSearchParams({ empresa: cnpj, competencia: month })}`;

export const notaUploadHref = (cnpj: string, month?: string) =>
  `${COMMISSION_PAGES.envio}?${new URLSearchParams({ empresa: cnpj, ...(month ? { competencia: month } : {}) })}`;

export const notaDownloadHref = (id: number) => `${COMMISSION_PAGES.arquivo}/${id}`;

/* ---------- The income statement's addresses (SPEC §2: /relatorios/{type}/{nmCpfCnpj}/{nmPrestador}/{nrAno}) ---------- */

/** The report type of an income statement in SPEC's /relatorios/{type}/… addresses. */
export const INCOME_REPORT_TYPE = 'informe-rendimentos';

/** A name as an address segment: 'Corretora Horizonte Seguros Ltda.' → 'corretora-horizonte-seguros-ltda'. */
export const nameSlug = (name: string): string =>
  name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80) || 'beneficiario';

export const INCOME_PAGES = { v1: '/informe-rendimentos', v2: '/v2/informe-rendimentos' } as const;

/** The PDF of a beneficiary's year, in each generation's shape. */
export function incomePdfHref(generation: 'v1' | 'v2', beneficiary: { taxId: string; name: string }, year: number): string {
  const tail = `${INCOME_REPORT_TYPE}/${encodeURIComponent(beneficiary.taxId)}/${nameSlug(beneficiary.name)}/${year}`;
  return generation === 'v2' ? `/v2/relatorios/pdf/${tail}` : `/relatorios/${tail}`;
}

/** The informe page saying that a year had no income (where the PDF's address of such a year leads). */
export const noIncomeHref = (generation: 'v1' | 'v2', taxId: string, year: number) =>
  `${INCOME_PAGES[generation]}?${new URLSearchParams({ documento: taxId, ano: String(year) })}`;
