import * as z from 'zod/mini';
import { isoDateField, listHref, oneOf, optionalField, pageField, parseListQuery, type ParsedListQuery } from './list-query';
import type { KeysetPage } from './keyset-pages';
import type { Clock } from './acceptance';
import { HISTORY_STATUSES } from './quotes';
import { SIMULATOR_CODES, V2_SIMULATOR_CODES, type ProductLine } from './simulators';
import { isValidCnpj, isValidCpf, normalizeCnpj } from './validators';
import type { Cents } from './products/types';

/**
 * The v2 quote and proposal history (/v2/historico and GET /api/bff/v1/cotacoes): its filters, one
 * schema for the page's GET form and the endpoint, the row both show, and the masked document
 * (docs/decisions/018-history.md). Pure: the page renders with it on the server.
 */
export const HISTORY_PAGE_SIZE = 10;

export type HistoryStatus = (typeof HISTORY_STATUSES)[number]['value'];

export const HISTORY_MESSAGES = {
  date: 'Informe uma data válida.',
  order: 'A data final não pode ser anterior à data inicial.',
  product: 'Escolha um produto da lista.',
  line: 'Escolha uma linha de produto da lista.',
  status: 'Escolha uma situação da lista.',
  document: 'Informe um CPF ou CNPJ válido.',
  number: 'Informe só os números da cotação ou da proposta (até 20 dígitos).',
  page: 'Página inválida.',
} as const;

// Every code a quote can have: v2's, and the embedded issuance apps' EMP, IP and VE (legacy quotes,
// filtered by the consultation of decision 054).
const QUOTE_CODES = [...V2_SIMULATOR_CODES, ...SIMULATOR_CODES.filter((s) => s.embedded)].map((s) => s.code);
const V2_LINES = [...new Set(V2_SIMULATOR_CODES.map((s) => s.line))];
const STATUS_VALUES = HISTORY_STATUSES.map((s) => s.value);

const isoDate = isoDateField(HISTORY_MESSAGES.date);

/** One product code, or several separated by commas (the embedded apps' consultation asks for EMP,IP,VE at once). */
const productCodes = z.pipe(
  z.pipe(
    z.string({ error: HISTORY_MESSAGES.product }).check(z.maxLength(60, HISTORY_MESSAGES.product)),
    z.transform((v: string) => [
      ...new Set(
        v
          .toUpperCase()
          .split(',')
          .map((code) => code.trim()),
      ),
    ]),
  ),
  z.array(z.string()).check(z.refine((codes) => codes.every((code) => (QUOTE_CODES as string[]).includes(code)), HISTORY_MESSAGES.product)),
);

/** CPF or CNPJ, typed with the mask or without: compared unmasked (CPF digits, CNPJ upper-cased alphanumerics). */
const documentField = z
  .pipe(z.string({ error: HISTORY_MESSAGES.document }).check(z.maxLength(40, HISTORY_MESSAGES.document)), z.transform(normalizeCnpj))
  .check(z.refine((v) => (v.length === 11 && isValidCpf(v)) || isValidCnpj(v), HISTORY_MESSAGES.document));

export const historyQuerySchema = z
  .object({
    de: optionalField(isoDate),
    ate: optionalField(isoDate),
    simulador: optionalField(productCodes),
    linha: optionalField(oneOf(V2_LINES, HISTORY_MESSAGES.line, (v) => v.toLowerCase())),
    status: optionalField(oneOf(STATUS_VALUES, HISTORY_MESSAGES.status, (v) => v.toUpperCase())),
    documento: optionalField(documentField),
    numero: optionalField(z.string({ error: HISTORY_MESSAGES.number }).check(z.regex(/^\d{1,20}$/, HISTORY_MESSAGES.number))),
    page: optionalField(pageField(HISTORY_MESSAGES.page)),
  })
  .check(
    z.superRefine((value, ctx) => {
      // ISO dates compare as text.
      if (value.de && value.ate && value.de > value.ate) {
        ctx.addIssue({ code: 'custom', input: value, path: ['ate'], message: HISTORY_MESSAGES.order });
      }
    }),
  );

export type HistoryQuery = z.output<typeof historyQuerySchema>;
export type HistoryFilters = Omit<HistoryQuery, 'page'>;

/** The query-string fields of the history, in the order the form shows them. */
export const HISTORY_FIELDS = ['de', 'ate', 'simulador', 'status', 'documento', 'numero', 'linha'] as const;
export type HistoryField = (typeof HISTORY_FIELDS)[number];

export type ParsedHistoryQuery = ParsedListQuery<HistoryFilters>;

/** The history's query string as filters and a 1-based page, or the messages of each bad field. */
export const parseHistoryQuery = (input: URLSearchParams | Record<string, unknown>): ParsedHistoryQuery =>
  parseListQuery(historyQuerySchema, input);

/**
 * The legacy header sends the line as `funcionalidade` (SPEC §2: "/historico carrying the feature
 * name"): it is the `linha` filter, unless the query names one itself.
 */
export function withLegacyLine(input: Record<string, string>): Record<string, string> {
  const { funcionalidade, ...rest } = input;
  return funcionalidade && !rest.linha?.trim() ? { ...rest, linha: funcionalidade } : rest;
}

/** The history page of each generation (SPEC §2). */
export const HISTORY_PAGE = { v1: '/historico', v2: '/v2/historico' } as const;

/** The history's address for these filters and page, with the cursor that reaches it (page 1 and blank filters are left out). */
export const historyPageHref = (
  values: Partial<Record<HistoryField, string>>,
  page = 1,
  generation: 'v1' | 'v2' = 'v2',
  cursor?: string,
): string => listHref(HISTORY_PAGE[generation], HISTORY_FIELDS, values, page, cursor);

/**
 * A CPF or CNPJ as a list may show it: only the middle digits, which tell two customers apart on a
 * screen without giving away a whole document ('***.444.777-**', '**.222.333/****-**').
 */
export function maskDocument(document: string): string {
  const value = normalizeCnpj(document);
  if (/^\d{11}$/.test(value)) return `***.${value.slice(3, 6)}.${value.slice(6, 9)}-**`;
  if (/^[0-9A-Z]{14}$/.test(value)) return `**.${value.slice(2, 5)}.${value.slice(5, 8)}/****-**`;
  return '***';
}

/** One quote of the history, as the page and GET /v1/cotacoes show it. */
export interface HistoryRow {
  nrCotacao: string;
  nrProposta: string | null;
  code: string;
  line: ProductLine;
  productName: string;
  nomeSegurado: string;
  /** Masked (maskDocument): a list never carries a whole CPF. */
  documentoSegurado: string;
  premioTotal: Cents | null;
  /** The history status: an unsent quote past its validity is VENCIDA. */
  status: HistoryStatus;
  statusLabel: string;
  /** A sent quote's proposal's 25-day acceptance clock ('stopped' once decided); null for a quote never sent. */
  clock: Clock | null;
  createdAt: string;
  validaAte: string;
  seller: string;
  /** Where the quote opens: its furthest step, read-only when sent or expired. */
  href: string;
  pdf: { cotacao: string; proposta: string | null };
}

/** A keyset page of the history (lib/keyset-pages.ts): counted only up to COUNT_LIMIT. */
export type HistoryResult = KeysetPage<HistoryRow>;
