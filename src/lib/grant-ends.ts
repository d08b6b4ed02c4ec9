import { startOfNextBrasiliaDay } from './calendar';
import { brasiliaDay, formatDateTime, formatIsoDate } from './format';
import { isIsoDate } from './offer-schema';

/*
 * Grants with an end date (issue 32, decision 071), pure: what the log and the pages say.
 */

export const GRANT_END_MESSAGES = {
  notMember: 'O usuário não tem este grupo.',
  invalidDate: 'Data de fim inválida: use dd/mm/aaaa.',
  pastDate: 'A data de fim já passou: escolha hoje ou um dia adiante.',
  /** A day beside a grant left unchecked (issue 42): it would be dropped without a word. */
  uncheckedGroup: 'Há uma data em "válido até", mas o grupo não está marcado: marque o grupo ou apague a data.',
  uncheckedPermission: 'Há uma data em "válido até", mas nem "Visualizar" nem "Alterar" estão marcados: marque um deles ou apague a data.',
  /** What the form says beside such a day before saving (components/ui/GrantEndNote.astro). */
  noteGroup: 'Marque o grupo para que esta data valha.',
  notePermission: 'Marque "Visualizar" ou "Alterar" para que esta data valha.',
  membershipDetail: (group: string, endsAt: Date | null) =>
    endsAt ? `acesso ao grupo ${group} até ${formatDateTime(endsAt)}` : `acesso ao grupo ${group} sem data de fim`,
  membershipEnded: (group: string) => `acesso ao grupo ${group} chegou à data de fim`,
  grantEnded: (group: string, permission: string) => `permissão ${permission} do grupo ${group} chegou à data de fim`,
} as const;

/** The form's field of a group's "até" date (legacy user form). */
export const groupEndField = (group: string) => `fim-${group}`;

/** The form's field of a group's own grant's "válido até": a legacy group's permission, a v2 group's operation. */
export const grantEndField = (code: string) => `ate-${code}`;

/**
 * A grant's "válido até" day, as a form gives it (YYYY-MM-DD, blank: no end), read as the end of that
 * day in Brasília (the grant counts through the day named); a day already past is refused.
 */
export function readGrantEnd(value: unknown, at: Date): { ok: true; endsAt: Date | null } | { ok: false; message: string } {
  const text = typeof value === 'string' ? value.trim() : '';
  if (text === '') return { ok: true, endsAt: null };
  if (!isIsoDate(text)) return { ok: false, message: GRANT_END_MESSAGES.invalidDate };
  const endsAt = startOfNextBrasiliaDay(text);
  return endsAt.getTime() <= at.getTime() ? { ok: false, message: GRANT_END_MESSAGES.pastDate } : { ok: true, endsAt };
}

/** The day a form shows for an end (the inverse of readGrantEnd). */
export const grantEndDay = (endsAt: Date): string => brasiliaDay(new Date(endsAt.getTime() - 1));

/** The last day a grant counts, as people read it (dd/mm/aaaa). */
export const grantEndLabel = (endsAt: Date): string => formatIsoDate(grantEndDay(endsAt));

/**
 * Each code's end as a form gives it (`field` names its date): the ends read, the days as typed (the
 * form shows them again), and one message per day refused, naming whose.
 */
export function readGrantEnds(
  form: { get(name: string): unknown },
  codes: readonly string[],
  at: Date,
  field: (code: string) => string = grantEndField,
  label: (code: string) => string = (code) => code,
): { ends: Map<string, Date | null>; days: Record<string, string>; errors: string[] } {
  const ends = new Map<string, Date | null>();
  const days: Record<string, string> = {};
  const errors: string[] = [];
  for (const code of codes) {
    const given = form.get(field(code));
    days[code] = typeof given === 'string' ? given.slice(0, 10) : '';
    const end = readGrantEnd(given, at);
    if (end.ok) ends.set(code, end.endsAt);
    else errors.push(`${label(code)}: ${end.message}`);
  }
  return { ends, days, errors };
}

/**
 * The days given beside the grants a form offered but left unchecked (issue 42): a day there would be
 * dropped without a word, so each is refused naming whose (`message`), and shown again as typed.
 */
export function endsWithoutGrant(
  form: { get(name: string): unknown },
  offered: readonly string[],
  checked: readonly string[],
  message: string,
  field: (code: string) => string = grantEndField,
  label: (code: string) => string = (code) => code,
): { days: Record<string, string>; errors: string[] } {
  const days: Record<string, string> = {};
  const errors: string[] = [];
  for (const code of offered) {
    if (checked.includes(code)) continue;
    const given = form.get(field(code));
    if (typeof given !== 'string' || given.trim() === '') continue;
    days[code] = given.slice(0, 10);
    errors.push(`${label(code)}: ${message}`);
  }
  return { days, errors };
}

/** The days a form shows for the ends a group's grants have. */
export const grantEndDays = (ends: Readonly<Record<string, Date>>): Record<string, string> =>
  Object.fromEntries(Object.entries(ends).map(([code, endsAt]) => [code, grantEndDay(endsAt)]));

/** What changed in the ends of the grants kept, for the access log ('' when nothing did). */
export function grantEndChanges(before: Readonly<Record<string, Date>>, after: ReadonlyMap<string, Date | null>): string {
  const lines = [...after].flatMap(([code, endsAt]) => {
    const was = before[code]?.getTime() ?? null;
    if (was === (endsAt?.getTime() ?? null)) return [];
    return [endsAt ? `${code} válida até ${grantEndLabel(endsAt)}` : `${code} sem data de fim`];
  });
  return lines.length > 0 ? `; ${lines.join(', ')}` : '';
}
