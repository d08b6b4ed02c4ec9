import * as z from 'zod/mini';

/**
 * The admin's offer form (/v2/ofertas/cadastro/{idSimulador}) and its endpoints (POST /v1/ofertas,
 * PUT /v1/ofertas/{nrOferta}) accept and refuse the same input: one schema, written with zod/mini
 * because it ships to the browser (docs/decisions/012-javascript-budget.md). The commission arrives
 * as the percentage mask shows it ('12,50') or as a number (12.5) and leaves as integer hundredths of
 * a percent (1250), the unit the database keeps.
 */

export const OFFER_MESSAGES = {
  name: 'O nome da oferta deve ter entre 3 e 120 caracteres',
  companies: 'Selecione ao menos uma empresa',
  start: 'Informe a data de início da vigência',
  end: 'Data de fim da vigência inválida',
  order: 'O fim da vigência não pode ser anterior ao início',
  commission: 'Informe a comissão entre 0 e 100%, com até 2 casas decimais',
  simulator: 'Simulador inválido',
  active: 'Informe se a oferta está ativa',
} as const;

export const OFFER_NAME_MIN = 3;
export const OFFER_NAME_MAX = 120;
const MAX_HUNDREDTHS = 100_00;

/** '12,50' | '12.5' | 12.5 → 1250; undefined for anything outside 0–100 % with at most 2 decimals. */
export function percentToHundredths(value: string | number): number | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    const hundredths = Math.round(value * 100);
    if (Math.abs(hundredths - value * 100) > 1e-6) return undefined;
    return hundredths >= 0 && hundredths <= MAX_HUNDREDTHS ? hundredths : undefined;
  }
  const match = /^(\d{1,3})(?:[.,](\d{1,2}))?$/.exec(value.trim());
  if (!match) return undefined;
  const hundredths = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return hundredths <= MAX_HUNDREDTHS ? hundredths : undefined;
}

/** 1250 → '12,50': the percentage mask's text, for an offer being edited. */
export const hundredthsToPercentText = (hundredths: number): string =>
  `${Math.trunc(hundredths / 100)},${String(hundredths % 100).padStart(2, '0')}`;

/** 1250 → '12,50%' for tables. */
export const formatCommission = (hundredths: number): string => `${hundredthsToPercentText(hundredths)}%`;

/** A calendar date 'YYYY-MM-DD' that exists (2026-02-30 does not). */
export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

const nameField = z
  .string({ error: OFFER_MESSAGES.name })
  .check(z.trim(), z.minLength(OFFER_NAME_MIN, OFFER_MESSAGES.name), z.maxLength(OFFER_NAME_MAX, OFFER_MESSAGES.name));

const companiesField = z
  .array(z.int({ error: OFFER_MESSAGES.companies }).check(z.positive(OFFER_MESSAGES.companies), z.lte(2 ** 31 - 1)), {
    error: OFFER_MESSAGES.companies,
  })
  .check(z.minLength(1, OFFER_MESSAGES.companies), z.maxLength(500, OFFER_MESSAGES.companies));

const startField = z.string({ error: OFFER_MESSAGES.start }).check(z.refine(isIsoDate, OFFER_MESSAGES.start));

/** An empty end date means an open validity (vigência sem prazo final). */
const endField = z
  .pipe(
    z.optional(z.nullable(z.string({ error: OFFER_MESSAGES.end }))),
    z.transform((value) => (value == null || value.trim() === '' ? null : value.trim())),
  )
  .check(z.refine((value) => value === null || isIsoDate(value), OFFER_MESSAGES.end));

const commissionField = z.pipe(
  z.union([z.string(), z.number()], { error: OFFER_MESSAGES.commission }),
  z.transform((value, ctx) => {
    const hundredths = percentToHundredths(value);
    if (hundredths === undefined) {
      ctx.issues.push({ code: 'custom', message: OFFER_MESSAGES.commission, input: value });
      return z.NEVER;
    }
    return hundredths;
  }),
);

const offerFields = {
  nome: nameField,
  empresas: companiesField,
  vigenciaInicio: startField,
  vigenciaFim: endField,
  /** Percent in ('12,50' or 12.5), hundredths of a percent out (1250). */
  comissao: commissionField,
  ativo: z._default(z.boolean({ error: OFFER_MESSAGES.active }), true),
};

// ISO dates compare as text.
const startBeforeEnd = z.refine<{ vigenciaInicio: string; vigenciaFim: string | null }>(
  (v) => v.vigenciaFim === null || v.vigenciaInicio <= v.vigenciaFim,
  { message: OFFER_MESSAGES.order, path: ['vigenciaFim'] },
);

/** PUT /v1/ofertas/{nrOferta}: the simulator of an offer does not change. */
export const offerUpdateSchema = z.object(offerFields).check(startBeforeEnd);

/** POST /v1/ofertas. */
export const offerCreateSchema = z
  .object({
    idSimulador: z
      .int({ error: OFFER_MESSAGES.simulator })
      .check(z.positive(OFFER_MESSAGES.simulator), z.lte(2 ** 31 - 1, OFFER_MESSAGES.simulator)),
    ...offerFields,
  })
  .check(startBeforeEnd);

/** What the form holds and sends (the commission as the mask shows it). */
export type OfferFormInput = z.input<typeof offerUpdateSchema>;
export type OfferUpdate = z.output<typeof offerUpdateSchema>;
export type OfferCreate = z.output<typeof offerCreateSchema>;
