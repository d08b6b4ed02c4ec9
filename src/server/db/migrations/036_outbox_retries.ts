import { type Kysely, sql } from 'kysely';

/**
 * Issue 30: every e-mail is delivered by the job (mail/outbox.ts deliverQueued), leased with SKIP
 * LOCKED, retried with a growing pause and given up after a number of attempts — before, a message
 * sent from a request was tried once in-process (lost if the process died mid-send) and a failure
 * was never tried again.
 *   tentativas  attempts claimed so far (a claim counts: a message whose sending kills the process
 *               still reaches the limit);
 *   tentar_em   not before this instant (written with the message, pushed back after a failure);
 *   falhou_em   given up: the last attempt failed, or the message waited too long to be sent.
 * `reservado_ate` stays the lease; `error` the last failure; `fila` is true for every message now.
 *
 * Rows already there: a failure of the old code was never retried, and is not now (given up, one
 * attempt); an unsent message waits like a new one (a crash lost it, or no SMTP is configured — the
 * job gives up on what is older than a day instead of sending it late).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table emails
    add column tentativas integer not null default 0,
    add column tentar_em timestamptz,
    add column falhou_em timestamptz`.execute(db);
  await sql`update emails set tentar_em = created_at`.execute(db);
  await sql`alter table emails alter column tentar_em set not null, alter column tentar_em set default now(), alter column fila set default true`.execute(
    db,
  );
  await sql`update emails set tentativas = 1, falhou_em = created_at where sent_at is null and error is not null`.execute(db);
  await sql`update emails set fila = true where not fila and sent_at is null`.execute(db);
  // The claim reads the unsent messages whose turn came, in that order (the lease is a filter on them).
  await sql`drop index emails_queued`.execute(db);
  await sql`create index emails_due on emails (tentar_em, id) where sent_at is null and falhou_em is null`.execute(db);
}
