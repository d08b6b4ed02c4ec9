import { type Kysely, sql } from 'kysely';

/**
 * Issue 42 (decision 075): a renewal cancelled from its first day never continued the policy it
 * renews, which may then be renewed again — so one policy may be renewed by a cancelled renewal and
 * by the one after it. The one-renewal-per-policy index counts only renewals not cancelled.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index policies_renewing`.execute(db);
  await sql`create unique index policies_renewing on policies (renova_policy_id)
    where renova_policy_id is not null and status <> 'CANCELADA'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index policies_renewing`.execute(db);
  await sql`create unique index policies_renewing on policies (renova_policy_id) where renova_policy_id is not null`.execute(db);
}
