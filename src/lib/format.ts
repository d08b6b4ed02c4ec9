/** pt-BR formatting shared by pages, islands and e-mails. Dates are shown in Brasília time. */
const dateTime = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Sao_Paulo',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** '22/11/2026 14:05' — the form of `dataUltimoAcessoFormatada`. */
export const formatDateTime = (date: Date): string => dateTime.format(date).replace(', ', ' ');

const dateTimeSeconds = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Sao_Paulo',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** '22/11/2026 14:05:09' in Brasília time: when a second matters (the access log). */
export const formatDateTimeSeconds = (date: Date): string => dateTimeSeconds.format(date).replace(', ', ' ');

const dateOnly = new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', day: '2-digit', month: '2-digit', year: 'numeric' });

/** '22/11/2026' in Brasília time. */
export const formatDate = (date: Date | string): string => dateOnly.format(typeof date === 'string' ? new Date(date) : date);

/** An ISO calendar date ('2026-12-10') as '10/12/2026', with no time-zone shift. */
export const formatIsoDate = (iso: string): string => iso.slice(0, 10).split('-').reverse().join('/');

const isoDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The calendar day in Brasília as 'YYYY-MM-DD' (the day a quote was made, for age factors). */
export const brasiliaDay = (date: Date | string): string => isoDay.format(typeof date === 'string' ? new Date(date) : date);

/**
 * A count with its noun in pt-BR singular or plural: `plural(1, 'código restante', 'códigos restantes')`
 * is '1 código restante', 0 and 2+ take the plural ('0 códigos restantes'), as Portuguese does.
 */
export const plural = (count: number, one: string, many: string): string => `${count.toLocaleString('pt-BR')} ${count === 1 ? one : many}`;

/** A wait in words: '40 segundos', '1 minuto', '10 minutos' (whole minutes, rounded up, from a minute on). */
export const formatWait = (seconds: number): string =>
  seconds < 60 ? plural(Math.max(1, Math.ceil(seconds)), 'segundo', 'segundos') : plural(Math.ceil(seconds / 60), 'minuto', 'minutos');
