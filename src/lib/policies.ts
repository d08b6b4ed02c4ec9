import * as z from 'zod/mini';
import { hasSearchableWord } from './insured-search';
import { isoDateField, oneOf, optionalField, pageField, parseListQuery, type ParsedListQuery } from './list-query';
import { PRODUCTS } from './products/catalog';

/*
 * Policies and their installments (DESIGN §10): the term, the due dates and the states a page shows.
 * Dates are ISO calendar days in Brasília ('2026-11-23').
 */

/** The term: one year from the proposal's day, ending on the same day a year later. */
export function policyTerm(startDay: string): { inicio: string; fim: string } {
  const [year, month, day] = startDay.split('-').map(Number) as [number, number, number];
  // 29 February starts a term that ends on 28 February (Date.UTC would roll over to 1 March).
  const end = new Date(Date.UTC(year + 1, month - 1, day));
  if (end.getUTCMonth() !== month - 1) end.setUTCDate(0);
  return { inicio: startDay, fim: end.toISOString().slice(0, 10) };
}

export type StoredPolicyStatus = 'VIGENTE' | 'CANCELADA';
export type PolicyStatus = StoredPolicyStatus | 'A_INICIAR' | 'VENCIDA';

export const POLICY_STATUS_LABELS: Record<PolicyStatus, string> = {
  A_INICIAR: 'A iniciar',
  VIGENTE: 'Vigente',
  VENCIDA: 'Vencida',
  CANCELADA: 'Cancelada',
};

/**
 * A policy's state on `today` (ISO days): one not cancelled is 'a iniciar' before its term begins (a
 * renewal, issued ahead of the term it continues), 'vigente' within it and 'vencida' after it —
 * nothing is written when a term begins or ends.
 */
export const policyStatus = (stored: StoredPolicyStatus, term: { inicio: string; fim: string }, today: string): PolicyStatus => {
  if (stored !== 'VIGENTE') return stored;
  if (today < term.inicio) return 'A_INICIAR';
  return term.fim < today ? 'VENCIDA' : 'VIGENTE';
};

export type StoredInstallmentStatus = 'ABERTA' | 'PAGA' | 'CANCELADA';
export type InstallmentStatus = StoredInstallmentStatus | 'VENCIDA';

export const INSTALLMENT_STATUS_LABELS: Record<InstallmentStatus, string> = {
  ABERTA: 'Em aberto',
  PAGA: 'Paga',
  CANCELADA: 'Cancelada',
  VENCIDA: 'Vencida',
};

/** An open installment past its due day is overdue. */
export const installmentStatus = (stored: StoredInstallmentStatus, vencimento: string, today: string): InstallmentStatus =>
  stored === 'ABERTA' && vencimento < today ? 'VENCIDA' : stored;

export const POLICIES_PAGE_SIZE = 10;
export const POLICY_FIELDS = ['nrApolice', 'segurado', 'produto', 'situacao', 'vigenteEm'] as const;

export const FILTER_MESSAGES = {
  nrApolice: 'Número de apólice inválido: use só os dígitos.',
  segurado: 'Informe o CPF/CNPJ ou ao menos uma palavra do nome do segurado com 3 letras ou mais.',
  produto: 'Produto inválido.',
  situacao: 'Situação inválida.',
  vigenteEm: 'Data inválida.',
  page: 'Página inválida.',
} as const;

/** A policy number, as its digits. */
export const nrApoliceField = z.string({ error: FILTER_MESSAGES.nrApolice }).check(z.regex(/^\d{1,20}$/, FILTER_MESSAGES.nrApolice));

/** A CPF/CNPJ as typed, with or without its mask. */
const typedDocument = (value: string) => /^[\d.\-/\s]+$/.test(value);

/**
 * A name (up to 120 characters, searched as part of the insured's, with a word of 3 letters or more
 * that its trigram index can look up: lib/insured-search.ts) or a CPF/CNPJ, as its digits.
 */
export const seguradoField = z.pipe(
  z
    .string({ error: FILTER_MESSAGES.segurado })
    .check(
      z.refine(
        (value) => value.length <= 120 && (typedDocument(value) ? value.length >= 3 : hasSearchableWord(value)),
        FILTER_MESSAGES.segurado,
      ),
    ),
  z.transform((value) => (typedDocument(value) ? value.replace(/\D/g, '') : value)),
);

const policyQuerySchema = z.object({
  nrApolice: optionalField(nrApoliceField),
  segurado: optionalField(seguradoField),
  produto: optionalField(oneOf(Object.keys(PRODUCTS), FILTER_MESSAGES.produto, (v) => v.toUpperCase())),
  situacao: optionalField(oneOf(Object.keys(POLICY_STATUS_LABELS) as PolicyStatus[], FILTER_MESSAGES.situacao, (v) => v.toUpperCase())),
  /** Policies whose term contains this day. */
  vigenteEm: optionalField(isoDateField(FILTER_MESSAGES.vigenteEm)),
  page: optionalField(pageField(FILTER_MESSAGES.page)),
});

/** The policies list's filters, as the page's form and the address carry them. */
export type PolicyFilters = Omit<z.output<typeof policyQuerySchema>, 'page'>;

/** Reads the filters of an address; every bad value is a field error in pt-BR, never a guess. */
export const parsePolicyQuery = (query: URLSearchParams | Record<string, unknown>): ParsedListQuery<PolicyFilters> =>
  parseListQuery(policyQuerySchema, query);
