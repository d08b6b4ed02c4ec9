import { z } from '../../../lib/zod';
import { endpoint } from '../router';
import { formatRecoveryCode, stepUpSchema, totpCodeField } from '../../../lib/second-factor';
import { confirmIdentity, requireRecentConfirmation } from '../../services/identity/confirmation';
import { registerPasskey, registrationOptions, relyingPartyOf } from '../../services/identity/passkeys';
import {
  confirmTotpEnrolment,
  forgetDevices,
  regenerateRecoveryCodes,
  removeFactor,
  replaceRecoveryCodes,
  securityOverview,
  startTotpEnrolment,
} from '../../services/identity/second-factor';
import { webauthnResponse } from './second-factor';
import { endOtherSessions, endOwnSession, sessionsOf } from '../../services/identity/own-sessions';
import type { Generation } from '../../../lib/quote-flow';
import type { Context } from '../router';

/** A record's id in a path: a positive integer the database's `integer` holds. */
const recordId = (message: string) => z.coerce.number(message).int(message).min(1, message).max(2_000_000_000, message);

/**
 * The signed-in user's own second factor (issue 32, decision 068), under each generation's base:
 * what is set up, an authenticator app, passkeys, recovery codes shown once, remembered browsers.
 * The profile's security page (/perfil/seguranca, /v2/perfil/seguranca) uses the same services.
 *
 * Every change of the factor, the recovery codes or the remembered browsers first asks for a recent
 * proof (issue 42, decision 073): `POST /v1/seguranca/confirmacao` with the password or a code of the
 * app; without one the change answers 403 with `codigo: CONFIRMACAO_NECESSARIA`.
 */
export const securityEndpoints = (generation: Generation) => {
  const auth = [generation] as const;
  const confirmed = (ctx: Context) => requireRecentConfirmation(ctx.db, ctx.auth.session.id);
  return [
    endpoint({
      method: 'GET',
      path: '/v1/seguranca',
      auth,
      handle: (ctx) => securityOverview(ctx.db, ctx.auth.user),
    }),
    endpoint({
      method: 'POST',
      path: '/v1/seguranca/confirmacao',
      auth,
      body: stepUpSchema,
      async handle(ctx) {
        const { senha, codigo } = ctx.body;
        const proof = codigo ? { codigo } : { senha: senha ?? '' };
        const until = await confirmIdentity(ctx.db, ctx.auth.user, ctx.auth.session.id, proof, ctx.ip);
        return { confirmadaAte: until.toISOString() };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/v1/seguranca/aplicativo/inicio',
      auth,
      async handle(ctx) {
        await confirmed(ctx);
        const { secret, uri, state } = startTotpEnrolment(ctx.auth.user);
        return { segredo: secret, uri, estado: state };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/v1/seguranca/aplicativo',
      auth,
      body: z.object({ estado: z.string().min(1).max(4096), codigo: totpCodeField }),
      async handle(ctx) {
        await confirmed(ctx);
        const { recoveryCodes } = await confirmTotpEnrolment(ctx.db, ctx.auth.user, ctx.body.estado, ctx.body.codigo, ctx.ip);
        return { codigosRecuperacao: recoveryCodes?.map(formatRecoveryCode) };
      },
    }),
    endpoint({
      method: 'DELETE',
      path: '/v1/seguranca/aplicativo',
      auth,
      async handle(ctx) {
        await confirmed(ctx);
        await removeFactor(ctx.db, ctx.auth.user, { kind: 'totp' }, ctx.ip);
        return { mensagem: 'Aplicativo autenticador removido.' };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/v1/seguranca/chaves/opcoes',
      auth,
      async handle(ctx) {
        await confirmed(ctx);
        const { options, state } = await registrationOptions(ctx.db, ctx.auth.user, relyingPartyOf(ctx.request));
        return { opcoes: options, estado: state };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/v1/seguranca/chaves',
      auth,
      body: z.object({
        estado: z.string().min(1).max(4096),
        resposta: webauthnResponse,
        nome: z.string().trim().min(1, 'Dê um nome à chave').max(60, 'Use até 60 caracteres'),
      }),
      async handle(ctx) {
        await confirmed(ctx);
        const { user } = ctx.auth;
        const first = (await securityOverview(ctx.db, user)).recoveryCodesLeft === 0;
        await registerPasskey(
          ctx.db,
          user,
          relyingPartyOf(ctx.request),
          { state: ctx.body.estado, response: ctx.body.resposta as never, label: ctx.body.nome },
          ctx.ip,
        );
        // A first factor comes with its recovery codes, shown once.
        return { codigosRecuperacao: first ? (await replaceRecoveryCodes(ctx.db, user.id)).map(formatRecoveryCode) : undefined };
      },
    }),
    endpoint({
      method: 'DELETE',
      path: '/v1/seguranca/chaves/:id',
      auth,
      params: z.object({
        id: z.coerce.number('Chave inválida.').int('Chave inválida.').min(1, 'Chave inválida.').max(2_000_000_000, 'Chave inválida.'),
      }),
      async handle(ctx) {
        await confirmed(ctx);
        await removeFactor(ctx.db, ctx.auth.user, { kind: 'passkey', id: ctx.params.id }, ctx.ip);
        return { mensagem: 'Chave de acesso removida.' };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/v1/seguranca/codigos-recuperacao',
      auth,
      async handle(ctx) {
        await confirmed(ctx);
        return { codigos: (await regenerateRecoveryCodes(ctx.db, ctx.auth.user, ctx.ip)).map(formatRecoveryCode) };
      },
    }),
    endpoint({
      method: 'GET',
      path: '/v1/sessoes',
      auth,
      handle: async (ctx) => ({ sessoes: await sessionsOf(ctx.db, ctx.auth.user.id, { id: ctx.auth.session.id }) }),
    }),
    endpoint({
      method: 'DELETE',
      path: '/v1/sessoes/:id',
      auth,
      params: z.object({ id: recordId('Sessão inválida.') }),
      async handle(ctx) {
        await endOwnSession(ctx.db, ctx.auth.user, ctx.params.id, ctx.ip);
        return { mensagem: 'Sessão encerrada.' };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/v1/sessoes/encerrar-outras',
      auth,
      async handle(ctx) {
        await endOtherSessions(ctx.db, ctx.auth.user, ctx.auth.session.id, ctx.ip);
        return { mensagem: 'As outras sessões foram encerradas.' };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/v1/seguranca/dispositivos/esquecer',
      auth,
      async handle(ctx) {
        await confirmed(ctx);
        return { esquecidos: await forgetDevices(ctx.db, ctx.auth.user, ctx.ip) };
      },
    }),
  ];
};
