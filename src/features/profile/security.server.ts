import type { AstroGlobal } from 'astro';
import { safeParse } from 'zod/v4/core';
import { database } from '../../server/boot/database';
import { qrSvg } from '../../server/qr';
import { findUserById } from '../../server/services/identity/principals';
import {
  confirmTotpEnrolment,
  enrolmentSecretOf,
  forgetDevices,
  hasAuthenticatorApp,
  regenerateRecoveryCodes,
  removeFactor,
  securityOverview,
  startTotpEnrolment,
  totpUri,
  type SecurityOverview,
} from '../../server/services/identity/second-factor';
import type { User } from '../../server/db/schema';
import { endOtherSessions, endOwnSession, sessionsOf } from '../../server/services/identity/own-sessions';
import type { SessionRow } from '../../lib/devices';
import { sessionIdOf } from '../../server/services/identity/sessions';
import { TOKEN_COOKIES } from '../../lib/session';
import { formatRecoveryCode, stepUpSchema, totpCodeField, type StepUpProof } from '../../lib/second-factor';
import { plural } from '../../lib/format';
import { confirmedUntil, confirmIdentity } from '../../server/services/identity/confirmation';
import { readForm, recordIdOf, refusalOf } from '../controller.server';

/*
 * The profile's security page (/perfil/seguranca, /v2/perfil/seguranca — issue 32, decision 068): the
 * signed-in user's own second factor and open sessions (the profile lists the sessions too, its forms
 * posted here). Plain forms posted to the page itself, each an action of a
 * table; adding a passkey is the one island (the browser's ceremony needs script).
 *
 * A change to the factor, the codes or the remembered browsers first asks "Confirme que é você"
 * (issue 42, decision 073) when the session has no proof of the last minutes: the page shows the
 * confirmation with the asked action kept in hidden fields, and runs it once the proof is given.
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
  /** An action that waits for "Confirme que é você": what it does, in words, and its fields to post again. */
  confirm?: { purpose: string; pending: [string, string][]; error?: string; hasApp: boolean };
  /** Until when this session's last proof covers changes. */
  confirmedUntil?: Date;
}

type Outcome = Partial<Omit<SecurityView, 'overview' | 'sessions' | 'confirmedUntil'>> & { status?: number };

async function enrolmentView(user: User, secret: string, state: string, error?: string): Promise<Outcome> {
  return { enrolment: { secret, qr: await qrSvg(totpUri(user.email, secret), 'QR code para o aplicativo autenticador'), state, error } };
}

/** What an action knows of the request: the session making it (not to be ended by "the others") and the address. */
interface Caller {
  sessionId: number | undefined;
  ip: string;
}

/** The actions that change the factor, the codes or the browsers: each asks for a recent proof first, in these words. */
const GUARDED: Readonly<Record<string, string>> = {
  'app-iniciar': 'configurar o aplicativo autenticador',
  'app-confirmar': 'ativar o aplicativo autenticador',
  'app-remover': 'remover o aplicativo autenticador',
  'chave-remover': 'remover a chave de acesso',
  'codigos-gerar': 'gerar novos códigos de recuperação',
  'dispositivos-esquecer': 'esquecer os dispositivos lembrados',
};
/** The fields of a guarded action kept, as `p_<name>`, through its confirmation. */
const PENDING_FIELDS = ['acao', 'id', 'estado', 'codigo'] as const;

/** The confirmation a guarded action waits for, its own fields kept. */
async function confirmation(user: User, pending: FormData, error?: string): Promise<Outcome['confirm']> {
  const kept = PENDING_FIELDS.flatMap((name): [string, string][] => {
    const value = pending.get(name);
    return typeof value === 'string' && value.length <= 4096 ? [[name, value]] : [];
  });
  const action = String(pending.get('acao') ?? '');
  const purpose = Object.hasOwn(GUARDED, action) ? GUARDED[action]! : 'alterar a verificação em duas etapas';
  return { purpose, pending: kept, error, hasApp: await hasAuthenticatorApp(await database(), user.id) };
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
  /** "Confirme que é você": the password or an app code, then the action that waited for it. */
  async confirmar(user, form, caller) {
    const pending = new FormData();
    for (const name of PENDING_FIELDS) {
      const value = form.get(`p_${name}`);
      if (typeof value === 'string') pending.set(name, value);
    }
    const text = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' && value.trim() !== '' ? value : undefined;
    };
    const parsed = safeParse(stepUpSchema, { senha: text('senha'), codigo: text('codigo') });
    if (!parsed.success) return { status: 400, confirm: await confirmation(user, pending, parsed.error.issues[0]?.message) };
    const proof: StepUpProof = parsed.data.codigo ? { codigo: parsed.data.codigo } : { senha: parsed.data.senha ?? '' };
    try {
      if (caller.sessionId === undefined) throw new Error('A signed-in page without its session row');
      await confirmIdentity(await database(), user, caller.sessionId, proof, caller.ip);
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      return { status: refusal.status, confirm: await confirmation(user, pending, refusal.message) };
    }
    const action = String(pending.get('acao') ?? '');
    return Object.hasOwn(GUARDED, action) ? ACTIONS[action]!(user, pending, caller) : { notice: 'Identidade confirmada.' };
  },
  async 'app-iniciar'(user) {
    const { secret, state } = startTotpEnrolment(user);
    return enrolmentView(user, secret, state);
  },
  async 'app-confirmar'(user, form, caller) {
    const state = String(form.get('estado') ?? '');
    const secret = enrolmentSecretOf(user, state);
    const code = safeParse(totpCodeField, String(form.get('codigo') ?? ''));
    if (secret && !code.success) return enrolmentView(user, secret, state, code.error.issues[0]?.message);
    try {
      const { recoveryCodes } = await confirmTotpEnrolment(await database(), user, state, code.success ? code.data : '', caller.ip);
      return { notice: 'Aplicativo autenticador ativado.', codes: recoveryCodes?.map(formatRecoveryCode) };
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal || !secret || refusal.status === 429) throw error;
      return enrolmentView(user, secret, state, refusal.message);
    }
  },
  async 'app-remover'(user, _form, caller) {
    await removeFactor(await database(), user, { kind: 'totp' }, caller.ip);
    return { notice: 'Aplicativo autenticador removido.' };
  },
  async 'chave-remover'(user, form, caller) {
    const id = recordIdOf(String(form.get('id') ?? ''));
    if (id === undefined) return { error: 'Chave de acesso não encontrada.' };
    await removeFactor(await database(), user, { kind: 'passkey', id }, caller.ip);
    return { notice: 'Chave de acesso removida.' };
  },
  async 'codigos-gerar'(user, _form, caller) {
    const codes = await regenerateRecoveryCodes(await database(), user, caller.ip);
    return { notice: 'Novos códigos gerados. Os anteriores não valem mais.', codes: codes.map(formatRecoveryCode) };
  },
  async 'dispositivos-esquecer'(user, _form, caller) {
    const forgotten = await forgetDevices(await database(), user, caller.ip);
    return { notice: `${plural(forgotten, 'dispositivo esquecido', 'dispositivos esquecidos')}.` };
  },
};

const NOTICES: Record<string, string> = { chave: 'Chave de acesso cadastrada.' };

export async function securityPage(generation: 'v1' | 'v2', astro: AstroGlobal): Promise<SecurityView> {
  const session = astro.locals.session[generation]!;
  const db = await database();
  const user = (await findUserById(db, session.idUsuario))!;
  const token = astro.cookies.get(TOKEN_COOKIES[generation])?.value;
  const caller: Caller = { sessionId: await sessionIdOf(db, token), ip: astro.locals.client.ip };
  let outcome: Outcome = { notice: NOTICES[astro.url.searchParams.get('aviso') ?? ''] };
  if (astro.request.method === 'POST') {
    const form = await readForm(astro.request);
    const name = String(form.get('acao') ?? '');
    const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
    try {
      if (!action) outcome = { status: 400, error: 'Ação desconhecida.' };
      // A change without a proof of the last minutes waits for "Confirme que é você".
      else if (Object.hasOwn(GUARDED, name) && (caller.sessionId === undefined || !(await confirmedUntil(db, caller.sessionId))))
        outcome = { confirm: await confirmation(user, form) };
      else outcome = await action(user, form, caller);
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      outcome = { status: refusal.status, error: refusal.message };
    }
  }
  const { status, ...shown } = outcome;
  if (status) astro.response.status = status;
  // A page that shows codes or a secret is not kept by the browser's back button or a cache.
  astro.response.headers.set('cache-control', 'no-store');
  return {
    overview: await securityOverview(db, user),
    sessions: await sessionsOf(db, user.id, { token }),
    confirmedUntil: caller.sessionId === undefined ? undefined : await confirmedUntil(db, caller.sessionId),
    ...shown,
  };
}
