import { type Kysely, sql } from 'kysely';

/**
 * Issue 31, the worklist ("Pendências"): what each user has read, and the indexes its reads need.
 *   worklist_reads  one row per item a user marked read, by its key `kind:id:version` (lib/worklist.ts
 *                   itemKey) — the version is the instant the item became what it is, so an item that
 *                   changes again has a new key and is new again;
 *   worklist_seen   the instant a user last marked everything read: every item that became what it is
 *                   before it is read (so "Marcar todas" is one row, and it clears that user's rows above).
 * The indexes let each kind of item be read in its order within its window, one branch of the scope
 * each (identity/scope.ts soldWithinBranches), and stop at the kind's limit: the bell asks on every page.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table worklist_reads (
    user_id integer not null references users (id) on delete cascade,
    item_key text not null,
    read_at timestamptz not null default now(),
    primary key (user_id, item_key)
  )`.execute(db);
  await sql`create table worklist_seen (
    user_id integer primary key references users (id) on delete cascade,
    all_read_at timestamptz not null
  )`.execute(db);
  // A read mark changes what the viewer's pages show (the bell; the home, kept by the viewer memo,
  // decision 044): it says so as a change of that user, as the user's own rows do (migration 006).
  for (const table of ['worklist_reads', 'worklist_seen']) {
    await sql
      .raw(
        `create function notify_${table}_change() returns trigger language plpgsql as $$ begin perform pg_notify('portal_changes', 'user:' || coalesce(new.user_id, old.user_id)); return null; end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${table}_change after insert or update or delete on ${table} for each row execute function notify_${table}_change()`,
      )
      .execute(db);
  }
  const INDEXES: [string, string][] = [
    // Policies ending soon (renewals) read migration 039's policies_renewals_company and _user.
    // Overdue installments: the open ones by due day.
    ['installments_open_due', "installments (vencimento, id) where status = 'ABERTA'"],
    // Quotes about to expire without a proposal.
    ['quotes_open_expiry', "quotes (generation, valida_ate) where status = 'EM_ELABORACAO'"],
    ['quotes_open_expiry_company', "quotes (company_id, generation, valida_ate) where status = 'EM_ELABORACAO'"],
    ['quotes_open_expiry_user', "quotes (user_id, generation, valida_ate) where status = 'EM_ELABORACAO'"],
    // Proposals decided lately (the partner's notices), and the seller's own waiting for documents.
    ['proposals_decided', "proposals (decidida_em) where status in ('ACEITA', 'RECUSADA')"],
    ['proposals_decided_user', "proposals (user_id, decidida_em) where status in ('ACEITA', 'RECUSADA')"],
    ['proposals_waiting_user', "proposals (user_id, aceite_ate) where status = 'AGUARDANDO_DOCUMENTOS'"],
    // Notas fiscais decided, refunds to pay.
    ['notas_fiscais_decided', "notas_fiscais (company_id, decidida_em) where status in ('APROVADA', 'RECUSADA')"],
    ['refunds_owed', "refunds (prevista_para, id) where status = 'DEVIDA'"],
  ];
  for (const [name, definition] of INDEXES) await sql`create index ${sql.id(name)} on ${sql.raw(definition)}`.execute(db);
}
