import { z } from '../../../lib/zod';
import { timingSafeEqual } from 'node:crypto';
import { authenticate, endpoint } from '../router';
import { invalid, forbidden } from '../../errors';
import { emailField } from '../../../lib/auth-schemas';
import { TOKEN_COOKIES } from '../../../lib/session';
import { browserTokens, readCookies } from '../cookies';
import { issueSsoSession, redeemSsoSession, signOut } from '../../services/identity/auth';
import { publicUrl } from '../../mail/outbox';
import { secondFactorAnswer, stepSecret } from '../second-factor';

/** The auth base (SPEC §7): single sign-on and sign-out, `{ dado }`. */

/** The key scripts/serve.mjs gives the server and writes, readable by its owner only, beside the data. */
function hasOpsKey(request: Request): boolean {
  const expected = process.env.PORTAL_OPS_KEY;
  const given = Buffer.from(request.headers.get('x-portal-ops-key') ?? '');
  const key = Buffer.from(expected ?? '');
  // Compared as bytes: a header of the right length in characters may be longer in bytes.
  return key.length > 0 && given.length === key.length && timingSafeEqual(given, key);
}

const ssoId = z.string().min(16, 'Sessão SSO inválida').max(128, 'Sessão SSO inválida');

export const auth = [
  endpoint({
    method: 'GET',
    path: '/v2/cognito-auth/token/:nmIdSessao',
    params: z.object({ nmIdSessao: ssoId }),
    async handle(ctx) {
      const header = ctx.request.headers.get('nmIdSessao');
      if (header !== ctx.params.nmIdSessao)
        throw invalid('O cabeçalho nmIdSessao deve repetir a sessão do caminho.', { nmIdSessao: ['Cabeçalho obrigatório'] });
      const login = await redeemSsoSession(ctx.db, ctx.params.nmIdSessao, ctx.ip, {
        replacing: ctx.cookieMode ? browserTokens(ctx.request, ['v2', 'simulador']) : [],
        device: stepSecret(ctx.request, 'device'),
        userAgent: ctx.request.headers.get('user-agent'),
      });
      // A link is no second factor: a user who owes one gets its challenge, not a session (decision 068).
      if (login.kind === 'second-factor') return { mpDado: { data: { cdUsername: login.user.email, ...secondFactorAnswer(ctx, login) } } };
      if (ctx.cookieMode) {
        ctx.setCookie(TOKEN_COOKIES.v2, login.session.token, login.session.expiresAt);
        if (login.simulator) ctx.setCookie(TOKEN_COOKIES.simulador, login.simulator.token, login.simulator.expiresAt);
      }
      return { mpDado: { data: { cdToken: ctx.cookieMode ? undefined : login.session.token, cdUsername: login.user.email } } };
    },
  }),
  endpoint({
    // The provider's admin, or the operations key of a local script (npm run sso-link).
    method: 'POST',
    path: '/v2/sessao-sso',
    body: z.object({ email: emailField }),
    async handle(ctx) {
      let actorId: number | null = null;
      if (!hasOpsKey(ctx.request)) {
        const { user } = await authenticate(ctx.db, ctx.request, ['v2']);
        if (user.profile !== 'admin') throw forbidden('Apenas o administrador da seguradora emite acessos SSO.');
        actorId = user.id;
      }
      const { idSessaoSSO, expiresAt } = await issueSsoSession(ctx.db, ctx.body.email, { actorId, ip: ctx.ip });
      return { idSessaoSSO, link: publicUrl(`/v2/login/session/${idSessaoSSO}`), expiraEm: expiresAt.toISOString() };
    },
  }),
  endpoint({
    method: 'POST',
    path: '/v1/logout',
    async handle(ctx) {
      // Sign-out ends every session the caller holds, of both generations (SPEC §4).
      const cookies = readCookies(ctx.request.headers.get('cookie'));
      await signOut(ctx.db, [ctx.request.headers.get('authtoken'), ...Object.values(TOKEN_COOKIES).map((name) => cookies[name])], ctx.ip);
      for (const name of Object.values(TOKEN_COOKIES)) ctx.clearCookie(name);
      return { mensagem: 'Sessão encerrada.' };
    },
  }),
];
