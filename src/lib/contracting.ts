import { nameProblemOf } from './full-name';
import * as z from 'zod/mini';
import { addDays } from './calendar';
import { digitsOnly } from './validators';

/**
 * The contratacao step (SPEC §4): how the insured pays and, for life, who receives. zod/mini: the
 * same schema checks the form in the browser and the endpoint on the server. The card number is
 * never asked: the insurer collects it in its own PCI environment after the proposal
 * (docs/decisions/017-quote-routes.md).
 */
export const DUE_DAYS = [5, 10, 15, 20, 25] as const;

/** The longest beneficiary name; the form sets it as the input's maxLength. */
export const BENEFICIARY_NAME_MAX_LENGTH = 120;

/**
 * Methods paid at once, with no due day asked for them (decision 024): due a few days after the policy
 * is issued (lib/policies.ts contractDueDates, decision 074). Pix is the only one.
 */
export const PAID_AT_ONCE: readonly string[] = ['pix'];
export const asksDueDay = (method: string) => !PAID_AT_ONCE.includes(method);

export const RELATIONSHIPS = [
  { value: 'conjuge', label: 'Cônjuge ou companheiro(a)' },
  { value: 'filho', label: 'Filho(a)' },
  { value: 'pai_mae', label: 'Pai ou mãe' },
  { value: 'irmao', label: 'Irmão(ã)' },
  { value: 'outro', label: 'Outro' },
] as const;

export const BANKS = [
  { value: '001', label: '001 — Banco do Brasil' },
  { value: '033', label: '033 — Santander' },
  { value: '104', label: '104 — Caixa Econômica Federal' },
  { value: '237', label: '237 — Bradesco' },
  { value: '341', label: '341 — Itaú Unibanco' },
  { value: '756', label: '756 — Sicoob' },
] as const;

const MESSAGES = {
  method: 'Escolha a forma de pagamento.',
  installments: 'Escolha o número de parcelas.',
  dueDay: 'Escolha o dia de vencimento.',
  bank: 'Escolha o banco.',
  branch: 'Informe a agência (até 5 dígitos).',
  account: 'Informe a conta com o dígito (até 13 dígitos).',
  beneficiaryName: 'Informe o nome completo do beneficiário.',
  beneficiaryNameTooLong: `Use no máximo ${BENEFICIARY_NAME_MAX_LENGTH} caracteres.`,
  relationship: 'Escolha o parentesco.',
  share: 'O percentual deve ser um número inteiro entre 1 e 100.',
  shares: 'Os percentuais dos beneficiários devem somar 100%.',
  tooMany: 'Informe no máximo 5 beneficiários.',
} as const;

export const oneOf = <T extends string>(values: readonly T[], message: string) =>
  z.string({ error: message }).check(z.refine((v) => (values as readonly string[]).includes(v), message));

export const digitsField = (min: number, max: number, message: string) =>
  z.pipe(z.string({ error: message }), z.transform(digitsOnly)).check(z.minLength(min, message), z.maxLength(max, message));

export const beneficiarySchema = z.object({
  nome: z.string({ error: MESSAGES.beneficiaryName }).check(
    z.trim(),
    z.maxLength(BENEFICIARY_NAME_MAX_LENGTH, MESSAGES.beneficiaryNameTooLong),
    // The portal's one full-name rule (lib/full-name.ts, decision 060).
    z.refine((v) => nameProblemOf(v, MESSAGES.beneficiaryName) === undefined, {
      error: (issue) => nameProblemOf(String(issue.input ?? ''), MESSAGES.beneficiaryName) ?? MESSAGES.beneficiaryName,
    }),
  ),
  parentesco: oneOf(
    RELATIONSHIPS.map((r) => r.value),
    MESSAGES.relationship,
  ),
  percentual: z.number({ error: MESSAGES.share }).check(z.int(MESSAGES.share), z.gte(1, MESSAGES.share), z.lte(100, MESSAGES.share)),
});

export const contractingSchema = z
  .object({
    formaPagamento: z.enum(['boleto', 'cartao', 'debito', 'pix'], MESSAGES.method),
    parcelas: z
      .number({ error: MESSAGES.installments })
      .check(z.int(MESSAGES.installments), z.gte(1, MESSAGES.installments), z.lte(12, MESSAGES.installments)),
    // Required for every method but Pix (superRefine below); Pix is due on the day the proposal is sent.
    diaVencimento: z.optional(
      z.number({ error: MESSAGES.dueDay }).check(z.refine((d) => (DUE_DAYS as readonly number[]).includes(d), MESSAGES.dueDay)),
    ),
    debito: z.optional(
      z.object({
        banco: oneOf(
          BANKS.map((b) => b.value),
          MESSAGES.bank,
        ),
        agencia: digitsField(1, 5, MESSAGES.branch),
        conta: digitsField(2, 13, MESSAGES.account),
      }),
    ),
    beneficiarios: z.optional(z.array(beneficiarySchema).check(z.maxLength(5, MESSAGES.tooMany))),
  })
  .check(
    z.superRefine((value, ctx) => {
      if (asksDueDay(value.formaPagamento) && value.diaVencimento === undefined) {
        ctx.addIssue({ code: 'custom', input: value, path: ['diaVencimento'], message: MESSAGES.dueDay });
      }
      if (value.formaPagamento === 'debito' && !value.debito) {
        ctx.addIssue({ code: 'custom', input: value, path: ['debito', 'banco'], message: MESSAGES.bank });
      }
      const shares = value.beneficiarios ?? [];
      if (shares.length > 0 && shares.reduce((sum, b) => sum + b.percentual, 0) !== 100) {
        ctx.addIssue({ code: 'custom', input: value, path: ['beneficiarios'], message: MESSAGES.shares });
      }
    }),
  );
export type Contracting = z.output<typeof contractingSchema>;
export type ContractingInput = z.input<typeof contractingSchema>;

const pad = (n: number) => String(n).padStart(2, '0');
const isoDate = (year: number, monthIndex: number, day: number) => {
  const date = new Date(Date.UTC(year, monthIndex, day));
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
};

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

/**
 * The due dates of a contract's installments, counted from the day its policy is issued (Brasília) —
 * the one rule the policy charges by and the resumo, the proposal's PDF and the finalização promise by
 * (decision 074): a method paid at once (Pix) ignores a due day an old quote may have stored.
 */
export const contractDueDates = (
  contracting: { formaPagamento: string; diaVencimento?: number },
  issuedDay: string,
  count: number,
): string[] => installmentDueDates(asksDueDay(contracting.formaPagamento) ? contracting.diaVencimento : undefined, issuedDay, count);

/** The due day whose first installment comes soonest after a sale on `from`: 5 to 15 days later. */
export function earliestDueDay(from: string): (typeof DUE_DAYS)[number] {
  const earliest = Number(addDays(from, 5).slice(8));
  return DUE_DAYS.find((day) => day >= earliest) ?? DUE_DAYS[0];
}

/**
 * Due dates of `count` monthly installments on `dueDay`: the first falls on the first such day at
 * least 5 days after `from` (time to pay the first boleto), then one per month. ISO dates.
 */
export function dueDates(from: string, dueDay: number, count: number): string[] {
  const [year, month, day] = from.split('-').map(Number) as [number, number, number];
  const earliest = Date.UTC(year, month - 1, day + 5);
  let monthIndex = month - 1;
  while (Date.UTC(year, monthIndex, dueDay) < earliest) monthIndex += 1;
  return Array.from({ length: count }, (_, i) => isoDate(year, monthIndex + i, dueDay));
}
