import { type Kysely, sql } from 'kysely';

/**
 * Issue 32: a second factor at sign-in (decision 068).
 *
 *   user_factors        what a user proves themselves with after the password: a TOTP app (its secret
 *                       sealed with SECOND_FACTOR_KEY, and the last time step accepted, so a code is
 *                       good once) or a passkey (WebAuthn credential: id, public key, signature count).
 *   recovery_codes      ten single-use codes per user, stored as SHA-256 of high-entropy secrets.
 *   trusted_devices     "lembrar este dispositivo": a browser that proved the second factor skips it
 *                       for 30 days (the cookie holds the secret, the table its hash).
 *   sign_in_challenges  the step between the password and the session: a short-lived secret that
 *                       grants nothing but the second-factor step of the generation it was opened for
 *                       (never a session — no route takes it), with its enrolment state and attempts.
 *   sessions.second_factor   whether the session's sign-in proved a second factor (a code, a recovery
 *                       code, a passkey or a remembered browser). A session of a user the policy
 *                       requires without it is refused — the sessions from before this migration,
 *                       and those of a user promoted to administrator since they signed in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table user_factors (
    id serial primary key,
    user_id integer not null references users (id) on delete cascade,
    kind text not null check (kind in ('totp', 'passkey')),
    label text not null,
    totp_secret text,
    totp_last_step integer, -- a 30-second step: fits until the year 4000, and comes back a number from both drivers
    credential_id text unique,
    public_key text,
    sign_count bigint not null default 0,
    transports text,
    created_at timestamptz not null default now(),
    last_used_at timestamptz,
    check ((kind = 'totp') = (totp_secret is not null)),
    check ((kind = 'passkey') = (credential_id is not null and public_key is not null))
  )`.execute(db);
  await sql`create index user_factors_user on user_factors (user_id)`.execute(db);
  // One authenticator app per account: enrolling again replaces it.
  await sql`create unique index user_factors_one_totp on user_factors (user_id) where kind = 'totp'`.execute(db);

  await sql`create table recovery_codes (
    id serial primary key,
    user_id integer not null references users (id) on delete cascade,
    code_hash text not null,
    used_at timestamptz,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index recovery_codes_user on recovery_codes (user_id, code_hash)`.execute(db);

  await sql`create table trusted_devices (
    id serial primary key,
    user_id integer not null references users (id) on delete cascade,
    token_hash text not null unique,
    user_agent text,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    last_used_at timestamptz,
    revoked_at timestamptz
  )`.execute(db);
  await sql`create index trusted_devices_user on trusted_devices (user_id)`.execute(db);

  await sql`create table sign_in_challenges (
    id serial primary key,
    token_hash text not null unique,
    user_id integer not null references users (id) on delete cascade,
    generation text not null check (generation in ('v1', 'v2')),
    purpose text not null check (purpose in ('verificar', 'cadastrar')),
    via text not null check (via in ('LOGIN', 'SSO')),
    pending_totp_secret text,
    webauthn_challenge text,
    attempts integer not null default 0,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    completed_at timestamptz
  )`.execute(db);
  await sql`create index sign_in_challenges_expiry on sign_in_challenges (expires_at)`.execute(db);

  await sql`alter table sessions add column second_factor boolean not null default false`.execute(db);
}
