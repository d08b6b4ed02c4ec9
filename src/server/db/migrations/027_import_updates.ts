import { type Kysely, sql } from 'kysely';

/**
 * Issue 27 (decision 060): an import creates only, unless its author asks at the confirmation to
 * update the existing accounts whose changes the validation showed.
 * - user_imports.update_existing: what the author chose when confirming (false: rows of existing
 *   accounts with changes are skipped).
 * - user_import_rows.result gains 'ignorado': an existing account left as it is.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('user_imports')
    .addColumn('update_existing', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`alter table user_import_rows drop constraint if exists user_import_rows_result_check`.execute(db);
  await sql`alter table user_import_rows add constraint user_import_rows_result_check
    check (result in ('criado', 'atualizado', 'sem_alteracao', 'ignorado', 'recusado'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table user_import_rows drop constraint if exists user_import_rows_result_check`.execute(db);
  await sql`update user_import_rows set result = 'recusado' where result = 'ignorado'`.execute(db);
  await sql`alter table user_import_rows add constraint user_import_rows_result_check
    check (result in ('criado', 'atualizado', 'sem_alteracao', 'recusado'))`.execute(db);
  await db.schema.alterTable('user_imports').dropColumn('update_existing').execute();
}
