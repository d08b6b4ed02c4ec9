import type { FactoryOpts, MaskedDynamic } from 'imask';
import { formatCnpj, formatCpf } from './validators';

/**
 * The input masks of SPEC §5 as imask option objects: plain data the MaskedInput hands to
 * react-imask, and that the unit tests run through `IMask.createMask`. Nothing here touches the DOM.
 *
 * Typing model of the numeric masks: the user types the number as written in pt-BR — digits, then
 * ',' and the decimals ('1234,56' shows 'R$ 1.234,56'). The thousands '.' is inserted by the mask, so
 * a typed '.' is ignored rather than taken as a decimal point (imask's default), which would turn a
 * pasted '1.234,56' into '1,23'. Money pads its cents when the field is left ('R$ 1.234' becomes
 * 'R$ 1.234,00').
 */

export type MaskName = 'money' | 'number' | 'percentage' | 'area' | 'cpf' | 'cnpj' | 'phone' | 'document';

type Dispatch = (appended: string, masked: MaskedDynamic, flags: unknown, tail: unknown) => MaskedDynamic['currentMask'];

/** SPEC §5: no masked input takes '|'. imask's Number accepts it as a sign when negatives are allowed. */
const dropPipe = (ch: string): string => ch.replace(/\|/g, '');

/**
 * What a numeric mask keeps of typed or pasted text (input + raw): digits and the ',' radix (and
 * '-' where negatives are allowed). A '.' is the thousands separator the mask draws itself, so it
 * is dropped; anything else is dropped before it reaches the pattern, which would otherwise show
 * its 'R$ ' prefix for a refused key.
 */
const keepTyped =
  (refused: RegExp) =>
  (ch: string, _masked: unknown, flags?: { input?: boolean; raw?: boolean }): string =>
    dropPipe(flags?.input && flags.raw ? ch.replace(refused, '') : ch);
const unsignedTyped = keepTyped(/[^\d,]/g);
const signedTyped = keepTyped(/[^\d,+-]/g);

const upperAlphanumeric = (ch: string): string => dropPipe(ch).toUpperCase();

/** Everything after the dynamic mask's current input: what the mask will hold once `appended` lands. */
const pendingInput = (masked: MaskedDynamic, appended: string, tail: unknown): string =>
  `${masked.rawInputValue}${appended}${tail == null ? '' : String(tail)}`;

const numberBlock = { mask: Number, thousandsSeparator: '.', radix: ',', mapToRadix: ['.'] };

/** 'R$ 1.234,56': two decimals, padded on leaving the field; no negatives. */
export const MONEY_MASK = {
  mask: 'R$ num',
  prepareChar: unsignedTyped,
  blocks: {
    num: { ...numberBlock, scale: 2, padFractionalZeros: true, normalizeZeros: true, min: 0, max: 999_999_999_999.99 },
  },
} satisfies FactoryOpts;

/** '-1.234,5678': up to 4 decimals, negatives allowed. */
export const NUMBER_MASK = {
  ...numberBlock,
  prepareChar: signedTyped,
  scale: 4,
  normalizeZeros: true,
  min: -999_999_999_999,
  max: 999_999_999_999,
} satisfies FactoryOpts;

/** '99,99' at most: two integer digits, two decimals (padded on leaving the field). */
export const PERCENTAGE_MASK = {
  ...numberBlock,
  prepareChar: unsignedTyped,
  scale: 2,
  padFractionalZeros: true,
  min: 0,
  max: 99.99,
} satisfies FactoryOpts;

const areaBlocks = { num: { ...numberBlock, scale: 0, min: 0, max: 99_999_999 } };

/**
 * '12.345.678 m²': whole square metres, at most 8 digits. The suffix shows as soon as a digit is
 * typed (a non-lazy pattern) and disappears when the field is emptied (the lazy twin), so an empty
 * field shows its placeholder and not a lone ' m²'.
 */
export const AREA_MASK = {
  mask: [
    { mask: 'num m²', lazy: true, blocks: areaBlocks },
    { mask: 'num m²', lazy: false, blocks: areaBlocks },
  ],
  prepareChar: unsignedTyped,
  dispatch: ((appended, masked, _flags, tail) => masked.compiledMasks[/\d/.test(pendingInput(masked, appended, tail)) ? 1 : 0]) as Dispatch,
} satisfies FactoryOpts;

export const CPF_MASK = { mask: '000.000.000-00', prepareChar: dropPipe } satisfies FactoryOpts;

/** The alphanumeric CNPJ (IN RFB 2.229/2024): letters allowed in the 12 base characters, upper-cased. */
export const CNPJ_MASK = {
  mask: 'XX.XXX.XXX/XXXX-00',
  definitions: { X: /[0-9A-Z]/ },
  prepareChar: upperAlphanumeric,
} satisfies FactoryOpts;

const alphanumeric = (value: string): string => value.replace(/[^0-9A-Za-z]/g, '');

/** CPF while it fits one (11 digits); CNPJ from the 12th character or the first letter. */
export const DOCUMENT_MASK = {
  mask: [CPF_MASK, CNPJ_MASK],
  prepareChar: upperAlphanumeric,
  dispatch: ((appended, masked, _flags, tail) => {
    const chars = alphanumeric(pendingInput(masked, appended, tail));
    return masked.compiledMasks[chars.length > 11 || /[A-Za-z]/.test(chars) ? 1 : 0];
  }) as Dispatch,
} satisfies FactoryOpts;

/** '(11) 4000-0000' for landlines, '(11) 94000-0000' once an 11th digit is typed. */
export const PHONE_MASK = {
  mask: [{ mask: '(00) 0000-0000' }, { mask: '(00) 00000-0000' }],
  prepareChar: dropPipe,
  dispatch: ((appended, masked, _flags, tail) =>
    masked.compiledMasks[pendingInput(masked, appended, tail).replace(/\D/g, '').length > 10 ? 1 : 0]) as Dispatch,
} satisfies FactoryOpts;

/** Every mask by the name a MaskedInput takes. */
export const MASKS = {
  money: MONEY_MASK,
  number: NUMBER_MASK,
  percentage: PERCENTAGE_MASK,
  area: AREA_MASK,
  cpf: CPF_MASK,
  cnpj: CNPJ_MASK,
  phone: PHONE_MASK,
  document: DOCUMENT_MASK,
} as const satisfies Record<MaskName, FactoryOpts>;

/** What the mobile keyboard should offer for each mask. */
export const MASK_INPUT_MODE = {
  money: 'decimal',
  number: 'decimal',
  percentage: 'decimal',
  area: 'numeric',
  cpf: 'numeric',
  cnpj: 'text',
  phone: 'tel',
  document: 'text',
} as const satisfies Record<MaskName, 'decimal' | 'numeric' | 'tel' | 'text'>;

const moneyNumber = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 1234.56 → 'R$ 1.234,56', exactly as the money mask shows it. */
export function formatMoney(value: number): string {
  const text = moneyNumber.format(Math.abs(value));
  return `${value < 0 && text !== '0,00' ? '-' : ''}R$ ${text}`;
}

/** 'R$ 1.234,56' → 1234.56; null when there is no number in the text. */
export function parseMoney(value: string): number | null {
  const negative = /^\s*-/.test(value) || /^\s*R\$\s*-/.test(value);
  const digits = value
    .replace(/[^\d,]/g, '')
    .replace(',', '.')
    .replace(/,/g, '');
  if (!/\d/.test(digits)) return null;
  const number = Number(digits);
  if (Number.isNaN(number)) return null;
  return negative ? -number : number;
}

export type DocumentKind = 'cpf' | 'cnpj';

/** The mask characters a pasted CPF or CNPJ may already carry. */
const DOCUMENT_PUNCTUATION = /[.\-/\s]/g;

/**
 * Which document a pasted text is, by its characters once the punctuation is gone (SPEC §5):
 * 11 digits a CPF, 12 letters or digits followed by 2 digits a CNPJ. Check digits are not
 * verified: the field's own validation says whether the number is valid.
 */
export function pasteDocumentMask(text: string): DocumentKind | null {
  const chars = text.trim().replace(DOCUMENT_PUNCTUATION, '');
  if (/^\d{11}$/.test(chars)) return 'cpf';
  if (/^[0-9A-Za-z]{12}\d{2}$/.test(chars)) return 'cnpj';
  return null;
}

/** A pasted CPF as 999.999.999-99, a CNPJ as 99.999.999/9999-99; any other text unchanged. */
export function formatPastedDocument(text: string): string {
  const kind = pasteDocumentMask(text);
  if (kind === 'cpf') return formatCpf(text.replace(DOCUMENT_PUNCTUATION, ''));
  if (kind === 'cnpj') return formatCnpj(text.replace(DOCUMENT_PUNCTUATION, ''));
  return text;
}
