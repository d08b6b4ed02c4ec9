import { type Kysely, sql } from 'kysely';

/**
 * Issue 12. The database says when what a signed-in request caches changes, so every instance can
 * keep sessions, principals and the offer catalog in memory and drop them the moment they change
 * — whoever wrote (a service, another instance, an operator's SQL). Each trigger sends a NOTIFY on
 * `portal_changes` (server/db/changes.ts reads it):
 *   'user:<id>'   a user's row, sessions, groups, operations or companies changed;
 *   'principals'  what many users' principals are made of changed (a group's permissions, a company);
 *   'offers'      the offer catalog changed (offers, simulators, companies).
 * Writes that no cache holds stay silent: a session's last_seen_at, a user's last access.
 * Notifications of one transaction arrive after it commits, identical ones once.
 */
const CHANNEL = 'portal_changes';

const byUser = (row: string) => `'user:' || coalesce(new.${row}, old.${row})`;

/** table → the notifications a change of one of its rows sends, and the columns whose update matters (all when absent). */
const TRIGGERS: Record<string, { payloads: string[]; columns?: string[] }> = {
  users: {
    payloads: [byUser('id')],
    columns: ['email', 'nome', 'cpf', 'generation', 'profile', 'status', 'password_hash', 'company_id'],
  },
  sessions: { payloads: [byUser('user_id')], columns: ['token_hash', 'user_id', 'kind', 'parent_id', 'expires_at', 'revoked_at'] },
  user_groups: { payloads: [byUser('user_id')] },
  user_operations: { payloads: [byUser('user_id')] },
  user_companies: { payloads: [byUser('user_id')] },
  permission_groups: { payloads: [`'principals'`] },
  group_permissions: { payloads: [`'principals'`] },
  // A company names a principal's companies and an offer's company.
  companies: { payloads: [`'principals'`, `'offers'`] },
  offers: { payloads: [`'offers'`] },
  simulators: { payloads: [`'offers'`] },
};

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, { payloads, columns }] of Object.entries(TRIGGERS)) {
    const notify = payloads.map((payload) => `perform pg_notify('${CHANNEL}', ${payload});`).join(' ');
    await sql
      .raw(`create function notify_${table}_change() returns trigger language plpgsql as $$ begin ${notify} return null; end $$`)
      .execute(db);
    const update = columns ? `update of ${columns.join(', ')}` : 'update';
    await sql
      .raw(
        `create trigger ${table}_change after insert or ${update} or delete on ${table} for each row execute function notify_${table}_change()`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of Object.keys(TRIGGERS)) {
    await sql.raw(`drop trigger if exists ${table}_change on ${table}`).execute(db);
    await sql.raw(`drop function if exists notify_${table}_change()`).execute(db);
  }
}
