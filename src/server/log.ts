/**
 * The server's log lines that carry text from outside — a browser's error report, a request's path,
 * an error's message that may quote what a user typed or uploaded (issue 27, decision 061).
 *
 * Each is one JSON object on one line, `{"evento": …, <fields>}`: whatever a field holds stays inside
 * its quoted string, so no text can end the line, start another or take the shape of another event.
 * Before that, every character a reader of the log would not see as itself is written as a visible
 * `<U+XXXX>`: control characters (C0, DEL, C1), line and paragraph separators, format characters —
 * the bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) that reorder what a
 * terminal shows, zero-width spaces and joiners (U+200B–U+200D, U+2060, U+FEFF), soft hyphens, tags —
 * and lone surrogates. A field longer than `MAX_FIELD` is cut, saying so.
 */
import { currentRequest } from './request-context';

/** Cc (controls), Cf (format), Zl and Zp (line and paragraph separators), Cs (a lone surrogate). */
const UNSEEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|\p{Cs}/gu;

export const MAX_FIELD = 2000;

const codePoint = (char: string) => `<U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`;

/** The text as a log shows it: unseen characters named, at most `MAX_FIELD` characters kept. */
export function visibleText(text: string): string {
  const shown = text.replace(UNSEEN, codePoint);
  return shown.length > MAX_FIELD ? `${shown.slice(0, MAX_FIELD)}… (${shown.length - MAX_FIELD} caracteres omitidos)` : shown;
}

export type LogField = string | number | boolean | null | undefined;

/** One log line: the event's name first, then its fields (undefined ones left out), every text made visible. */
export function logLine(event: string, fields: Record<string, LogField> = {}): string {
  const entries = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    // A field never takes the event's place (a key, too, may come from outside).
    .map(([key, value]) => [key === 'evento' ? '_evento' : visibleText(key), typeof value === 'string' ? visibleText(value) : value]);
  // fromEntries defines each key as the record's own, '__proto__' included.
  return JSON.stringify(Object.fromEntries([['evento', visibleText(event)], ...entries]));
}

/** An error's message as a field: what was thrown may be anything. */
export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Inside a request, its id (scripts/ops.mjs), so an event is found beside the request's own line. */
const withRequest = (fields: Record<string, LogField>): Record<string, LogField> => {
  const id = currentRequest()?.id;
  return id === undefined ? fields : { ...fields, requisicao: id };
};

/** Writes an error event to the server's log (stderr). */
export function logError(event: string, fields: Record<string, LogField> = {}): void {
  console.error(logLine(event, withRequest(fields)));
}

/** Writes a warning event to the server's log (stderr). */
export function logWarning(event: string, fields: Record<string, LogField> = {}): void {
  console.warn(logLine(event, withRequest(fields)));
}
