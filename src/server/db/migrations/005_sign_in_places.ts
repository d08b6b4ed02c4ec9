import type { Kysely } from 'kysely';

/**
 * Issue 11 (attack replay): the places — account and address — an account signed in from. A
 * distributed guesser keeps the account's throttle busy; the owner at a place they signed in from
 * before is not slowed by it (docs/decisions/027-sign-in-limits.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sign_in_places')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('last_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('sign_in_places_pk', ['email', 'ip'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sign_in_places').execute();
}
