import { nameProblemOf } from '../full-name';
import * as z from 'zod/mini';
import { EMAIL_MAX_LENGTH, emailField } from '../auth-schemas';
import { digitsOnly, isValidCnpj, isValidCpf, normalizeCnpj, parsePhone } from '../validators';
import { ageOn, parseIsoDate } from './questions';
import type { InsuredKind, Option } from './types';

/**
 * The insured of the cadastro step: a person (CPF) or a company (CNPJ), with an address. zod/mini,
 * shared by the form and the server. Masks are stripped here: the output holds digits (the CNPJ
 * upper-cased alphanumerics), so what is stored never depends on how it was typed.
 */

/** The 27 federative units, in the order of the IBGE list. */
export const UFS: readonly Option[] = [
  { value: 'AC', label: 'Acre' },
  { value: 'AL', label: 'Alagoas' },
  { value: 'AP', label: 'Amapá' },
  { value: 'AM', label: 'Amazonas' },
  { value: 'BA', label: 'Bahia' },
  { value: 'CE', label: 'Ceará' },
  { value: 'DF', label: 'Distrito Federal' },
  { value: 'ES', label: 'Espírito Santo' },
  { value: 'GO', label: 'Goiás' },
  { value: 'MA', label: 'Maranhão' },
  { value: 'MT', label: 'Mato Grosso' },
  { value: 'MS', label: 'Mato Grosso do Sul' },
  { value: 'MG', label: 'Minas Gerais' },
  { value: 'PA', label: 'Pará' },
  { value: 'PB', label: 'Paraíba' },
  { value: 'PR', label: 'Paraná' },
  { value: 'PE', label: 'Pernambuco' },
  { value: 'PI', label: 'Piauí' },
  { value: 'RJ', label: 'Rio de Janeiro' },
  { value: 'RN', label: 'Rio Grande do Norte' },
  { value: 'RS', label: 'Rio Grande do Sul' },
  { value: 'RO', label: 'Rondônia' },
  { value: 'RR', label: 'Roraima' },
  { value: 'SC', label: 'Santa Catarina' },
  { value: 'SP', label: 'São Paulo' },
  { value: 'SE', label: 'Sergipe' },
  { value: 'TO', label: 'Tocantins' },
];

/** The insured person's age bounds when the product sets none (DESIGN §7: adults only). */
export const INSURED_AGE = { min: 18, max: 100 } as const;

/**
 * The longest text each free-text field of the insured takes: the schema refuses more with
 * `INSURED_MESSAGES.tooLong`, and the form sets the same number as the input's maxLength.
 */
export const INSURED_MAX_LENGTH = {
  nome: 120,
  razaoSocial: 150,
  email: EMAIL_MAX_LENGTH,
  logradouro: 120,
  numero: 10,
  complemento: 60,
  bairro: 60,
  cidade: 60,
} as const;

export const INSURED_MESSAGES = {
  nome: 'Informe o nome completo.',
  razaoSocial: 'Informe a razão social.',
  cpf: 'Informe um CPF válido.',
  cnpj: 'Informe um CNPJ válido.',
  dataNascimento: 'Informe a data de nascimento.',
  age: (min: number, max: number) => `A idade deve estar entre ${min} e ${max} anos.`,
  telefone: 'Informe o telefone no formato (DD) NNNNN-NNNN.',
  cep: 'Informe o CEP com 8 dígitos.',
  logradouro: 'Informe o logradouro.',
  numero: 'Informe o número.',
  tooLong: (max: number) => `Use no máximo ${max} caracteres.`,
  bairro: 'Informe o bairro.',
  cidade: 'Informe a cidade.',
  uf: 'Escolha a UF.',
  tipoPessoa: 'Escolha pessoa física ou pessoa jurídica.',
} as const;

/** A trimmed, required text of at most `max` characters; a longer one is told the limit. */
const text = (message: string, max: number) =>
  z.string({ error: message }).check(z.trim(), z.minLength(1, message), z.maxLength(max, INSURED_MESSAGES.tooLong(max)));

/** A string reduced by `normalize`, then checked. */
const normalized = (message: string, normalize: (v: string) => string, valid: (v: string) => boolean) =>
  z.pipe(z.string({ error: message }).check(z.maxLength(40, message)), z.transform(normalize)).check(z.refine(valid, message));

/** The portal's one full-name rule (lib/full-name.ts, decision 060). */
const fullName = text(INSURED_MESSAGES.nome, INSURED_MAX_LENGTH.nome).check(
  z.refine((v) => nameProblemOf(v, INSURED_MESSAGES.nome) === undefined, {
    error: (issue) => nameProblemOf(String(issue.input ?? ''), INSURED_MESSAGES.nome) ?? INSURED_MESSAGES.nome,
  }),
);
const cpf = normalized(INSURED_MESSAGES.cpf, digitsOnly, isValidCpf);
const cnpj = normalized(INSURED_MESSAGES.cnpj, normalizeCnpj, isValidCnpj);
const telefone = normalized(INSURED_MESSAGES.telefone, digitsOnly, (v) => parsePhone(v) !== null);
const cep = normalized(INSURED_MESSAGES.cep, digitsOnly, (v) => /^\d{8}$/.test(v));
const uf = z
  .pipe(
    z.string({ error: INSURED_MESSAGES.uf }).check(z.maxLength(2, INSURED_MESSAGES.uf)),
    z.transform((v) => v.toUpperCase()),
  )
  .check(z.refine((v) => UFS.some((u) => u.value === v), INSURED_MESSAGES.uf));

/** The insured's contact: what a contact endorsement may change (lib/endorsements.ts). */
export const contactFields = () => ({ email: emailField, telefone, endereco: addressSchema });

export const addressSchema = z.object({
  cep,
  logradouro: text(INSURED_MESSAGES.logradouro, INSURED_MAX_LENGTH.logradouro),
  numero: text(INSURED_MESSAGES.numero, INSURED_MAX_LENGTH.numero),
  complemento: z.optional(
    z
      .string({ error: INSURED_MESSAGES.tooLong(INSURED_MAX_LENGTH.complemento) })
      .check(z.trim(), z.maxLength(INSURED_MAX_LENGTH.complemento, INSURED_MESSAGES.tooLong(INSURED_MAX_LENGTH.complemento))),
  ),
  bairro: text(INSURED_MESSAGES.bairro, INSURED_MAX_LENGTH.bairro),
  cidade: text(INSURED_MESSAGES.cidade, INSURED_MAX_LENGTH.cidade),
  uf,
});

function birthDate(today: Date, age: { min: number; max: number }) {
  return z.string({ error: INSURED_MESSAGES.dataNascimento }).check(
    z.refine((v) => parseIsoDate(v) !== null, INSURED_MESSAGES.dataNascimento),
    z.refine(
      (v) => {
        const years = ageOn(v, today);
        return Number.isNaN(years) || (years >= age.min && years <= age.max);
      },
      INSURED_MESSAGES.age(age.min, age.max),
    ),
  );
}

const tipoPessoa = <T extends 'PF' | 'PJ'>(value: T) => z.literal(value, INSURED_MESSAGES.tipoPessoa);

export interface InsuredOptions {
  /** The day the age is taken on; today by default. */
  today?: Date;
  /** The product's accepted ages (ProductDef.insuredAge), else 18 to 100. */
  age?: { min: number; max: number };
}

const personSchema = ({ today = new Date(), age = INSURED_AGE }: InsuredOptions) =>
  z.object({
    tipoPessoa: tipoPessoa('PF'),
    nome: fullName,
    cpf,
    dataNascimento: birthDate(today, age),
    email: emailField,
    telefone,
    endereco: addressSchema,
  });

const companySchema = () =>
  z.object({
    tipoPessoa: tipoPessoa('PJ'),
    razaoSocial: text(INSURED_MESSAGES.razaoSocial, INSURED_MAX_LENGTH.razaoSocial),
    cnpj,
    email: emailField,
    telefone,
    endereco: addressSchema,
  });

export type Address = z.output<typeof addressSchema>;
export type InsuredPerson = z.output<ReturnType<typeof personSchema>>;
export type InsuredCompany = z.output<ReturnType<typeof companySchema>>;
export type Insured = InsuredPerson | InsuredCompany;

/** The cadastro schema of the insured for a product's `InsuredKind`. */
export function insuredSchema(kind: 'PF', options?: InsuredOptions): z.ZodMiniType<InsuredPerson, unknown>;
export function insuredSchema(kind: 'PJ', options?: InsuredOptions): z.ZodMiniType<InsuredCompany, unknown>;
export function insuredSchema(kind: InsuredKind, options?: InsuredOptions): z.ZodMiniType<Insured, unknown>;
export function insuredSchema(kind: InsuredKind, options: InsuredOptions = {}): z.ZodMiniType<Insured, unknown> {
  const schemas = {
    PF: () => personSchema(options),
    PJ: () => companySchema(),
    PF_PJ: () => z.discriminatedUnion('tipoPessoa', [personSchema(options), companySchema()], { error: INSURED_MESSAGES.tipoPessoa }),
  } satisfies Record<InsuredKind, () => z.ZodMiniType<Insured, unknown>>;
  return schemas[kind]();
}

export const insuredName = (insured: Insured): string => (insured.tipoPessoa === 'PF' ? insured.nome : insured.razaoSocial);

/** The insured's CPF (11 digits) or CNPJ (14 characters), unmasked: format with formatCpf/formatCnpj. */
export const insuredDocument = (insured: Insured): string => (insured.tipoPessoa === 'PF' ? insured.cpf : insured.cnpj);
