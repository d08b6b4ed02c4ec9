import { type Kysely, sql } from 'kysely';

/**
 * Issue 16 (decision 046): user administration in both generations.
 * - A user may be BLOQUEADO (signed out and kept out until unblocked) besides ATIVO, PENDENTE
 *   (first access not done) and INATIVO (left the company).
 * - A v2 user has a mobile phone (users.celular, digits only).
 * - access_events says who did it (actor_id) and what (detalhe): user administration writes a row per
 *   change, which issue 17's access log reads with the sign-ins.
 * - user_admin_drafts: the v2 registration steps of one actor for one CPF, so a reload, or another
 *   day, resumes them.
 * - The users trigger of migration 006 also fires for the point of sale (a principal fact) and the phone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop constraint if exists users_status_check`.execute(db);
  await sql`alter table users add constraint users_status_check check (status in ('ATIVO', 'PENDENTE', 'INATIVO', 'BLOQUEADO'))`.execute(
    db,
  );
  await db.schema.alterTable('users').addColumn('celular', 'text').execute();
  await sql`create unique index users_cpf_unique on users (cpf) where cpf is not null`.execute(db);

  await db.schema
    .alterTable('access_events')
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.alterTable('access_events').addColumn('detalhe', 'text').execute();
  await db.schema.createIndex('access_events_user').on('access_events').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('user_admin_drafts')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('actor_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('cpf', 'text', (c) => c.notNull())
    .addColumn('acao', 'text', (c) => c.notNull().check(sql`acao in ('novo', 'editar')`))
    .addColumn('dados', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('user_admin_drafts_actor_cpf', ['actor_id', 'cpf', 'acao'])
    .execute();

  await sql`drop trigger if exists users_change on users`.execute(db);
  await sql
    .raw(
      `create trigger users_change after insert or update of email, nome, cpf, generation, profile, status, password_hash, company_id, point_of_sale_id, celular or delete on users for each row execute function notify_users_change()`,
    )
    .execute(db);
}
