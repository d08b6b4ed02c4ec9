import { type Kysely, sql } from 'kysely';

/**
 * Issue 17 (decision 049): the access log.
 * - access_events says for which company a thing happened (company_id: the company the user acted
 *   for, or the user's own) and which record it concerned (registro_tipo, registro: a policy, quote,
 *   proposal, document or report number — never a CPF). No foreign key on the company: a log outlives
 *   what it names, and a referential action would be an UPDATE, which the log refuses.
 * - Indexes for the log's filters, newest first: period, event, company, actor, record.
 * - Append-only: a trigger refuses every UPDATE, DELETE and TRUNCATE, whoever sends it, but the
 *   retention purge's DELETE of rows older than the cut-off it sets for its own transaction
 *   (`portal.access_log_purge_before`, set with set_config(…, true), so it ends with the transaction).
 *   Consequence: a user with log rows cannot be deleted (their rows would be set to null) — users are
 *   deactivated, never deleted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('access_events').addColumn('company_id', 'integer').execute();
  await db.schema.alterTable('access_events').addColumn('registro_tipo', 'text').execute();
  await db.schema.alterTable('access_events').addColumn('registro', 'text').execute();
  // What was logged before knows its user: their company is the best that can be said of it.
  await sql`update access_events e set company_id = u.company_id from users u where u.id = e.user_id`.execute(db);

  await db.schema.createIndex('access_events_created').on('access_events').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('access_events_event').on('access_events').columns(['event', 'created_at']).execute();
  await db.schema.createIndex('access_events_company').on('access_events').columns(['company_id', 'created_at']).execute();
  await db.schema.createIndex('access_events_actor').on('access_events').columns(['actor_id', 'created_at']).execute();
  // A view of several records (a payments lookup) names them all: 'n1, n2'. The filter asks the array.
  await sql`create index access_events_registro on access_events using gin ((string_to_array(registro, ', ')))`.execute(db);

  await sql
    .raw(
      `create or replace function access_events_append_only() returns trigger language plpgsql as $$
      declare
        purge_before timestamptz := nullif(current_setting('portal.access_log_purge_before', true), '')::timestamptz;
      begin
        if tg_op = 'DELETE' and purge_before is not null then
          if old.created_at < purge_before then
            return old;
          end if;
        end if;
        raise exception 'O log de acesso só recebe inclusões: % recusado.', tg_op using errcode = '42501';
      end $$`,
    )
    .execute(db);
  await sql`create trigger access_events_append_only before update or delete on access_events
    for each row execute function access_events_append_only()`.execute(db);
  await sql`create trigger access_events_no_truncate before truncate on access_events
    for each statement execute function access_events_append_only()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists access_events_no_truncate on access_events`.execute(db);
  await sql`drop trigger if exists access_events_append_only on access_events`.execute(db);
  await sql`drop function if exists access_events_append_only()`.execute(db);
  for (const index of [
    'access_events_registro',
    'access_events_actor',
    'access_events_company',
    'access_events_event',
    'access_events_created',
  ])
    await db.schema.dropIndex(index).ifExists().execute();
  for (const column of ['registro', 'registro_tipo', 'company_id'])
    await db.schema.alterTable('access_events').dropColumn(column).execute();
}
