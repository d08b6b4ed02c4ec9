import { z } from '../../../lib/zod';
import { endpoint, type Context } from '../router';
import { forbidden, notFound } from '../../errors';
import {
  v1LoginBody,
  forgotPasswordSchema,
  resetPasswordSchema,
  firstAccessSchema,
  resendCodeSchema,
  changePasswordSchema,
} from '../../../lib/auth-schemas';
import { canV1, MANAGE_USERS_V1, V1_ADMIN_GROUP, v1OfferPermission } from '../../../lib/permissions';
import { EXTERNAL_SIMULATOR_CODES } from '../../../lib/simulators';
import { TOKEN_COOKIES } from '../../../lib/session';
import { browserTokens } from '../cookies';
import { issueSimulatorToken, loginV1 } from '../../services/identity/auth';
import { secondFactorAnswer, stepSecret } from '../second-factor';
import { v1Permissions, loadV1User, loadV2User } from '../../services/identity/principals';
import {
  changePassword,
  completeFirstAccess,
  GENERIC_RECOVERY_MESSAGE,
  requestPasswordReset,
  resendValidationCode,
  resetPassword,
} from '../../services/identity/account';
import { quotationData, simulatorList, startSimulator, startSimulatorV1 } from '../../services/network/offers';
import { issueRedirect } from '../../services/identity/simulator-redirect';
import { updateSimulator } from '../../services/network/simulators';

/** The partner platform API (SPEC §7): `{ status: 'OK', resultado }`. */

const idParam = z.object({
  idUsuario: z.coerce
    .number({ error: 'Usuário inválido' })
    .int()
    .positive('Usuário inválido')
    .max(2 ** 31 - 1, 'Usuário inválido'),
});

const simulatorTokenBody = z.object({
  nome: z.string().trim().min(1, 'Nome obrigatório').max(200),
  idCanalUltron: z.union([z.string().max(64), z.number()]).optional(),
  nomeCanalUltron: z.string().max(100).default('Portal'),
  email: z.string().trim().toLowerCase().max(254),
  cdAutenticacao: z.string().max(256).optional(),
  idCanal: z.union([z.string().max(64), z.number()]).optional(),
});

const productGroup = z.string().trim().max(10, 'Grupo de produto inválido').optional();
const quotationQuery = z.object({
  idSimulador: z.coerce
    .number({ error: 'Simulador inválido' })
    .int('Simulador inválido')
    .positive('Simulador inválido')
    .max(2 ** 31 - 1, 'Simulador inválido'),
  nrGrupoProduto: productGroup,
});
const startSimulatorBody = z.object({
  cdTipoSimulador: z
    .string({ error: 'Tipo de simulador obrigatório' })
    .trim()
    .min(1, 'Tipo de simulador obrigatório')
    .max(10, 'Tipo de simulador inválido'),
  nrGrupoProduto: productGroup,
});

const redirectQuery = z.object({
  tipo: z
    .string({ error: 'Tipo de simulador obrigatório' })
    .trim()
    .toUpperCase()
    .refine(
      (tipo) => EXTERNAL_SIMULATOR_CODES.includes(tipo),
      `Tipo de simulador sem redirecionamento externo (use ${EXTERNAL_SIMULATOR_CODES.join(', ')})`,
    ),
});
const simulatorIdParam = z.object({ id: z.string() });

/** The legacy admin group: the only one that edits simulators (route-guards' EDITAR_SIMULADOR). */
async function requireV1Admin(ctx: Context): Promise<void> {
  const { groups } = await v1Permissions(ctx.db, ctx.auth.user.id);
  if (!groups.includes(V1_ADMIN_GROUP)) throw forbidden('Apenas o administrador do portal edita simuladores.');
}

export const plataforma = [
  endpoint({
    method: 'POST',
    path: '/v1/login',
    body: v1LoginBody,
    async handle(ctx) {
      const login = await loginV1(ctx.db, ctx.body.user_name, ctx.body.password, ctx.ip, {
        replacing: ctx.cookieMode ? browserTokens(ctx.request, ['v1']) : [],
        device: stepSecret(ctx.request, 'device'),
        userAgent: ctx.request.headers.get('user-agent'),
      });
      // The password was right; no token until the second factor (decision 068).
      if (login.kind === 'second-factor') return { idUsuario: login.user.id, ...secondFactorAnswer(ctx, login) };
      const { groups } = await v1Permissions(ctx.db, login.user.id);
      if (ctx.cookieMode) {
        ctx.setCookie(TOKEN_COOKIES.v1, login.session.token, login.session.expiresAt);
      }
      return {
        ...(ctx.cookieMode ? {} : { token: login.session.token }),
        idUsuario: login.user.id,
        profile: groups,
        nome: login.user.nome,
        email: login.user.email,
        dataUltimoAcessoFormatada: login.dataUltimoAcessoFormatada,
      };
    },
  }),
  endpoint({
    method: 'GET',
    path: '/v1/permissoes/:idUsuario',
    auth: ['v1'],
    params: idParam,
    async handle(ctx) {
      if (ctx.params.idUsuario !== ctx.auth.user.id) {
        const own = await v1Permissions(ctx.db, ctx.auth.user.id);
        if (!canV1({ profile: own.groups, permissions: own.permissions }, MANAGE_USERS_V1, 'VIEW')) throw forbidden();
      }
      const target = await ctx.db
        .selectFrom('users')
        .select('id')
        .where('id', '=', ctx.params.idUsuario)
        .where('generation', '=', 'v1')
        .executeTakeFirst();
      if (!target) throw notFound('Usuário não encontrado');
      return (await v1Permissions(ctx.db, target.id)).permissions;
    },
  }),
  endpoint({
    method: 'POST',
    path: '/v1/login/token',
    auth: ['v2'],
    body: simulatorTokenBody,
    async handle(ctx) {
      if (ctx.body.email !== ctx.auth.user.email) throw forbidden('O e-mail não corresponde ao usuário autenticado.');
      const simulator = await issueSimulatorToken(ctx.db, ctx.auth.user, ctx.auth.session);
      if (ctx.cookieMode) {
        ctx.setCookie(TOKEN_COOKIES.simulador, simulator.token, simulator.expiresAt);
        return {};
      }
      return { token: simulator.token };
    },
  }),
  // The simulator list serves both generations; quoting and starting a simulator are v2 only (the
  // legacy generation's simulators get their own rules later).
  endpoint({
    method: 'GET',
    path: '/v1/simuladores',
    auth: ['v1', 'v2', 'simulador'],
    async handle(ctx) {
      return simulatorList(ctx.db, ctx.auth.session.kind === 'v1' ? 'v1' : 'v2');
    },
  }),
  endpoint({
    method: 'GET',
    path: '/v1/simuladores/produtos/data-para-cotacao',
    auth: ['v2', 'simulador'],
    query: quotationQuery,
    async handle(ctx) {
      const user = await loadV2User(ctx.db, ctx.auth.user, { fullyAuthenticated: false });
      return quotationData(ctx.db, user, ctx.query.idSimulador, ctx.query.nrGrupoProduto || undefined);
    },
  }),
  endpoint({
    method: 'POST',
    path: '/v1/simuladores/iniciar',
    // The legacy session starts the embedded issuance apps' simulators (EMP, IP, VE; SPEC §2, §4).
    auth: ['v1', 'v2', 'simulador'],
    body: startSimulatorBody,
    async handle(ctx) {
      if (ctx.auth.session.kind === 'v1') {
        const user = await loadV1User(ctx.db, ctx.auth.user);
        return startSimulatorV1(ctx.db, user, ctx.body.cdTipoSimulador, ctx.body.nrGrupoProduto || undefined);
      }
      const user = await loadV2User(ctx.db, ctx.auth.user, { fullyAuthenticated: false });
      return startSimulator(ctx.db, user, ctx.body.cdTipoSimulador, ctx.body.nrGrupoProduto || undefined);
    },
  }),
  // AFS is a legacy simulator: only the legacy session reaches it, with the legacy offer permission
  // (decision 020). The key is issued only to whoever may sell it, and only while it is active.
  endpoint({
    method: 'GET',
    path: '/v1/simuladores/redirect',
    auth: ['v1'],
    query: redirectQuery,
    async handle(ctx) {
      const { groups, permissions } = await v1Permissions(ctx.db, ctx.auth.user.id);
      if (!canV1({ profile: groups, permissions }, v1OfferPermission(ctx.query.tipo), 'VIEW')) {
        throw forbidden('Você não tem permissão para este simulador.');
      }
      const simulator = await ctx.db.selectFrom('simulators').select('ativo').where('code', '=', ctx.query.tipo).executeTakeFirst();
      if (!simulator?.ativo) throw notFound('Simulador indisponível.');
      return issueRedirect(ctx.db, ctx.auth.user.id, ctx.query.tipo);
    },
  }),
  // The body is validated by the service after the role check: whoever may not edit gets 403.
  endpoint({
    method: 'PUT',
    path: '/v1/simuladores/:id',
    auth: ['v1'],
    params: simulatorIdParam,
    body: z.unknown(),
    async handle(ctx) {
      await requireV1Admin(ctx);
      const id = /^\d{1,9}$/.test(ctx.params.id) ? Number(ctx.params.id) : 0;
      return updateSimulator(ctx.db, id, ctx.body);
    },
  }),
  changePasswordEndpoint('v1'),
  ...recoveryEndpoints(),
];

/** PUT /v1/senha: the signed-in user's own password (profile page); the BFF mounts it for v2. */
export function changePasswordEndpoint(kind: 'v1' | 'v2') {
  return endpoint({
    method: 'PUT',
    path: '/v1/senha',
    auth: [kind],
    body: changePasswordSchema,
    async handle(ctx) {
      await changePassword(ctx.db, ctx.auth.user, ctx.auth.session.id, ctx.body.senhaAtual, ctx.body.senha, ctx.ip);
      return { mensagem: 'Senha alterada. As outras sessões abertas foram encerradas.' };
    },
  });
}

/** Account recovery and first access; the BFF mounts the same handlers for the v2 screens. */
export function recoveryEndpoints() {
  return [
    endpoint({
      method: 'POST',
      path: '/v1/senha/esqueci',
      body: forgotPasswordSchema,
      async handle(ctx) {
        await requestPasswordReset(ctx.db, ctx.body.email, ctx.ip);
        return { mensagem: GENERIC_RECOVERY_MESSAGE };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/v1/senha/redefinir',
      body: resetPasswordSchema,
      async handle(ctx) {
        const { loginPath } = await resetPassword(ctx.db, ctx.body.token, ctx.body.senha, ctx.ip);
        return { mensagem: 'Senha redefinida com sucesso.', login: loginPath };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/v1/codigo-validacao/reenviar',
      body: resendCodeSchema,
      async handle(ctx) {
        await resendValidationCode(ctx.db, ctx.body.email, ctx.ip);
        return { mensagem: GENERIC_RECOVERY_MESSAGE };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/v1/primeiro-acesso',
      body: firstAccessSchema,
      async handle(ctx) {
        const { generation } = await completeFirstAccess(ctx.db, ctx.body.email, ctx.body.codigo, ctx.body.senha, ctx.ip);
        return { mensagem: 'Cadastro realizado com sucesso.', geracao: generation };
      },
    }),
  ];
}
