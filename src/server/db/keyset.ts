import { sql } from 'kysely';

/*
 * Keyset paging over (a timestamptz, an id) — the exports that stream a period in batches. The key's
 * time is carried as the database keeps it, to the microsecond, as text: a JS Date keeps
 * milliseconds, so a key truncated to them reads the rows of that millisecond again, or skips them
 * walking backwards — forever or silently when rows share an instant written by SQL (an import, a
 * migration, an operator's fix; issue 29).
 */

/** A timestamptz column as exact ISO text, for the key of the last row read. */
export const exactInstant = (column: string) =>
  sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The rows past the key in (time, id) order: after it ascending, before it descending. */
export const pastKey = (timeColumn: string, idColumn: string, key: { time: string; id: number }, order: 'asc' | 'desc') =>
  order === 'asc'
    ? sql<boolean>`(${sql.ref(timeColumn)}, ${sql.ref(idColumn)}) > (${key.time}::timestamptz, ${key.id})`
    : sql<boolean>`(${sql.ref(timeColumn)}, ${sql.ref(idColumn)}) < (${key.time}::timestamptz, ${key.id})`;
