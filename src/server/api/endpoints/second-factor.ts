import { endpoint } from '../router';
import { browserTokens } from '../cookies';
import { answerFinishedSignIn, stepSecret } from '../second-factor';
import { finishSecondFactor } from '../../services/identity/auth';
import { proveRecoveryCode, proveTotp, requireChallenge, totpEnrolment, type OpenChallenge } from '../../services/identity/second-factor';
import { formatRecoveryCode, recoveryStepSchema, totpStepSchema } from '../../../lib/second-factor';
import { z } from '../../../lib/zod';
import type { Context } from '../router';
import {
  authenticationOptions,
  provePasskey,
  registerPasskey,
  registrationOptions,
  relyingPartyOf,
} from '../../services/identity/passkeys';
import { replaceRecoveryCodes } from '../../services/identity/second-factor';

/**
 * A browser's WebAuthn answer (RegistrationResponseJSON or AuthenticationResponseJSON): its shape is
 * checked here, its content by @simplewebauthn/server. Bounded: a credential is a few kilobytes.
 */
const base64url = z
  .string()
  .max(16_384)
  .regex(/^[\w-]*$/, 'Valor inválido');
export const webauthnResponse = z.object({
  id: base64url.min(1),
  rawId: base64url.min(1),
  type: z.literal('public-key'),
  response: z.record(z.string().max(64), z.union([base64url, z.array(z.string().max(32)).max(10), z.number()])),
  clientExtensionResults: z.record(z.string().max(64), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});
const passkeyLabel = z.string().trim().min(1, 'Dê um nome à chave').max(60, 'Use até 60 caracteres').default('Chave de acesso');

/**
 * The second step of sign-in at the auth base (decision 068), for the portal's browser client and for
 * programmatic clients alike: the challenge comes from its cookie or the `x-desafio-segundo-fator`
 * header; a proved one answers the session as the login endpoint would have.
 */

const replacedBy = (ctx: Context, challenge: OpenChallenge) =>
  ctx.cookieMode ? browserTokens(ctx.request, challenge.generation === 'v1' ? ['v1'] : ['v2', 'simulador']) : [];

async function finish(ctx: Context, challenge: OpenChallenge, remember: boolean, recoveryCodes?: string[]) {
  const login = await finishSecondFactor(ctx.db, challenge, ctx.ip, {
    replacing: replacedBy(ctx, challenge),
    userAgent: ctx.request.headers.get('user-agent'),
  });
  return {
    geracao: challenge.generation,
    idUsuario: login.user.id,
    ...(await answerFinishedSignIn(ctx, ctx.db, login, challenge.generation, remember)),
    ...(recoveryCodes ? { codigosRecuperacao: recoveryCodes.map(formatRecoveryCode) } : {}),
  };
}

export const secondFactorEndpoints = [
  endpoint({
    // The ceremony's options: to sign in with a passkey (verificar), or to register one as the factor (cadastrar).
    method: 'POST',
    path: '/v1/segundo-fator/passkey/opcoes',
    async handle(ctx) {
      const challenge = await requireChallenge(ctx.db, stepSecret(ctx.request, 'challenge'));
      const rp = relyingPartyOf(ctx.request);
      if (challenge.purpose === 'verificar') return { opcoes: await authenticationOptions(ctx.db, challenge, rp) };
      const { options, state } = await registrationOptions(ctx.db, challenge.user, rp);
      return { opcoes: options, estado: state };
    },
  }),
  endpoint({
    method: 'POST',
    path: '/v1/segundo-fator/passkey',
    body: z.object({
      resposta: webauthnResponse,
      estado: z.string().max(4096).optional(),
      nome: passkeyLabel,
      lembrar: z.boolean().optional(),
    }),
    async handle(ctx) {
      const challenge = await requireChallenge(ctx.db, stepSecret(ctx.request, 'challenge'));
      const rp = relyingPartyOf(ctx.request);
      const response = ctx.body.resposta as never;
      if (challenge.purpose === 'verificar') {
        await provePasskey(ctx.db, challenge, rp, response, ctx.ip);
        return finish(ctx, challenge, ctx.body.lembrar === true);
      }
      await registerPasskey(ctx.db, challenge.user, rp, { state: ctx.body.estado ?? '', response, label: ctx.body.nome }, ctx.ip);
      const codes = await replaceRecoveryCodes(ctx.db, challenge.user.id);
      return finish(ctx, challenge, ctx.body.lembrar === true, codes);
    },
  }),
  endpoint({
    // What the step asks: a code (verificar) or the enrolment of an app (cadastrar, with its secret).
    method: 'GET',
    path: '/v1/segundo-fator',
    async handle(ctx) {
      const challenge = await requireChallenge(ctx.db, stepSecret(ctx.request, 'challenge'));
      const enrolment = challenge.purpose === 'cadastrar' ? await totpEnrolment(ctx.db, challenge) : undefined;
      return {
        etapa: challenge.purpose,
        geracao: challenge.generation,
        ...(enrolment ? { cadastro: { segredo: enrolment.secret, uri: enrolment.uri } } : {}),
      };
    },
  }),
  endpoint({
    method: 'POST',
    path: '/v1/segundo-fator/totp',
    body: totpStepSchema,
    async handle(ctx) {
      const challenge = await requireChallenge(ctx.db, stepSecret(ctx.request, 'challenge'));
      const { recoveryCodes } = await proveTotp(ctx.db, challenge, ctx.body.codigo, ctx.ip);
      return finish(ctx, challenge, ctx.body.lembrar === true, recoveryCodes);
    },
  }),
  endpoint({
    method: 'POST',
    path: '/v1/segundo-fator/recuperacao',
    body: recoveryStepSchema,
    async handle(ctx) {
      const challenge = await requireChallenge(ctx.db, stepSecret(ctx.request, 'challenge'));
      await proveRecoveryCode(ctx.db, challenge, ctx.body.codigo, ctx.ip);
      return finish(ctx, challenge, ctx.body.lembrar === true);
    },
  }),
];
