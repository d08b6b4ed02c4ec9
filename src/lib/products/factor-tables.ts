import { ageOn } from './questions';
import type { Answers, Factor, Question } from './types';

/**
 * Rating factors read from tables (DESIGN §7: tables over chains of conditions). Each helper gives
 * zero or one factor, so a product's `factors` is a list of spreads; a missing or unknown answer
 * gives none rather than throwing, because the browser prices half-filled forms too.
 */

export type FactorTable = Readonly<Record<string, number>>;

/** 'Tipo de imóvel: Casa' × 1,15 for the option chosen in a select or radio question. */
export function choiceFactor(question: Question, table: FactorTable, answers: Answers): Factor[] {
  const answer = answers[question.name];
  const value = typeof answer === 'string' ? table[answer] : undefined;
  if (value === undefined) return [];
  const option = question.options?.find((o) => o.value === answer);
  return [{ label: `${question.label}: ${option?.label ?? answer}`, value }];
}

/** 'Fumante: sim' × 1,3 or 'Fumante: não' × 1 for a boolean question (unanswered is "não"). */
export function booleanFactor(question: Question, table: { sim: number; nao: number }, answers: Answers): Factor[] {
  const yes = answers[question.name] === true;
  return [{ label: `${question.label}: ${yes ? 'sim' : 'não'}`, value: yes ? table.sim : table.nao }];
}

/** One band per upper bound, in increasing order: the first band whose `upTo` holds the value. */
export type Bands = readonly { upTo: number; value: number }[];

export function bandFactor(label: string, amount: number | undefined, bands: Bands): Factor[] {
  if (amount === undefined || !Number.isFinite(amount)) return [];
  const band = bands.find((b) => amount <= b.upTo);
  return band ? [{ label: `${label}: ${amount}`, value: band.value }] : [];
}

/** An integer answer read for a band (undefined when absent). */
export const integerAnswer = (answers: Answers, name: string): number | undefined =>
  typeof answers[name] === 'number' ? (answers[name] as number) : undefined;

/** The insured's age on the quote day (`dataCotacao`, else today), from `dataNascimento`. */
export function insuredAge(answers: Answers, today: Date = new Date()): number | undefined {
  const birth = answers.dataNascimento;
  if (typeof birth !== 'string') return undefined;
  const quoteDay = typeof answers.dataCotacao === 'string' ? new Date(`${answers.dataCotacao}T12:00:00`) : today;
  const age = ageOn(birth, quoteDay);
  return Number.isNaN(age) ? undefined : age;
}
