import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { DB } from '../../db';
import type { User } from '../../db/schema';
import { seal, unseal } from '../../auth/secret-box';
import { now, nowMs } from '../../clock';
import { invalid } from '../../errors';
import { SECOND_FACTOR_MESSAGES, TOTP_ISSUER } from '../../../lib/second-factor';
import { appendAccessEvent } from './access-log';
import { countAnswer, countWrongAnswer, rightAnswer, type OpenChallenge } from './second-factor';

/**
 * Passkeys (WebAuthn, with @simplewebauthn/server — decision 068): registered from the profile or at
 * the enrolment step, and used at the second step of sign-in. The relying party is the site the
 * browser is on: its origin comes from the request's Origin header, which the pipeline has already
 * checked is one of the portal's own (a cross-site POST never gets here).
 */

/** Where the browser is: the origin its ceremony is bound to, and the relying party id (its host name). */
export interface RelyingParty {
  origin: string;
  id: string;
}

export function relyingPartyOf(request: Request): RelyingParty {
  const origin = request.headers.get('origin');
  if (!origin || !URL.canParse(origin)) throw invalid('Chaves de acesso só podem ser usadas pelo navegador, no próprio portal.');
  return { origin, id: new URL(origin).hostname };
}

const passkeysOf = (db: DB, userId: number) =>
  db
    .selectFrom('user_factors')
    .select(['id', 'credential_id', 'public_key', 'sign_count', 'transports', 'label', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'passkey')
    .orderBy('id')
    .execute();

const transportsOf = (value: string | null) => (value ? value.split(',') : undefined);

// A registration's challenge travels sealed with its user and deadline: nothing to store, nothing to forge.
const REGISTRATION_MINUTES = 5;

/** The options for `navigator.credentials.create`, and the sealed state the answer must bring back. */
export async function registrationOptions(db: DB, user: User, rp: RelyingParty) {
  const options = await generateRegistrationOptions({
    rpName: TOTP_ISSUER,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.nome,
    userID: new TextEncoder().encode(`portal-user-${user.id}`),
    attestationType: 'none',
    excludeCredentials: (await passkeysOf(db, user.id)).map((p) => ({ id: p.credential_id!, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  const state = seal(JSON.stringify({ userId: user.id, challenge: options.challenge, until: nowMs() + REGISTRATION_MINUTES * 60_000 }));
  return { options, state };
}

/** Verifies a new passkey against its sealed state and keeps it as a factor of the user. */
export async function registerPasskey(
  db: DB,
  user: User,
  rp: RelyingParty,
  input: { state: string; response: RegistrationResponseJSON; label: string },
  ip: string,
): Promise<void> {
  let state: { userId: number; challenge: string; until: number };
  try {
    state = JSON.parse(unseal(input.state));
  } catch {
    throw invalid(SECOND_FACTOR_MESSAGES.passkeyFailed);
  }
  if (state.userId !== user.id || state.until < nowMs()) throw invalid(SECOND_FACTOR_MESSAGES.passkeyFailed);
  const verification = await verifyRegistrationResponse({
    response: input.response,
    expectedChallenge: state.challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: false,
  }).catch(() => ({ verified: false as const }));
  if (!verification.verified) throw invalid(SECOND_FACTOR_MESSAGES.passkeyFailed);
  const { credential } = verification.registrationInfo;
  const inserted = await db
    .insertInto('user_factors')
    .values({
      user_id: user.id,
      kind: 'passkey',
      label: input.label,
      credential_id: credential.id,
      public_key: Buffer.from(credential.publicKey).toString('base64url'),
      sign_count: credential.counter,
      transports: credential.transports?.join(',') ?? null,
    })
    .onConflict((oc) => oc.column('credential_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) throw invalid('Esta chave de acesso já está cadastrada.');
  // A first factor comes with its recovery codes, as the app's does.
  await appendAccessEvent(db, {
    event: 'SEGUNDO_FATOR_CADASTRADO',
    generation: user.generation,
    email: user.email,
    userId: user.id,
    ip,
    detalhe: `Chave de acesso: ${input.label}`,
  });
}

/** The options for `navigator.credentials.get` at the second step; the challenge is kept on the sign-in's. */
export async function authenticationOptions(db: DB, challenge: OpenChallenge, rp: RelyingParty) {
  const passkeys = await passkeysOf(db, challenge.user.id);
  if (passkeys.length === 0) throw invalid('Nenhuma chave de acesso cadastrada para esta conta.');
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: passkeys.map((p) => ({ id: p.credential_id!, transports: transportsOf(p.transports) as never })),
    userVerification: 'preferred',
  });
  await db.updateTable('sign_in_challenges').set({ webauthn_challenge: options.challenge }).where('id', '=', challenge.id).execute();
  return options;
}

/**
 * A passkey's answer to the challenge's ceremony. Its signature counter must move on (a cloned
 * authenticator replays an old one); the ceremony's challenge is used once.
 */
export async function provePasskey(
  db: DB,
  challenge: OpenChallenge,
  rp: RelyingParty,
  response: AuthenticationResponseJSON,
  ip: string,
): Promise<void> {
  const counted = await countAnswer(db, challenge.user, ip);
  if (!(await passkeyAnswers(db, challenge, rp, response)))
    await countWrongAnswer(db, challenge, SECOND_FACTOR_MESSAGES.passkeyFailed, counted);
  await rightAnswer(db, challenge.user, ip);
}

async function passkeyAnswers(db: DB, challenge: OpenChallenge, rp: RelyingParty, response: AuthenticationResponseJSON): Promise<boolean> {
  if (!challenge.webauthnChallenge) return false;
  await db.updateTable('sign_in_challenges').set({ webauthn_challenge: null }).where('id', '=', challenge.id).execute();
  const passkey = (await passkeysOf(db, challenge.user.id)).find((p) => p.credential_id === response.id);
  if (!passkey) return false;
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge.webauthnChallenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: {
      id: passkey.credential_id!,
      publicKey: new Uint8Array(Buffer.from(passkey.public_key!, 'base64url')),
      counter: Number(passkey.sign_count),
      transports: transportsOf(passkey.transports),
    },
    requireUserVerification: false,
  }).catch(() => ({ verified: false, authenticationInfo: undefined }));
  if (!verification.verified || !verification.authenticationInfo) return false;
  await db
    .updateTable('user_factors')
    .set({ sign_count: verification.authenticationInfo.newCounter, last_used_at: now() })
    .where('id', '=', passkey.id)
    .execute();
  return true;
}
