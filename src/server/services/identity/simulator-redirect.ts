import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DB } from '../../db';
import type { CodePurpose } from '../../db/schema';
import { afsRedirectUrl, config } from '../../config';
import { z } from '../../../lib/zod';
import { consumeCode, issueCode } from './codes';
import { now as clockNow } from '../../clock';

/**
 * The external simulator redirect (SPEC §7, docs/decisions/020-afs-redirect.md). The portal hands
 * the browser a one-time key (chaveBroto) and an app token (tokenApp); the browser form-POSTs both
 * to the configured link, whose receiver checks the token and then consumes the key once.
 *
 * - chaveBroto: 256 random bits, stored only as SHA-256 in one_time_codes, bound to the user (the
 *   row's user_id) and to the simulator type (one purpose per type), valid for 2 minutes, consumed by
 *   a single conditional UPDATE (codes.ts). Issuing a new one retires the user's earlier keys.
 * - tokenApp: `{APP_NAME}.{HMAC-SHA256(secret, APP_NAME, tipo, chaveBroto)}` — it names the calling
 *   application and proves that application issued this very key for this type. A receiver holding
 *   the secret verifies it without a database; a tampered or borrowed token fails.
 * Neither value is ever logged.
 */

/** The one_time_codes purpose of each external simulator type. */
export const REDIRECT_PURPOSE: Readonly<Record<string, CodePurpose>> = { AFS: 'REDIRECT_AFS' };

// Without REDIRECT_APP_SECRET a random secret lives as long as the process: enough for one server
// and its built-in receiver; several instances or an external receiver need the shared setting.
let processSecret: string | undefined;
function appSecret(): string {
  processSecret ??= randomBytes(32).toString('base64url');
  return config().REDIRECT_APP_SECRET ?? processSecret;
}

const signature = (app: string, tipo: string, chaveBroto: string) =>
  createHmac('sha256', appSecret()).update(`${app}\n${tipo}\n${chaveBroto}`).digest('base64url');

export function appToken(tipo: string, chaveBroto: string): string {
  const app = config().APP_NAME;
  return `${app}.${signature(app, tipo, chaveBroto)}`;
}

/** True when the token was issued by this portal (APP_NAME) for this key and type. */
export function verifyAppToken(token: string, tipo: string, chaveBroto: string): boolean {
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return false;
  const app = token.slice(0, dot);
  if (app !== config().APP_NAME) return false;
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(signature(app, tipo, chaveBroto));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** 'Bearer abc' → 'abc'; a bare token is accepted as it is (some clients omit the scheme). */
export function bearerToken(authorization: string | null | undefined): string | undefined {
  const value = authorization?.trim();
  if (!value) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(value);
  if (match) return match[1];
  return /\s/.test(value) || /^bearer$/i.test(value) ? undefined : value;
}

export interface RedirectAnswer {
  link: string;
  chaveBroto: string;
  tokenApp: string;
}

/** GET /v1/simuladores/redirect: a fresh key for this user and type, its app token and the link. */
export async function issueRedirect(db: DB, userId: number, tipo: string): Promise<RedirectAnswer> {
  const purpose = REDIRECT_PURPOSE[tipo];
  if (!purpose) throw new Error(`Tipo sem redirecionamento: ${tipo}`);
  const { secret } = await issueCode(db, userId, purpose);
  return { link: afsRedirectUrl(), chaveBroto: secret, tokenApp: appToken(tipo, secret) };
}

export type ReceivedRedirect =
  | { ok: true; userName: string; simulatorName: string; receivedAt: Date }
  | { ok: false; reason: 'token' | 'invalid' | 'expired' | 'used' };

/**
 * The receiver's check: the app token first (a forged request does not burn the user's key), then
 * the key is consumed once. Whatever fails, the caller learns only which status to answer.
 */
export async function receiveRedirect(db: DB, tipo: string, chaveBroto: string, tokenApp: string): Promise<ReceivedRedirect> {
  const purpose = REDIRECT_PURPOSE[tipo];
  if (!purpose || !verifyAppToken(tokenApp, tipo, chaveBroto)) return { ok: false, reason: 'token' };
  const consumed = await consumeCode(db, purpose, chaveBroto);
  if (!consumed.ok) return consumed;
  const user = await db.selectFrom('users').select('nome').where('id', '=', consumed.userId).executeTakeFirstOrThrow();
  const simulator = await db.selectFrom('simulators').select('nome').where('code', '=', tipo).executeTakeFirst();
  return { ok: true, userName: user.nome, simulatorName: simulator?.nome ?? tipo, receivedAt: clockNow() };
}

// --- The built-in receiver (src/pages/afs/receptor.astro): what the external application does ---

// The app token may come as the Authorization header (a server-to-server client) or as the form
// field of that name (a browser form cannot set headers).
const receiverForm = z.object({
  chaveBroto: z.string({ error: 'Chave ausente' }).trim().min(1, 'Chave ausente').max(256, 'Chave inválida'),
  Authorization: z.string().max(1024, 'Token inválido').optional(),
});

export type ReceiverOutcome = { status: 200; arrival: Extract<ReceivedRedirect, { ok: true }> } | { status: 400 | 401 | 405 | 410 };

/** HTTP status of each refusal: a bad app token is 401, a key that cannot be used (any more) is 410. */
const REFUSAL_STATUS = { token: 401, invalid: 410, expired: 410, used: 410 } as const;

export async function handleReceiver(db: DB, request: Request): Promise<ReceiverOutcome> {
  if (request.method !== 'POST') return { status: 405 };
  let fields: Record<string, unknown>;
  try {
    fields = Object.fromEntries(await request.formData());
  } catch {
    return { status: 400 };
  }
  const parsed = receiverForm.safeParse(fields);
  if (!parsed.success) return { status: 400 };
  const token = bearerToken(request.headers.get('authorization')) ?? bearerToken(parsed.data.Authorization);
  if (!token) return { status: 401 };
  const received = await receiveRedirect(db, 'AFS', parsed.data.chaveBroto, token);
  return received.ok ? { status: 200, arrival: received } : { status: REFUSAL_STATUS[received.reason] };
}
