import { startOfNextBrasiliaDay } from './calendar';
import { brasiliaDay, formatDateTime } from './format';
import { isIsoDate } from './offer-schema';

/*
 * Grants with an end date (issue 32, decision 071), pure: what the log and the pages say.
 */

export const GRANT_END_MESSAGES = {
  notMember: 'O usuário não tem este grupo.',
  invalidDate: 'Data de fim inválida: use dd/mm/aaaa.',
  pastDate: 'A data de fim já passou: escolha hoje ou um dia adiante.',
  membershipDetail: (group: string, endsAt: Date | null) =>
    endsAt ? `acesso ao grupo ${group} até ${formatDateTime(endsAt)}` : `acesso ao grupo ${group} sem data de fim`,
  membershipEnded: (group: string) => `acesso ao grupo ${group} chegou à data de fim`,
  grantEnded: (group: string, permission: string) => `permissão ${permission} do grupo ${group} chegou à data de fim`,
} as const;

/** The form's field of a group's "até" date (legacy user form). */
export const groupEndField = (group: string) => `fim-${group}`;

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
