import { dueDates } from './contracting';

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

/** Days after issuance before the first installment of a method with no due day (Pix) falls due. */
export const FIRST_DUE_AFTER_DAYS = 3;

/**
 * The due dates of a policy's installments: monthly on the chosen due day, the first at least five
 * days after issuance (dueDates); a method with no due day (Pix) is due a few days after issuance
 * and then monthly on that day.
 */
export function installmentDueDates(dueDay: number | undefined, issuedDay: string, count: number): string[] {
  if (dueDay !== undefined) return dueDates(issuedDay, dueDay, count);
  const [year, month, day] = issuedDay.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(year, month - 1, day + FIRST_DUE_AFTER_DAYS));
  const monthly = Math.min(first.getUTCDate(), 28); // a day every month has
  return Array.from({ length: count }, (_, i) =>
    new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + i, i === 0 ? first.getUTCDate() : monthly)).toISOString().slice(0, 10),
  );
}

export type StoredPolicyStatus = 'VIGENTE' | 'CANCELADA';
export type PolicyStatus = StoredPolicyStatus | 'VENCIDA';

export const POLICY_STATUS_LABELS: Record<PolicyStatus, string> = { VIGENTE: 'Vigente', CANCELADA: 'Cancelada', VENCIDA: 'Vencida' };

/** A policy in force whose term ended is 'vencida' (nothing is written when a term ends). */
export const policyStatus = (stored: StoredPolicyStatus, fimVigencia: string, today: string): PolicyStatus =>
  stored === 'VIGENTE' && fimVigencia < today ? 'VENCIDA' : stored;

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

/** The policies list's filters, as the page's form and the address carry them. */
export interface PolicyFilters {
  nrApolice?: string;
  /** The insured's name (part of it) or CPF/CNPJ (digits). */
  segurado?: string;
  produto?: string;
  situacao?: PolicyStatus;
  /** Policies whose term contains this day. */
  vigenteEm?: string;
}

export const POLICIES_PAGE_SIZE = 10;
export const POLICY_FIELDS = ['nrApolice', 'segurado', 'produto', 'situacao', 'vigenteEm'] as const;

const FILTER_MESSAGES = {
  nrApolice: 'Número de apólice inválido: use só os dígitos.',
  segurado: 'Informe ao menos 3 letras do nome ou o CPF/CNPJ do segurado.',
  situacao: 'Situação inválida.',
  vigenteEm: 'Data inválida.',
  page: 'Página inválida.',
} as const;

const isIsoDay = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) &&
  !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
  new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

/** Reads the filters of an address; every bad value is a field error in pt-BR, never a guess. */
export function parsePolicyQuery(
  query: Record<string, string | undefined>,
  products: readonly string[],
): { ok: true; filters: PolicyFilters; page: number } | { ok: false; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const filters: PolicyFilters = {};
  const value = (name: string) => query[name]?.trim() || undefined;
  const nrApolice = value('nrApolice');
  if (nrApolice !== undefined) {
    if (/^\d{1,20}$/.test(nrApolice)) filters.nrApolice = nrApolice;
    else errors.nrApolice = [FILTER_MESSAGES.nrApolice];
  }
  const segurado = value('segurado');
  if (segurado !== undefined) {
    const digits = segurado.replace(/\D/g, '');
    if (segurado.length >= 3 && segurado.length <= 120) filters.segurado = /^[\d.\-/\s]+$/.test(segurado) ? digits : segurado;
    else errors.segurado = [FILTER_MESSAGES.segurado];
  }
  const produto = value('produto');
  if (produto !== undefined) {
    if (products.includes(produto.toUpperCase())) filters.produto = produto.toUpperCase();
    else errors.produto = ['Produto inválido.'];
  }
  const situacao = value('situacao');
  if (situacao !== undefined) {
    if (situacao in POLICY_STATUS_LABELS) filters.situacao = situacao as PolicyStatus;
    else errors.situacao = [FILTER_MESSAGES.situacao];
  }
  const vigenteEm = value('vigenteEm');
  if (vigenteEm !== undefined) {
    if (isIsoDay(vigenteEm)) filters.vigenteEm = vigenteEm;
    else errors.vigenteEm = [FILTER_MESSAGES.vigenteEm];
  }
  const pageText = value('page') ?? '1';
  const page = /^\d{1,6}$/.test(pageText) ? Number(pageText) : 0;
  if (page < 1) errors.page = [FILTER_MESSAGES.page];
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, filters, page };
}
