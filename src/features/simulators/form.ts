import type * as core from 'zod/v4/core';
import { formatMoney, parseMoney } from '../../lib/masks';
import type { AnswerValue, Answers, Question } from '../../lib/products/types';

/**
 * What the step forms share: inputs hold text as typed (masked), answers hold typed values (cents,
 * integers, booleans), and errors are keyed exactly as the API names its fields ('segurado.cpf',
 * 'risco.areaHectares', 'contratacao.parcelas'), so a browser check and a server refusal land on
 * the same field.
 */
export type FieldErrors = Record<string, string>;

export function issuesToErrors(error: core.$ZodError, prefix: string): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    errors[key] ??= issue.message;
  }
  return errors;
}

/** The API's `{ field: [messages] }` as one message per field. */
export const serverErrors = (fieldErrors: Record<string, string[]>): FieldErrors =>
  Object.fromEntries(Object.entries(fieldErrors).map(([key, messages]) => [key, messages[0] ?? '']));

export const centsFromText = (text: string): number | undefined => {
  const reais = parseMoney(text);
  return reais === null ? undefined : Math.round(reais * 100);
};
export const textFromCents = (cents: number): string => formatMoney(cents / 100);

/** An input's text as the answer its question takes; blank text is no answer. */
export function answerFromText(question: Question, text: string): AnswerValue | undefined {
  if (question.kind === 'boolean') return text === 'true';
  if (text.trim() === '') return undefined;
  if (question.kind === 'money') return centsFromText(text);
  if (question.kind === 'integer' || question.kind === 'area') {
    const digits = text.replace(/\D/g, '');
    return digits ? Number(digits) : undefined;
  }
  return text.trim();
}

export function textFromAnswer(question: Question, value: AnswerValue | undefined): string {
  if (value === undefined) return question.kind === 'boolean' ? 'false' : '';
  if (question.kind === 'money' && typeof value === 'number') return textFromCents(value);
  return String(value);
}

export function answersFromTexts(questions: readonly Question[], texts: Record<string, string>): Answers {
  const answers: Answers = {};
  for (const question of questions) {
    const value = answerFromText(question, texts[question.name] ?? '');
    if (value !== undefined) answers[question.name] = value;
  }
  return answers;
}

export const textsFromAnswers = (questions: readonly Question[], answers: Answers | null | undefined): Record<string, string> =>
  Object.fromEntries(questions.map((q) => [q.name, textFromAnswer(q, answers?.[q.name])]));

/** Moves focus to the first field in error, in page order, after a refused submit. */
export function focusFirstError(form: HTMLFormElement | null, errors: FieldErrors) {
  if (!form) return;
  const first = [...form.querySelectorAll<HTMLElement>('[data-field]')].find((el) => errors[el.dataset.field!]);
  (first?.querySelector<HTMLElement>('input, select, textarea') ?? first)?.focus();
}
