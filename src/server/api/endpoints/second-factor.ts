import { endpoint } from '../router';
import { browserTokens } from '../cookies';
import { answerFinishedSignIn, stepSecret } from '../second-factor';
import { finishSecondFactor } from '../../services/identity/auth';
import { proveRecoveryCode, proveTotp, requireChallenge, totpEnrolment, type OpenChallenge } from '../../services/identity/second-factor';
import { formatRecoveryCode, recoveryStepSchema, totpStepSchema } from '../../../lib/second-factor';
import type { Context } from '../router';

/**
 * The second step of sign-in at the auth base (decision 068), for the portal's browser client and for
 * programmatic clients alike: the challenge comes from its cookie or the `x-desafio-segundo-fator`
 * header; a proved one answers the session as the login endpoint would have.
 */

const replacedBy = (ctx: Context, challenge: OpenChallenge) =>
  ctx.cookieMode ? browserTokens(ctx.request, challenge.generation === 'v1' ? ['v1'] : ['v2', 'simulador']) : [];

async function finish(ctx: Context, challenge: OpenChallenge, remember: boolean, recoveryCodes?: string[]) {
  const login = await finishSecondFactor(ctx.db, challenge, ctx.ip, replacedBy(ctx, challenge));
  return {
    geracao: challenge.generation,
    idUsuario: login.user.id,
    ...(await answerFinishedSignIn(ctx, ctx.db, login, challenge.generation, remember)),
    ...(recoveryCodes ? { codigosRecuperacao: recoveryCodes.map(formatRecoveryCode) } : {}),
  };
}

export const secondFactorEndpoints = [
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
      const { recoveryCodes } = await proveTotp(ctx.db, challenge, ctx.body.codigo);
      return finish(ctx, challenge, ctx.body.lembrar === true, recoveryCodes);
    },
  }),
  endpoint({
    method: 'POST',
    path: '/v1/segundo-fator/recuperacao',
    body: recoveryStepSchema,
    async handle(ctx) {
      const challenge = await requireChallenge(ctx.db, stepSecret(ctx.request, 'challenge'));
      await proveRecoveryCode(ctx.db, challenge, ctx.body.codigo);
      return finish(ctx, challenge, ctx.body.lembrar === true);
    },
  }),
];
