/**
 * Brazilian document, e-mail and phone checks (SPEC §5). Pure: used by forms in the browser and by
 * the API's zod schemas on the server, so both sides reject the same input.
 */

export const digitsOnly = (value: string): string => value.replace(/\D/g, '');
export const lettersOnly = (value: string): string => value.replace(/[^\p{L}\s]/gu, '');
export const alphanumericOnly = (value: string): string => value.replace(/[^\p{L}\p{N}]/gu, '');

/** SPEC §5: e-mails are lower-cased and stripped of every space before use. */
export const normalizeEmail = (value: string): string => value.replace(/\s/g, '').toLowerCase();

/*
 * What an e-mail address is, for every e-mail field of the portal (issue 42, through email-field.ts
 * emailProblem): the check browsers apply to <input type="email"> (WHATWG) — a local part of ASCII
 * letters, digits and !#$%&'*+/=?^_`{|}~- (never a quoted string), a domain of hostname labels (never
 * an IP literal) — and, as mail needs, dots only between atoms, two labels at least and a top-level one
 * of letters (or an IDN's xn--), so no bare address (a@127.0.0.1) either; 64 characters before the @
 * and 254 in all (RFC 5321).
 */
const ATOM = "[a-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const TOP_LABEL = '(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})';
const EMAIL_PATTERN = new RegExp(`^${ATOM}(?:\\.${ATOM})*@(?:${LABEL}\\.)+${TOP_LABEL}$`, 'i');
export const isValidEmail = (value: string): boolean => value.length <= 254 && value.indexOf('@') <= 64 && EMAIL_PATTERN.test(value);

const allSame = (value: string): boolean => /^(.)\1*$/.test(value);

function cpfCheckDigit(digits: string): number {
  const weightStart = digits.length + 1;
  const sum = [...digits].reduce((acc, d, i) => acc + Number(d) * (weightStart - i), 0);
  const rest = (sum * 10) % 11;
  return rest === 10 ? 0 : rest;
}

/** The two check digits of a CPF's 9 base digits. */
export function cpfCheckDigits(base: string): string {
  const first = cpfCheckDigit(base);
  return `${first}${cpfCheckDigit(`${base}${first}`)}`;
}

export function isValidCpf(value: string): boolean {
  const cpf = digitsOnly(value);
  if (cpf.length !== 11 || allSame(cpf)) return false;
  return cpfCheckDigits(cpf.slice(0, 9)) === cpf.slice(9);
}

// A CNPJ is 12 base characters and 2 check digits. Since 2026 the base may hold letters: each
// character counts as its char code minus 48, which for digits is the digit itself.
const cnpjCharValue = (c: string): number => c.charCodeAt(0) - 48;
const CNPJ_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

function cnpjCheckDigit(base: string): number {
  const weights = CNPJ_WEIGHTS.slice(CNPJ_WEIGHTS.length - base.length);
  const sum = [...base].reduce((acc, c, i) => acc + cnpjCharValue(c) * (weights[i] ?? 0), 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** Strips the mask ('.', '/', '-') and upper-cases, keeping letters of the alphanumeric CNPJ. */
export const normalizeCnpj = (value: string): string => value.replace(/[./\-\s]/g, '').toUpperCase();

/** The two check digits of a CNPJ's 12 base characters. */
export function cnpjCheckDigits(base: string): string {
  const first = cnpjCheckDigit(base);
  return `${first}${cnpjCheckDigit(`${base}${first}`)}`;
}

export function isValidCnpj(value: string): boolean {
  const cnpj = normalizeCnpj(value);
  if (!/^[0-9A-Z]{12}[0-9]{2}$/.test(cnpj) || allSame(cnpj)) return false;
  return cnpjCheckDigits(cnpj.slice(0, 12)) === cnpj.slice(12);
}

export const formatCpf = (value: string): string => digitsOnly(value).replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');

export const formatCnpj = (value: string): string =>
  normalizeCnpj(value).replace(/^(\w{2})(\w{3})(\w{3})(\w{4})(\d{2})$/, '$1.$2.$3/$4-$5');

/** Shows only the last two check digits: logs and lists never carry a full CPF. */
export const maskCpf = (value: string): string => {
  const cpf = digitsOnly(value);
  return cpf.length === 11 ? `***.***.***-${cpf.slice(9)}` : '***';
};

/** '(DD) NNNNN-NNNN' or '(DD) NNNN-NNNN' split into ddd and numero; null when it is not a phone. */
export function parsePhone(value: string): { ddd: string; numero: string } | null {
  const digits = digitsOnly(value);
  if (digits.length !== 10 && digits.length !== 11) return null;
  const ddd = digits.slice(0, 2);
  if (ddd.startsWith('0')) return null;
  return { ddd, numero: digits.slice(2) };
}
