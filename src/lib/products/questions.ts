import * as z from 'zod/mini';
import { formatBRL, formatNumber } from './money';
import type { AnswerValue, Answers, Question, QuestionKind } from './types';

/**
 * Validation of a product's questions, built from its question table. zod/mini: the schema ships to
 * the browser with the simulator islands (docs/decisions/012-javascript-budget.md) and is the same
 * one the server parses with. Forms may send masked text ('R$ 1.234,56', '1.500 m²'); the schema
 * returns the typed answer of types.ts (money → centavos, integer/area → integer, …).
 */

/** Whole years from `birthDate` ('YYYY-MM-DD') to `today`, by the calendar; NaN for a bad date. */
export function ageOn(birthDate: string, today: Date): number {
  const birth = parseIsoDate(birthDate);
  if (!birth) return Number.NaN;
  const [y, m, d] = [today.getFullYear(), today.getMonth() + 1, today.getDate()];
  const hadBirthday = m > birth.month || (m === birth.month && d >= birth.day);
  return y - birth.year - (hadBirthday ? 0 : 1);
}

/** 'YYYY-MM-DD' of a real calendar day, or null (2026-02-30 is not a day). */
export function parseIsoDate(value: string): { year: number; month: number; day: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const real = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real ? { year, month, day } : null;
}

// ——— Messages that name the field ———

const lowerFirst = (label: string) => (/^.\p{Ll}/u.test(label) ? label[0]!.toLowerCase() + label.slice(1) : label);
const upperFirst = (text: string) => text[0]!.toUpperCase() + text.slice(1);
/** 'o valor do imóvel' when the question has an article, else the label as written. */
const named = (q: Question) => (q.article ? `${q.article} ${lowerFirst(q.label)}` : q.label);

const UNITS: Partial<Record<QuestionKind, (n: number) => string>> = {
  money: formatBRL,
  area: (n) => `${formatNumber(n)} m²`,
  integer: formatNumber,
};

export const answerMessages = {
  required: (q: Question) => `Informe ${named(q)}.`,
  choose: (q: Question) => `Escolha uma opção de ${q.label}.`,
  number: (q: Question) => `Informe ${named(q)} com um número inteiro.`,
  range: (q: Question) => {
    const unit = UNITS[q.kind] ?? formatNumber;
    const bounds =
      q.min !== undefined && q.max !== undefined
        ? `estar entre ${unit(q.min)} e ${unit(q.max)}`
        : q.min !== undefined
          ? `ser de no mínimo ${unit(q.min)}`
          : `ser de no máximo ${unit(q.max ?? 0)}`;
    return `${upperFirst(named(q))} deve ${bounds}.`;
  },
  date: (q: Question) => `Informe ${named(q)} no formato DD/MM/AAAA.`,
  age: (q: Question) => `A idade deve estar entre ${q.min ?? 0} e ${q.max ?? 130} anos.`,
  boolean: (q: Question) => `Responda sim ou não para ${q.label}.`,
  tooLong: (q: Question) => `${upperFirst(named(q))} deve ter no máximo ${TEXT_MAX_LENGTH} caracteres.`,
} as const;

/** The longest answer a text question takes; the form sets it as the input's maxLength. */
export const TEXT_MAX_LENGTH = 200;

// ——— One parser per kind: raw form value → answer or message ———

type Parsed = { value: AnswerValue } | { error: string };
type Parser = (q: Question, raw: unknown, today: Date) => Parsed;

/** 'R$ 1.234,56' or 1234,5 typed → centavos; a number is already centavos. */
function moneyFrom(raw: unknown): number {
  if (typeof raw === 'number') return raw;
  if (typeof raw !== 'string' || !/\d/.test(raw)) return Number.NaN;
  const plain = raw.replace(/[R$\s.]/g, '').replace(',', '.');
  if (!/^\d+(\.\d{1,2})?$/.test(plain)) return Number.NaN;
  return Math.round(Number(plain) * 100);
}

/** '1.500 m²', '1.500' → 1500; a number as it is. */
function integerFrom(raw: unknown): number {
  if (typeof raw === 'number') return raw;
  if (typeof raw !== 'string') return Number.NaN;
  const plain = raw.replace(/m²|\s|\./g, '');
  return /^-?\d+$/.test(plain) ? Number(plain) : Number.NaN;
}

const inRange = (q: Question, n: number) => (q.min === undefined || n >= q.min) && (q.max === undefined || n <= q.max);

const numberParser =
  (read: (raw: unknown) => number): Parser =>
  (q, raw) => {
    const n = read(raw);
    if (!Number.isSafeInteger(n)) return { error: answerMessages.number(q) };
    return inRange(q, n) ? { value: n } : { error: answerMessages.range(q) };
  };

const choiceParser: Parser = (q, raw) =>
  typeof raw === 'string' && (q.options ?? []).some((o) => o.value === raw) ? { value: raw } : { error: answerMessages.choose(q) };

const PARSERS: Record<QuestionKind, Parser> = {
  text: (q, raw) => {
    const text = typeof raw === 'string' ? raw.trim() : '';
    if (text === '') return { error: answerMessages.required(q) };
    return text.length > TEXT_MAX_LENGTH ? { error: answerMessages.tooLong(q) } : { value: text };
  },
  integer: numberParser(integerFrom),
  area: numberParser(integerFrom),
  money: (q, raw) => {
    const cents = moneyFrom(raw);
    if (!Number.isSafeInteger(cents) || cents < 0) return { error: answerMessages.required(q) };
    return inRange(q, cents) ? { value: cents } : { error: answerMessages.range(q) };
  },
  select: choiceParser,
  radio: choiceParser,
  date: (q, raw, today) => {
    if (typeof raw !== 'string' || !parseIsoDate(raw)) return { error: answerMessages.date(q) };
    if (q.min === undefined && q.max === undefined) return { value: raw };
    const age = ageOn(raw, today);
    return inRange(q, age) ? { value: raw } : { error: answerMessages.age(q) };
  },
  boolean: (q, raw) => {
    const value = raw === 'true' ? true : raw === 'false' ? false : raw;
    return typeof value === 'boolean' ? { value } : { error: answerMessages.boolean(q) };
  },
};

const isBlank = (raw: unknown) => raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');

function answerSchema(q: Question, today: Date) {
  const schema = z.pipe(
    z.unknown(),
    z.transform((raw, ctx): AnswerValue | undefined => {
      // A boolean question is never missing: an unticked box is "não".
      if (q.kind === 'boolean' && isBlank(raw)) return false;
      if (isBlank(raw)) {
        if (q.required === false) return undefined;
        ctx.issues.push({
          code: 'custom',
          message: q.kind === 'select' || q.kind === 'radio' ? answerMessages.choose(q) : answerMessages.required(q),
          input: raw,
        });
        return z.NEVER;
      }
      const parsed = PARSERS[q.kind](q, raw, today);
      if ('error' in parsed) {
        ctx.issues.push({ code: 'custom', message: parsed.error, input: raw });
        return z.NEVER;
      }
      return parsed.value;
    }),
  );
  // An optional question may be left out; zod/mini then needs the field itself marked optional.
  return q.required === false ? z.optional(schema) : schema;
}

/**
 * The schema of a set of questions: one field per question, unknown keys dropped, optional answers
 * left blank omitted. `today` bounds the age of date questions (tests fix it).
 */
export function answersSchema(questions: readonly Question[], today: Date = new Date()): z.ZodMiniType<Answers> {
  const shape = Object.fromEntries(questions.map((q) => [q.name, answerSchema(q, today)]));
  // zod skips or refuses keys absent from the input before a field's own parser sees them; every
  // question is given a value (null = blank), so one parser decides what a blank answer means.
  const withEveryQuestion = (input: unknown) =>
    typeof input === 'object' && input !== null && !Array.isArray(input)
      ? { ...Object.fromEntries(questions.map((q) => [q.name, null])), ...input }
      : input;
  return z.pipe(
    z.pipe(z.transform(withEveryQuestion), z.object(shape)),
    z.transform((answers) => {
      const clean: Answers = {};
      for (const [name, value] of Object.entries(answers)) if (value !== undefined) clean[name] = value as AnswerValue;
      return clean;
    }),
  ) as unknown as z.ZodMiniType<Answers>;
}
