import { sql } from 'kysely';
import type { DB } from '../db';
import { now } from '../clock';

/**
 * How much work waits in the job queues, for the metrics (scripts/ops.mjs reads it at each scrape):
 * e-mails not yet sent nor given up (mail/outbox.ts: without SMTP_URL none leaves), sales reports waiting or being made, user imports confirmed and not
 * done. One statement; each count walks the queue's partial index and stops at COUNT_CAP rows, each
 * oldest row is the first of that index — the cost does not grow with the tables.
 */
export interface QueueDepth {
  depth: number;
  /** Seconds since the oldest waiting item was queued (by the portal's clock); 0 when none waits. */
  oldestSeconds: number;
}

/** A count stops here: a queue this deep is an alarm whatever its exact size. */
export const COUNT_CAP = 100_000;

interface Row {
  emails: number;
  emails_since: Date | null;
  reports: number;
  reports_since: Date | null;
  imports: number;
  imports_since: Date | null;
}

export async function queueDepths(db: DB): Promise<Record<'emails' | 'reports' | 'imports', QueueDepth>> {
  const { rows } = await sql<Row>`
    select
      (select count(*)::int from (select 1 from emails where sent_at is null and falhou_em is null limit ${COUNT_CAP}) q) as emails,
      (select min(created_at) from (select created_at from emails where sent_at is null and falhou_em is null limit ${COUNT_CAP}) q) as emails_since,
      (select count(*)::int from (select 1 from sales_reports where status in ('NA_FILA', 'GERANDO') limit ${COUNT_CAP}) q) as reports,
      (select created_at from sales_reports where status in ('NA_FILA', 'GERANDO') order by id limit 1) as reports_since,
      (select count(*)::int from (select 1 from user_imports where status in ('NA_FILA', 'PROCESSANDO') limit ${COUNT_CAP}) q) as imports,
      (select coalesce(confirmed_at, created_at) from user_imports where status in ('NA_FILA', 'PROCESSANDO') order by id limit 1) as imports_since
  `.execute(db);
  const row = rows[0]!;
  const at = now().getTime();
  const age = (since: Date | null) => (since ? Math.max(0, (at - new Date(since).getTime()) / 1000) : 0);
  return {
    emails: { depth: row.emails, oldestSeconds: age(row.emails_since) },
    reports: { depth: row.reports, oldestSeconds: age(row.reports_since) },
    imports: { depth: row.imports, oldestSeconds: age(row.imports_since) },
  };
}
