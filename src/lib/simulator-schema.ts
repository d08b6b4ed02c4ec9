import * as z from 'zod/mini';

/**
 * The legacy admin's simulator form (/editar-simulador/{id}) and its endpoint
 * (PUT /api/plataforma/v1/simuladores/{id}) accept and refuse the same input. zod/mini: it ships to
 * the browser (docs/decisions/012-javascript-budget.md).
 */
export const SIMULATOR_MESSAGES = {
  name: 'O nome do simulador deve ter entre 3 e 80 caracteres',
  startUrl: 'Informe um caminho do portal iniciado por / (ex.: /simulador-residencial/cadastro) ou um endereço https://',
  active: 'Informe se o simulador está ativo',
  productGroup: 'O grupo de produto tem 4 dígitos (ex.: 0118)',
} as const;

export const SIMULATOR_NAME_MIN = 3;
export const SIMULATOR_NAME_MAX = 80;
export const START_URL_MAX = 500;

/**
 * Where a simulator may start: a path of this portal ('/…', never '//host', which a browser reads as
 * another site) or an https address. No spaces, no backslashes (some browsers read '\' as '/'), and
 * nothing else: 'javascript:', 'http:' and relative paths are refused.
 */
export function isAllowedStartUrl(value: string): boolean {
  if (value.length === 0 || value.length > START_URL_MAX || /[\s\\]/.test(value)) return false;
  if (value.startsWith('/')) return !value.startsWith('//');
  if (!/^https:\/\/[^/]/i.test(value)) return false;
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

const nameField = z
  .string({ error: SIMULATOR_MESSAGES.name })
  .check(z.trim(), z.minLength(SIMULATOR_NAME_MIN, SIMULATOR_MESSAGES.name), z.maxLength(SIMULATOR_NAME_MAX, SIMULATOR_MESSAGES.name));

const startUrlField = z
  .string({ error: SIMULATOR_MESSAGES.startUrl })
  .check(z.trim(), z.refine(isAllowedStartUrl, SIMULATOR_MESSAGES.startUrl));

/** Empty means "no product group" (SPEC §9 gives one to a few simulators only). */
const productGroupField = z
  .pipe(
    z.optional(z.nullable(z.string({ error: SIMULATOR_MESSAGES.productGroup }))),
    z.transform((value) => (value == null || value.trim() === '' ? null : value.trim())),
  )
  .check(z.refine((value) => value === null || /^\d{4}$/.test(value), SIMULATOR_MESSAGES.productGroup));

export const simulatorUpdateSchema = z.object({
  nome: nameField,
  urlInicio: startUrlField,
  ativo: z.boolean({ error: SIMULATOR_MESSAGES.active }),
  grupoProduto: productGroupField,
});

export type SimulatorFormInput = z.input<typeof simulatorUpdateSchema>;
export type SimulatorUpdate = z.output<typeof simulatorUpdateSchema>;
