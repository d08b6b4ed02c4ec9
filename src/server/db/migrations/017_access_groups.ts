import { type Kysely, sql } from 'kysely';

/**
 * Issue 16 (decision 047): the groups that hold permissions, in both generations.
 * - channels: the sales channels (Portal, a retail network, brokers…) the legacy access groups are
 *   per (SPEC §2 /grupo-acesso/{grupo}/{canal}/{action}); issue 17 adds their own pages. The
 *   portal's own channel exists from the start so every group has one.
 * - permission_groups.channel_id: each legacy group belongs to a channel; its name stays unique
 *   across channels, since a legacy session's profile is the list of its group names (SPEC §3).
 * - v2_permission_groups (+ operations): the named sets of v2 operations a company gives its users;
 *   users.permission_group_id assigns one. A user's operations are the group's and their own (the
 *   principal's facts read both), so a group changed reaches its users on their next request.
 * - Change notices (migration 006): a v2 group or its operations change many principals.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('channels')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('codigo', 'text', (c) => c.notNull().unique())
    .addColumn('nome', 'text', (c) => c.notNull())
    .addColumn('tipo', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'integer', (c) => c.references('channels.id').onDelete('restrict'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('ATIVO').check(sql`status in ('ATIVO', 'INATIVO')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`insert into channels (codigo, nome, tipo) values ('portal', 'Portal de Parceiros', 'DIGITAL')`.execute(db);

  await db.schema
    .alterTable('permission_groups')
    .addColumn('channel_id', 'integer', (c) => c.references('channels.id').onDelete('restrict'))
    .execute();
  await sql`update permission_groups set channel_id = (select id from channels where codigo = 'portal')`.execute(db);
  await sql`alter table permission_groups alter column channel_id set not null`.execute(db);

  await db.schema
    .createTable('v2_permission_groups')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('nome', 'text', (c) => c.notNull())
    .addColumn('descricao', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index v2_permission_groups_name on v2_permission_groups (company_id, lower(nome))`.execute(db);
  await db.schema
    .createTable('v2_permission_group_operations')
    .addColumn('group_id', 'integer', (c) => c.notNull().references('v2_permission_groups.id').onDelete('cascade'))
    .addColumn('operation', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('v2_permission_group_operations_pk', ['group_id', 'operation'])
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('permission_group_id', 'integer', (c) => c.references('v2_permission_groups.id').onDelete('restrict'))
    .execute();
  await db.schema.createIndex('users_permission_group').on('users').column('permission_group_id').execute();

  for (const table of ['v2_permission_groups', 'v2_permission_group_operations', 'channels']) {
    await sql
      .raw(
        `create function notify_${table}_change() returns trigger language plpgsql as $$ begin perform pg_notify('portal_changes', 'principals'); return null; end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${table}_change after insert or update or delete on ${table} for each row execute function notify_${table}_change()`,
      )
      .execute(db);
  }
  await sql`drop trigger if exists users_change on users`.execute(db);
  await sql
    .raw(
      `create trigger users_change after insert or update of email, nome, cpf, generation, profile, status, password_hash, company_id, point_of_sale_id, celular, permission_group_id or delete on users for each row execute function notify_users_change()`,
    )
    .execute(db);
}
