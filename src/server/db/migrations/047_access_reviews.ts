import { type Kysely, sql } from 'kysely';

/**
 * Issue 32, "reviews" (decision 071): imports that can be undone, access reviews, grants that end.
 *
 *   user_import_changes   what each confirmed import did to each account: created (the state it left)
 *                         or updated (the state before and the state it left), so an undo restores
 *                         only what still is as the import left it.
 *   user_imports          undone_at / undone_by: set once, by a conditional update (a second click or
 *                         another instance finds it set and undoes nothing).
 *   users_last_seen       the access review reads users idle for 90 days in order of their last sign-in
 *                         (never signed in: since their creation), a keyset page at a time.
 *   ends_at               a grant's end: a legacy user's access group, a v2 user's permission group, a
 *                         group's permission (legacy) or operation (v2). Past it the grant no longer
 *                         counts (read time); the sweep then removes it and logs "acesso expirado".
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_import_changes')
    .addColumn('import_id', 'integer', (c) => c.notNull().references('user_imports.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('line', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('criado', 'atualizado')`))
    .addColumn('before', 'jsonb')
    .addColumn('after', 'jsonb', (c) => c.notNull())
    .addColumn('undo', 'text', (c) => c.check(sql`undo in ('desativado', 'restaurado', 'mantido')`))
    .addColumn('undo_reason', 'text')
    .addPrimaryKeyConstraint('user_import_changes_pk', ['import_id', 'user_id'])
    .execute();
  await db.schema.alterTable('user_imports').addColumn('undone_at', 'timestamptz').execute();
  await db.schema
    .alterTable('user_imports')
    .addColumn('undone_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();

  await sql`create index users_last_seen on users (generation, (coalesce(last_access_at, created_at)), id) where status in ('ATIVO', 'PENDENTE')`.execute(
    db,
  );

  await db.schema.alterTable('user_groups').addColumn('ends_at', 'timestamptz').execute();
  await db.schema.alterTable('users').addColumn('permission_group_ends_at', 'timestamptz').execute();
  await db.schema.alterTable('group_permissions').addColumn('ends_at', 'timestamptz').execute();
  await db.schema.alterTable('v2_permission_group_operations').addColumn('ends_at', 'timestamptz').execute();
  // The sweep finds what ended without reading every grant.
  await sql`create index user_groups_ends on user_groups (ends_at) where ends_at is not null`.execute(db);
  await sql`create index users_permission_group_ends on users (permission_group_ends_at) where permission_group_ends_at is not null`.execute(
    db,
  );
  await sql`create index group_permissions_ends on group_permissions (ends_at) where ends_at is not null`.execute(db);
  await sql`create index v2_permission_group_operations_ends on v2_permission_group_operations (ends_at) where ends_at is not null`.execute(
    db,
  );
}
