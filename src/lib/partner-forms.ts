import * as z from 'zod/mini';
import type * as core from 'zod/v4/core';
import { messagesByField } from './field-errors';
import { hundredthsToPercentText, isIsoDate, percentToHundredths } from './offer-schema';
import { addressSchema, type Address } from './products/insured';
import { payeeAccountSchema, type PayeeAccount } from './refund-account';
import { CHANNEL_CODE, PORTAL_CHANNEL } from './hierarchy';
import { cpfField, formText, mobileField, nameField } from './user-admin';
import { digitsOnly, formatCnpj, formatCpf, isValidCnpj, normalizeCnpj, normalizeEmail, parsePhone } from './validators';
import { EMAIL_MESSAGES, emailRule, type EmailMessages } from './email-field';
import {
  LIST_STATUSES,
  offerField,
  type CompanyKind,
  type FieldErrors,
  type PartnerOfferChoice,
  type SectionKey,
  type SubOfferChoice,
} from './partners';

/*
 * The onboarding steps' schemas (issue 17, decision 052), shared by the pages' plain forms and the
 * API: masks are stripped here, so the server keeps digits (a CNPJ upper-cased, letters and all).
 * Every schema also reads back its own output, so a draft or a company's columns are checked again
 * whenever they are read (sectionInput turns an output into what its schema reads).
 */

export const COMPANY_FORM_MESSAGES = {
  cnpj: 'CNPJ inválido: confira os 14 caracteres (números ou, desde julho de 2026, letras) e os dígitos verificadores.',
  razaoSocial: 'Informe a razão social (3 a 150 caracteres).',
  nomeFantasia: 'Informe o nome fantasia (2 a 80 caracteres).',
  susep: 'Registro SUSEP inválido: use de 5 a 15 dígitos.',
  susepRequired: 'Informe o registro SUSEP: é obrigatório para corretora.',
  parceiro: 'Escolha o parceiro ao qual o substabelecido se vincula.',
  cargo: 'Informe o cargo (2 a 60 caracteres).',
  email: EMAIL_MESSAGES.invalid,
  emailFinanceiro: 'E-mail do financeiro inválido.',
  emailFinanceiroRequired: 'Informe o e-mail do financeiro.',
  telefone: 'Telefone inválido: use (DD) NNNN-NNNN ou (DD) 9NNNN-NNNN.',
  produto: 'Produto inválido.',
  oferta: 'Oferta inválida.',
  comissao: 'Informe a remuneração entre 0 e 100%, com até 2 casas decimais.',
  inicio: 'Informe a data de início da vigência.',
  ofertas: 'Lista de ofertas inválida.',
  repeated: 'Produto repetido na lista.',
  motivo: 'Informe o motivo da suspensão (10 a 500 caracteres).',
  operacao: 'Ação inválida: escolha suspender ou reativar.',
  duplicateCnpj: 'CNPJ já cadastrado no portal.',
  draftElsewhere: 'Este CNPJ já está em cadastro: continue o cadastro existente pela lista.',
  duplicateSusep: 'Registro SUSEP já cadastrado para outra empresa.',
  partnerUnknown: 'Parceiro fora dos que você administra.',
  canal: 'Escolha um canal de venda ativo.',
  partnerSuspended: 'Parceiro suspenso: reative-o antes de cadastrar substabelecidos.',
} as const;
const M = COMPANY_FORM_MESSAGES;

/** A text of `min` to `max` characters once its spaces are collapsed. */
const boundedText = (min: number, max: number, message: string) =>
  z.pipe(
    formText(max * 2, message),
    z.pipe(
      z.transform((v: string) => v.replace(/\s+/g, ' ').trim()),
      z.string().check(z.minLength(min, message), z.maxLength(max, message)),
    ),
  );

/** An e-mail: required, then an address (lib/email-field.ts); the financial one names itself. */
const emailOf = (messages: EmailMessages) =>
  z.pipe(formText(254, messages.invalid), z.pipe(z.transform(normalizeEmail), z.string().check(emailRule(messages))));
const FINANCE_EMAIL: EmailMessages = { required: M.emailFinanceiroRequired, invalid: M.emailFinanceiro };

/** Typed with or without its mask, numeric or alphanumeric; the server sees the 14 characters. */
export const cnpjField = (message: string = M.cnpj) =>
  z.pipe(formText(30, message), z.pipe(z.transform(normalizeCnpj), z.string().check(z.refine(isValidCnpj, message))));

/** A landline or a mobile phone, SPEC §5's '(DD) NNNNN-NNNN'; stored as digits. */
const phoneField = z.pipe(
  formText(20, M.telefone),
  z.pipe(z.transform(digitsOnly), z.string().check(z.refine((v) => parsePhone(v) !== null, M.telefone))),
);

/** A checkbox: checked ('sim', 'on', 'true' or true) or not. */
const checkbox = z.pipe(
  z.optional(z.unknown()),
  z.transform((v) => v === true || v === 'sim' || v === 'on' || v === 'true'),
);

/**
 * A broker's registration with SUSEP, the number of its certificate (illustrative format: 5 to 15
 * digits, dots and dashes ignored). Blank: none.
 */
export const isValidSusep = (value: string): boolean => /^\d{5,15}$/.test(value) && !/^0+$/.test(value);
const susepField = z.pipe(
  formText(30, M.susep),
  z.pipe(
    z.transform((v: string) => v.replace(/[.\-/\s]/g, '')),
    z.string().check(z.refine((v) => v === '' || isValidSusep(v), M.susep)),
  ),
);

const companyFields = {
  cnpj: cnpjField(),
  razaoSocial: boundedText(3, 150, M.razaoSocial),
  nomeFantasia: boundedText(2, 80, M.nomeFantasia),
  corretora: checkbox,
  susep: susepField,
};
const susepWhenBroker = z.refine<{ corretora: boolean; susep: string }>((v) => !v.corretora || v.susep !== '', {
  message: M.susepRequired,
  path: ['susep'],
});

/** A partner's sales channel (the code of decision 050's channels); blank: the portal's own. */
const channelField = z.pipe(
  formText(40, M.canal),
  z.pipe(
    z.transform((v: string) => v.trim() || PORTAL_CHANNEL),
    z.string().check(z.regex(CHANNEL_CODE, M.canal)),
  ),
);

/**
 * empresa/dados: the company; a partner names its sales channel, a substabelecido its partner (CNPJ)
 * — and sells through the partner's channel.
 */
export const companyDataSchema = (kind: CompanyKind): z.ZodMiniType<CompanyData, unknown> =>
  kind === 'PARCEIRO'
    ? z.object({ ...companyFields, canal: channelField }).check(susepWhenBroker)
    : z.object({ ...companyFields, parceiro: cnpjField(M.parceiro) }).check(susepWhenBroker);
export interface CompanyData {
  cnpj: string;
  razaoSocial: string;
  nomeFantasia: string;
  corretora: boolean;
  /** Digits; '' when none. */
  susep: string;
  /** A substabelecido's partner (CNPJ). */
  parceiro?: string;
  /** A partner's sales channel (code). */
  canal?: string;
}

/** contatos/responsavel: the legal representative who signs the partnership. */
export const responsibleSchema = z.object({
  nome: nameField,
  cpf: cpfField,
  email: emailOf(EMAIL_MESSAGES),
  celular: mobileField,
  cargo: boundedText(2, 60, M.cargo),
});
export type Responsible = z.output<typeof responsibleSchema>;

/** contatos/comercial: who the insurer talks to day to day, and where commission notices go. */
export const commercialSchema = z.object({ email: emailOf(EMAIL_MESSAGES), telefone: phoneField, emailFinanceiro: emailOf(FINANCE_EMAIL) });
export type Commercial = z.output<typeof commercialSchema>;

/** financeiro/conta: commissions are paid to the company itself — an account or Pix key of its CNPJ. */
export const commissionAccountSchema = (cnpj: string) => payeeAccountSchema(cnpj, 'da empresa');

/** administrador/usuario: the first administrator, who gets the first-access e-mail. */
export const administratorSchema = z.object({ cpf: cpfField, nome: nameField, email: emailOf(EMAIL_MESSAGES), celular: mobileField });
export type Administrator = z.output<typeof administratorSchema>;

const percentField = z.pipe(
  z.union([z.string(), z.number()], { error: M.comissao }),
  z.transform((value, ctx) => {
    const hundredths = percentToHundredths(value);
    if (hundredths === undefined) {
      ctx.issues.push({ code: 'custom', message: M.comissao, input: value });
      return z.NEVER;
    }
    return hundredths;
  }),
);
const dateField = z.pipe(
  formText(10, M.inicio),
  z.string().check(z.refine((v) => isIsoDate(v) && v >= '2000-01-01' && v <= '2099-12-31', M.inicio)),
);
const codeField = z.pipe(
  formText(8, M.produto),
  z.pipe(
    z.transform((v: string) => v.trim().toUpperCase()),
    z.string().check(z.regex(/^[A-Z]{2,4}$/, M.produto)),
  ),
);
const offerIdField = z.pipe(
  z.union([z.string(), z.number()], { error: M.oferta }),
  z.pipe(
    z.transform((v: string | number) => String(v).trim()),
    z.pipe(z.string().check(z.regex(/^[1-9]\d{0,8}$/, M.oferta)), z.transform(Number)),
  ),
);
const distinct = <T>(key: (row: T) => unknown) =>
  z.refine<T[]>((rows) => new Set(rows.map(key)).size === rows.length, { message: M.repeated });

/** ofertas/produtos of a partner: the products (simulator codes) with their remuneration and validity start. */
export const partnerOffersSchema = z
  .array(z.object({ simulador: codeField, comissao: percentField, inicio: dateField }), { error: M.ofertas })
  .check(
    z.maxLength(40, M.ofertas),
    distinct<PartnerOfferChoice>((r) => r.simulador),
  );
/** ofertas/produtos of a substabelecido: the partner's offers it sells, each with its remuneration and start. */
export const subOffersSchema = z
  .array(z.object({ oferta: offerIdField, comissao: percentField, inicio: dateField }), { error: M.ofertas })
  .check(
    z.maxLength(40, M.ofertas),
    distinct<SubOfferChoice>((r) => r.oferta),
  );

export const suspensionSchema = z.object({ motivo: boundedText(10, 500, M.motivo) });

/** The draft's answers, each one what its step's schema gave. */
export interface CompanyDraft {
  empresa?: CompanyData;
  endereco?: Address;
  responsavel?: Responsible;
  comercial?: Commercial;
  conta?: PayeeAccount;
  ofertas?: PartnerOfferChoice[] | SubOfferChoice[];
  administrador?: Administrator;
}

/** The schema of a section; the account's depends on the company's CNPJ. */
export function sectionSchema(kind: CompanyKind, key: SectionKey, cnpj: string): core.$ZodType {
  const schemas: Record<SectionKey, () => core.$ZodType> = {
    empresa: () => companyDataSchema(kind),
    endereco: () => addressSchema,
    responsavel: () => responsibleSchema,
    comercial: () => commercialSchema,
    conta: () => commissionAccountSchema(cnpj),
    ofertas: () => (kind === 'PARCEIRO' ? partnerOffersSchema : subOffersSchema),
    administrador: () => administratorSchema,
  };
  return schemas[key]();
}

/** What a section's schema reads back from its own output: a Pix key as typed, a remuneration as its percent text. */
export function sectionInput(key: SectionKey, output: unknown): unknown {
  if (key === 'conta' && output && typeof output === 'object' && (output as PayeeAccount).tipo === 'PIX') {
    const chave = (output as { chave?: { key?: unknown } }).chave;
    return { tipo: 'PIX', chave: chave && typeof chave === 'object' ? chave.key : chave };
  }
  if (key === 'ofertas' && Array.isArray(output))
    return output.map((row: { comissao?: unknown }) =>
      typeof row?.comissao === 'number' && Number.isInteger(row.comissao)
        ? { ...row, comissao: hundredthsToPercentText(row.comissao) }
        : row,
    );
  return output;
}

/** A section read back (a draft's, a company column's): what its schema gives, or undefined when it no longer passes. */
export function readSection<T>(kind: CompanyKind, key: SectionKey, stored: unknown, cnpj: string): T | undefined {
  if (stored === undefined || stored === null) return undefined;
  const result = z.safeParse(sectionSchema(kind, key, cnpj), sectionInput(key, stored));
  return result.success ? (result.data as T) : undefined;
}

/** Every section of a stored draft that still passes its schema. */
export function readDraft(kind: CompanyKind, stored: Record<string, unknown> | undefined, cnpj: string): CompanyDraft {
  const draft: Record<string, unknown> = {};
  for (const key of ['empresa', 'endereco', 'responsavel', 'comercial', 'conta', 'ofertas', 'administrador'] as const) {
    const value = readSection(kind, key, stored?.[key], cnpj);
    if (value !== undefined) draft[key] = value;
  }
  return draft as CompanyDraft;
}

// ─── Forms: values in, values out ────────────────────────────────────────────────────────────────

export type FormValues = Record<string, string | string[]>;

/** The offers step's form (a checkbox per product or partner's offer, and each row's fields) as the API's list. */
export function offersFromForm(kind: CompanyKind, values: FormValues): unknown[] {
  const field = kind === 'PARCEIRO' ? 'produto' : 'oferta';
  const chosen = ([] as string[]).concat(values[field] ?? []).slice(0, 60);
  const one = (name: string) => {
    const v = values[name];
    return typeof v === 'string' ? v : '';
  };
  return chosen.map((id) => ({
    [kind === 'PARCEIRO' ? 'simulador' : 'oferta']: id,
    comissao: one(offerField('comissao', id)),
    inicio: one(offerField('inicio', id)),
  }));
}

/** A section's answer as its form shows it (strings, masks on). */
export function sectionFormValues(kind: CompanyKind, key: SectionKey, output: unknown): FormValues {
  if (!output || typeof output !== 'object') return {};
  if (key === 'ofertas') {
    const rows = output as (PartnerOfferChoice | SubOfferChoice)[];
    const values: FormValues = { [kind === 'PARCEIRO' ? 'produto' : 'oferta']: [] };
    for (const row of rows) {
      const id = 'simulador' in row ? row.simulador : String(row.oferta);
      (values[kind === 'PARCEIRO' ? 'produto' : 'oferta'] as string[]).push(id);
      values[offerField('comissao', id)] = hundredthsToPercentText(row.comissao);
      values[offerField('inicio', id)] = row.inicio;
    }
    return values;
  }
  const input = sectionInput(key, output) as Record<string, unknown>;
  const values: FormValues = {};
  for (const [name, value] of Object.entries(input)) {
    if (typeof value === 'boolean') values[name] = value ? 'sim' : '';
    else if (typeof value === 'string') values[name] = value;
  }
  if (typeof values.cnpj === 'string' && values.cnpj.length === 14) values.cnpj = formatCnpj(values.cnpj);
  if (typeof values.parceiro === 'string') values.parceiro = normalizeCnpj(values.parceiro);
  if (typeof values.cpf === 'string' && values.cpf.length === 11) values.cpf = formatCpf(values.cpf);
  return values;
}

/**
 * zod issues as the step form's messages: a row of the offers list is keyed by its product or offer
 * (comissao_RES), so the message lands under its field; any other issue by its top field.
 */
export function stepErrors(kind: CompanyKind, key: SectionKey, issues: readonly core.$ZodIssue[], input: unknown): FieldErrors {
  if (key !== 'ofertas') return messagesByField(issues, (issue) => String(issue.path[0] ?? 'form'));
  const rows = Array.isArray(input) ? (input as Record<string, unknown>[]) : [];
  return messagesByField(issues, (issue) => {
    const [index, field] = issue.path;
    const row = typeof index === 'number' ? rows[index] : undefined;
    const id = row?.[kind === 'PARCEIRO' ? 'simulador' : 'oferta'];
    if (row && (field === 'comissao' || field === 'inicio') && (typeof id === 'string' || typeof id === 'number'))
      return offerField(field, String(id).trim().toUpperCase());
    return 'ofertas';
  });
}

// ─── The list's query ────────────────────────────────────────────────────────────────────────────

const filterText = (max: number, message: string) =>
  z.pipe(
    formText(max, message),
    z.pipe(
      z.transform((v: string) => v.trim()),
      z.string(),
    ),
  );

/** The list's filters: a CNPJ with or without its mask (part of one too), a name (razão social or fantasia), a status, the page. */
export const companyListQuery = z.object({
  cnpj: z.pipe(
    filterText(20, 'CNPJ muito longo.'),
    z.pipe(
      z.transform(normalizeCnpj),
      z.string().check(z.regex(/^[0-9A-Z]{0,14}$/, 'CNPJ inválido: use números, letras e a pontuação do CNPJ.')),
    ),
  ),
  nome: filterText(120, 'Nome muito longo.'),
  status: z.pipe(
    filterText(20, 'Situação inválida.'),
    z.pipe(
      z.transform((v: string) => v.toLowerCase()),
      z.string().check(z.refine((v) => v === '' || (LIST_STATUSES as readonly string[]).includes(v), 'Situação inválida.')),
    ),
  ),
  pagina: z.pipe(
    z.pipe(
      formText(7, 'Página inválida.'),
      z.transform((v: string) => v.trim() || '1'),
    ),
    z.pipe(z.string().check(z.regex(/^[1-9]\d{0,5}$/, 'Página inválida.')), z.transform(Number)),
  ),
});
export type CompanyListQuery = z.output<typeof companyListQuery>;
