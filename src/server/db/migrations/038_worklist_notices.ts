import { type Kysely, sql } from 'kysely';

/**
 * Issue 31 (the live worklist): the records a worklist shows say on `portal_changes` when they change
 * or appear, so a viewer's open stream (server/api/live-worklist.ts) counts again — on whichever
 * instance the viewer is connected to. The payloads (lib/worklist-notices.ts) name whose records
 * changed, not which: a bulk write (the demo seed, `npm run scale`) repeats a handful of them, and
 * PostgreSQL keeps one of each identical payload per transaction.
 *   proposals       insert, status  → the sale (the quote's company, the seller) and the staff's queue;
 *   policies        insert, status  → the sale;
 *   installments    status, paga_em → the sale of its policy (their insert rides on the policy's notice:
 *                                     the same payload, in the same transaction);
 *   sales_reports   insert, status  → the report's user;    user_imports  → the import's author;
 *   notas_fiscais   insert, status  → the nota's company;   refunds       → the staff.
 * An update that leaves the status as it was sends nothing (each update trigger's WHEN).
 * No cache holds these records: server/cache.ts ignores the notices (server/db/changes.ts).
 */
const CHANNEL = 'portal_changes';

const SALE = (company: string, seller: string) => `'worklist:venda:' || coalesce(${company}::text, '') || ':' || ${seller}`;

/** table → the body that computes and sends its notices (PL/pgSQL; `c` and `s` are free integer variables), the status columns. */
const NOTICES: Record<string, { body: string; columns: string[]; onInsert: boolean }> = {
  proposals: {
    body: `select q.company_id into c from quotes q where q.id = new.quote_id;
      perform pg_notify('${CHANNEL}', ${SALE('c', 'new.user_id')});
      perform pg_notify('${CHANNEL}', 'worklist:equipe');`,
    columns: ['status'],
    onInsert: true,
  },
  policies: {
    body: `perform pg_notify('${CHANNEL}', ${SALE('new.company_id', 'new.user_id')});`,
    columns: ['status'],
    onInsert: true,
  },
  installments: {
    body: `select p.company_id, p.user_id into c, s from policies p where p.id = new.policy_id;
      perform pg_notify('${CHANNEL}', ${SALE('c', 's')});`,
    columns: ['status', 'paga_em'],
    onInsert: false,
  },
  sales_reports: { body: `perform pg_notify('${CHANNEL}', 'worklist:usuario:' || new.user_id);`, columns: ['status'], onInsert: true },
  user_imports: { body: `perform pg_notify('${CHANNEL}', 'worklist:usuario:' || new.actor_id);`, columns: ['status'], onInsert: true },
  notas_fiscais: { body: `perform pg_notify('${CHANNEL}', 'worklist:empresa:' || new.company_id);`, columns: ['status'], onInsert: true },
  refunds: { body: `perform pg_notify('${CHANNEL}', 'worklist:equipe');`, columns: ['status'], onInsert: true },
};

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, { body, columns, onInsert }] of Object.entries(NOTICES)) {
    await sql
      .raw(
        `create function notify_${table}_worklist() returns trigger language plpgsql as $$ declare c integer; s integer; begin ${body} return null; end $$`,
      )
      .execute(db);
    const changed = columns.map((column) => `old.${column} is distinct from new.${column}`).join(' or ');
    await sql
      .raw(
        `create trigger ${table}_worklist_update after update of ${columns.join(', ')} on ${table} for each row when (${changed}) execute function notify_${table}_worklist()`,
      )
      .execute(db);
    if (onInsert)
      await sql
        .raw(`create trigger ${table}_worklist_insert after insert on ${table} for each row execute function notify_${table}_worklist()`)
        .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of Object.keys(NOTICES)) {
    await sql.raw(`drop trigger if exists ${table}_worklist_update on ${table}`).execute(db);
    await sql.raw(`drop trigger if exists ${table}_worklist_insert on ${table}`).execute(db);
    await sql.raw(`drop function if exists notify_${table}_worklist()`).execute(db);
  }
}
