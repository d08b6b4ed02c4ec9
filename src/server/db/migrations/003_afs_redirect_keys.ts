import { type Kysely, sql } from 'kysely';

/**
 * The AFS redirect (issue 6): its one-time key (chaveBroto) is a one_time_codes row of purpose
 * REDIRECT_AFS, so the purpose check of 001 learns the new value. The old agricultural simulator now
 * starts at a portal page that performs the form POST (docs/decisions/020-afs-redirect.md); a
 * database seeded before keeps the API path as its start URL, so it moves along unless an admin
 * already chose another one.
 */
const OLD_AFS_START = '/api/plataforma/v1/simuladores/redirect?tipo=AFS';
const NEW_AFS_START = '/simulador-agricola-antigo';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table one_time_codes drop constraint if exists one_time_codes_purpose_check`.execute(db);
  await sql`alter table one_time_codes add constraint one_time_codes_purpose_check
    check (purpose in ('RESET', 'PRIMEIRO_ACESSO', 'SSO', 'REDIRECT_AFS'))`.execute(db);
  await sql`update simulators set url_inicio = ${NEW_AFS_START} where code = 'AFS' and url_inicio = ${OLD_AFS_START}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update simulators set url_inicio = ${OLD_AFS_START} where code = 'AFS' and url_inicio = ${NEW_AFS_START}`.execute(db);
  await sql`delete from one_time_codes where purpose = 'REDIRECT_AFS'`.execute(db);
  await sql`alter table one_time_codes drop constraint if exists one_time_codes_purpose_check`.execute(db);
  await sql`alter table one_time_codes add constraint one_time_codes_purpose_check
    check (purpose in ('RESET', 'PRIMEIRO_ACESSO', 'SSO'))`.execute(db);
}
