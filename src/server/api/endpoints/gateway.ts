import { z } from '../../../lib/zod';
import { endpoint } from '../router';
import { gatewayLoginBody } from '../../../lib/auth-schemas';
import { TOKEN_COOKIES } from '../../../lib/session';
import { browserTokens } from '../cookies';
import { issueSimulatorToken, loginV2, needsSimulatorToken } from '../../services/identity/auth';
import { secondFactorAnswer, stepSecret } from '../second-factor';

/** The login gateway (SPEC §7): answers `{ token, message }` without an envelope. */
export const gateway = [
  endpoint({
    method: 'POST',
    path: '/login',
    body: gatewayLoginBody,
    query: z.object({ APP_NAME: z.string().max(64).optional() }),
    async handle(ctx) {
      const login = await loginV2(ctx.db, ctx.body.userName, ctx.body.password, ctx.ip, {
        replacing: ctx.cookieMode ? browserTokens(ctx.request, ['v2', 'simulador']) : [],
        device: stepSecret(ctx.request, 'device'),
        userAgent: ctx.request.headers.get('user-agent'),
      });
      // The password was right; no token until the second factor (decision 068).
      if (login.kind === 'second-factor') return { userName: login.user.email, ...secondFactorAnswer(ctx, login) };
      const message = 'Login realizado com sucesso.';
      if (!ctx.cookieMode) return { token: login.session.token, userName: login.user.email, message };
      ctx.setCookie(TOKEN_COOKIES.v2, login.session.token, login.session.expiresAt);
      // The portal obtains the simulator token at once, so a partner's session is fully authenticated (SPEC §4).
      if (needsSimulatorToken(login.user)) {
        const simulator = await issueSimulatorToken(ctx.db, login.user, login.session);
        ctx.setCookie(TOKEN_COOKIES.simulador, simulator.token, simulator.expiresAt);
      }
      return { userName: login.user.email, message };
    },
  }),
];
