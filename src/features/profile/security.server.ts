import type { AstroGlobal } from 'astro';
import { safeParse } from 'zod/v4/core';
import { database } from '../../server/boot/database';
import { qrSvg } from '../../server/qr';
import { findUserById } from '../../server/services/identity/principals';
import {
  confirmTotpEnrolment,
  enrolmentSecretOf,
  forgetDevices,
  regenerateRecoveryCodes,
  removeFactor,
  securityOverview,
  startTotpEnrolment,
  totpUri,
  type SecurityOverview,
} from '../../server/services/identity/second-factor';
import type { User } from '../../server/db/schema';
import { endOtherSessions, endOwnSession, ownSessions, type SessionRow } from '../../server/services/identity/own-sessions';
import { sessionIdOf } from '../../server/services/identity/sessions';
import { TOKEN_COOKIES } from '../../lib/session';
import { formatRecoveryCode, totpCodeField } from '../../lib/second-factor';
import { readForm, recordIdOf, refusalOf } from '../controller.server';

/*
 * The profile's security page (/perfil/seguranca, /v2/perfil/seguranca — issue 32, decision 068): the
 * signed-in user's own second factor and open sessions (the profile lists the sessions too, its forms
 * posted here). Plain forms posted to the page itself, each an action of a
 * table; adding a passkey is the one island (the browser's ceremony needs script).
 */

export interface SecurityView {
  overview: SecurityOverview;
  sessions: SessionRow[];
  /** An authenticator app being set up: its QR code and secret, and the sealed state the form posts back. */
  enrolment?: { secret: string; qr: string; state: string; error?: string };
  /** Recovery codes just made: shown this once. */
  codes?: string[];
  notice?: string;
  error?: string;
}

type Outcome = Partial<Omit<SecurityView, 'overview' | 'sessions'>>;

async function enrolmentView(user: User, secret: string, state: string, error?: string): Promise<Outcome> {
  return { enrolment: { secret, qr: await qrSvg(totpUri(user.email, secret), 'QR code para o aplicativo autenticador'), state, error } };
}

/** What an action knows of the request: the session making it (not to be ended by "the others") and the address. */
interface Caller {
  sessionId: number | undefined;
  ip: string;
}

const ACTIONS: Record<string, (user: User, form: FormData, caller: Caller) => Promise<Outcome>> = {
  async 'sessao-encerrar'(user, form, caller) {
    const id = recordIdOf(String(form.get('id') ?? ''));
    if (id === undefined || id === caller.sessionId) return { error: 'Sessão não encontrada ou já encerrada.' };
    await endOwnSession(await database(), user, id, caller.ip);
    return { notice: 'Sessão encerrada. Quem a usava precisa entrar de novo.' };
  },
  async 'sessoes-encerrar-outras'(user, _form, caller) {
    if (caller.sessionId === undefined) return { error: 'Sessão não encontrada.' };
    await endOtherSessions(await database(), user, caller.sessionId, caller.ip);
    return { notice: 'As outras sessões foram encerradas.' };
  },
  async 'app-iniciar'(user) {
    const { secret, state } = startTotpEnrolment(user);
    return enrolmentView(user, secret, state);
  },
  async 'app-confirmar'(user, form) {
    const state = String(form.get('estado') ?? '');
    const secret = enrolmentSecretOf(user, state);
    const code = safeParse(totpCodeField, String(form.get('codigo') ?? ''));
    if (secret && !code.success) return enrolmentView(user, secret, state, code.error.issues[0]?.message);
    try {
      const { recoveryCodes } = await confirmTotpEnrolment(await database(), user, state, code.success ? code.data : '');
      return { notice: 'Aplicativo autenticador ativado.', codes: recoveryCodes?.map(formatRecoveryCode) };
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal || !secret || refusal.status === 429) throw error;
      return enrolmentView(user, secret, state, refusal.message);
    }
  },
  async 'app-remover'(user) {
    await removeFactor(await database(), user, { kind: 'totp' });
    return { notice: 'Aplicativo autenticador removido.' };
  },
  async 'chave-remover'(user, form) {
    const id = recordIdOf(String(form.get('id') ?? ''));
    if (id === undefined) return { error: 'Chave de acesso não encontrada.' };
    await removeFactor(await database(), user, { kind: 'passkey', id });
    return { notice: 'Chave de acesso removida.' };
  },
  async 'codigos-gerar'(user) {
    const codes = await regenerateRecoveryCodes(await database(), user);
    return { notice: 'Novos códigos gerados. Os anteriores não valem mais.', codes: codes.map(formatRecoveryCode) };
  },
  async 'dispositivos-esquecer'(user) {
    const forgotten = await forgetDevices(await database(), user);
    return { notice: forgotten === 1 ? '1 dispositivo esquecido.' : `${forgotten} dispositivos esquecidos.` };
  },
};

const NOTICES: Record<string, string> = { chave: 'Chave de acesso cadastrada.' };

export async function securityPage(generation: 'v1' | 'v2', astro: AstroGlobal): Promise<SecurityView> {
  const session = astro.locals.session[generation]!;
  const db = await database();
  const user = (await findUserById(db, session.idUsuario))!;
  const caller = { sessionId: await sessionIdOf(db, astro.cookies.get(TOKEN_COOKIES[generation])?.value), ip: astro.locals.client.ip };
  let outcome: Outcome = { notice: NOTICES[astro.url.searchParams.get('aviso') ?? ''] };
  if (astro.request.method === 'POST') {
    const form = await readForm(astro.request);
    const action = ACTIONS[String(form.get('acao') ?? '')];
    try {
      outcome = action ? await action(user, form, caller) : { error: 'Ação desconhecida.' };
      if (!action) astro.response.status = 400;
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      astro.response.status = refusal.status;
      outcome = { error: refusal.message };
    }
  }
  // A page that shows codes or a secret is not kept by the browser's back button or a cache.
  astro.response.headers.set('cache-control', 'no-store');
  return { overview: await securityOverview(db, user), sessions: await ownSessions(db, user, caller.sessionId), ...outcome };
}
