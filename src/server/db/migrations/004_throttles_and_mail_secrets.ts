import { type Kysely, sql } from 'kysely';

/**
 * Issue 11. Sign-in throttles: one row per throttled subject (an account, an address) with the
 * attempts that no success has cleared and the time its next attempt may start, so a growing delay
 * can space attempts without ever locking an account (docs/decisions/027-sign-in-limits.md).
 * The mail outbox keeps the secrets of a message (reset link token, validation code) apart from its
 * bodies, which hold placeholders: clearing `segredos` redacts the message once it was sent or its
 * secret expired (docs/decisions/028-mailbox-and-secrets.md). Messages written before keep their
 * bodies as they were, so they are redacted here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('throttles')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('last_at', 'timestamptz', (c) => c.notNull())
    .addColumn('next_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('emails').addColumn('segredos', 'jsonb').execute();
  await db.schema.alterTable('emails').addColumn('redigir_em', 'timestamptz').execute();
  await sql`update emails set text_body = '[mensagem anterior à redação de segredos: removida]',
    html_body = '<p>[mensagem anterior à redação de segredos: removida]</p>'
    where template in ('redefinir-senha', 'codigo-validacao')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('emails').dropColumn('redigir_em').execute();
  await db.schema.alterTable('emails').dropColumn('segredos').execute();
  await db.schema.dropTable('throttles').execute();
}
