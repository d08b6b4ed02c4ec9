import { z } from '../../../lib/zod';
import { endpoint, type Context } from '../router';
import { ApiError } from '../errors';
import { config, externalLinks } from '../../config';
import { listUserHistory } from '../../services/identity/access-log';
import { actorOf } from '../../services/network/user-admin';
import { historyAccess, readsSecurity, userPageFacts } from '../../services/network/user-page';
import { endUserSessions, listPendingInvitations, USER_PAGE_ACTIONS } from '../../services/network/user-invitations';
import type { SavedUser } from '../../services/network/user-admin-writing';
import { keysetAnswer, lastPlainPage, pageRequestOf } from '../../../lib/keyset-pages';
import {
  HISTORY_KINDS,
  INVITATIONS_PAGE_SIZE,
  USER_ACTION_NOTICES,
  USER_HISTORY_PAGE_SIZE,
  type UserPageAction,
} from '../../../lib/user-page';
import type { Generation } from '../../../lib/quote-flow';
import { viewerOf } from './policies';

/**
 * A user's page and the pending invitations as JSON (issue 32, decision 069), under each generation's
 * base — the platform for legacy sessions, the BFF for v2 — with the pages' rules: a user outside the
 * caller's administration is a 404 (the same answer as no such user), the actions need the right to
 * change users and a user the caller may change. The sessions, the second factor and the sign-ins only
 * to a caller who may change the user; the access log as the caller's own scope reads it (issue 42,
 * decision 072): `sessoes` and `segundoFator` null, `tipo=entradas` a 403, otherwise.
 *
 *   GET  /v1/usuarios/:id/pagina                       who, effective permissions, menu, invitation, sessions, second factor
 *   GET  /v1/usuarios/:id/historico?tipo=&pagina=&cursor=   sign-ins or access log, keyset pages
 *   GET  /v1/convites?pagina=&cursor=                  pending first accesses, oldest first
 *   POST /v1/usuarios/:id/convite/reenvio | /convite/cancelamento | /nova-senha | /sessoes/encerrar
 *   DELETE /v1/usuarios/:id/sessoes/:sessao            ends one of the user's sessions
 */

const idParam = z.object({ id: z.string() });
const NOT_MANAGED = 'Usuário não encontrado entre os que você administra.';
const NOT_SECURITY = 'As entradas, sessões e a verificação em duas etapas deste usuário são vistas só por quem pode administrá-lo.';
const idOf = (raw: string) => {
  if (!/^[1-9]\d{0,8}$/.test(raw)) throw new ApiError(404, NOT_MANAGED);
  return Number(raw);
};

const pageQuery = (pageSize: number) => ({
  pagina: z.coerce
    .number({ error: 'Página inválida' })
    .int('Página inválida')
    .min(1, 'Página inválida')
    .max(lastPlainPage(pageSize), `No máximo a página ${lastPlainPage(pageSize)} sem cursor`)
    .default(1),
  cursor: z.string().max(120).optional(),
});
const historyQuery = z.object({
  tipo: z
    .enum(Object.keys(HISTORY_KINDS) as ['entradas', 'registro'], { error: 'Tipo inválido: entradas ou registro' })
    .default('entradas'),
  ...pageQuery(USER_HISTORY_PAGE_SIZE),
});
const invitationsQuery = z.object(pageQuery(INVITATIONS_PAGE_SIZE));

const ACTION_PATHS: [string, Exclude<UserPageAction, 'sessao-encerrar'>][] = [
  ['/v1/usuarios/:id/convite/reenvio', 'reenviar-convite'],
  ['/v1/usuarios/:id/convite/cancelamento', 'cancelar-convite'],
  ['/v1/usuarios/:id/nova-senha', 'forcar-nova-senha'],
  ['/v1/usuarios/:id/sessoes/encerrar', 'sessoes-encerrar'],
];
const savedAnswer = (saved: SavedUser, action: UserPageAction) => ({
  idUsuario: saved.id,
  nome: saved.nome,
  email: saved.email,
  status: saved.status,
  mensagem: USER_ACTION_NOTICES[action],
});

export function userPageEndpoints(generation: Generation) {
  const auth = [generation] as const;
  const actor = (ctx: Context) => actorOf(ctx.db, ctx.auth.user);
  return [
    endpoint({
      method: 'GET',
      path: '/v1/usuarios/:id/pagina',
      auth: [...auth],
      params: idParam,
      async handle(ctx) {
        const facts = await userPageFacts(ctx.db, await actor(ctx), idOf(ctx.params.id), config().PORTAL_ENV, externalLinks());
        if (!facts) throw new ApiError(404, NOT_MANAGED);
        const { user } = facts;
        return {
          idUsuario: user.id,
          nome: user.nome,
          email: user.email,
          status: user.status,
          perfil: user.profile,
          grupos: user.groups,
          empresas: facts.companies,
          permissoesEfetivas: facts.grants.map((g) => ({
            codigo: g.code,
            nome: g.label,
            ...(g.view === undefined ? {} : { visualizar: g.view, alterar: g.change }),
            origem: g.from,
          })),
          observacao: facts.note ?? null,
          menu: facts.menu,
          convite: facts.invitation,
          sessoes: facts.security?.sessions.map(({ atual: _, ...session }) => session) ?? null,
          segundoFator: facts.security && {
            exigido: facts.security.secondFactor.required,
            aplicativo: facts.security.secondFactor.totp !== null,
            chavesDeAcesso: facts.security.secondFactor.passkeys.length,
            codigosDeRecuperacaoRestantes: facts.security.secondFactor.recoveryCodesLeft,
          },
          podeAlterar: facts.manageable && !facts.self,
        };
      },
    }),
    endpoint({
      method: 'GET',
      path: '/v1/usuarios/:id/historico',
      auth: [...auth],
      params: idParam,
      query: historyQuery,
      async handle(ctx) {
        const id = idOf(ctx.params.id);
        // The user must be the caller's to see: the page's own check (userPageFacts starts with it).
        const lens = await historyAccess(ctx.db, await actor(ctx), await viewerOf(ctx, generation), id);
        if (!lens) throw new ApiError(404, NOT_MANAGED);
        if (ctx.query.tipo === 'entradas' && !readsSecurity(lens)) throw new ApiError(403, NOT_SECURITY);
        const read = await listUserHistory(
          ctx.db,
          id,
          ctx.query.tipo,
          pageRequestOf(ctx.query.pagina, ctx.query.cursor),
          USER_HISTORY_PAGE_SIZE,
          lens,
        );
        return keysetAnswer(read);
      },
    }),
    endpoint({
      method: 'GET',
      path: '/v1/convites',
      auth: [...auth],
      query: invitationsQuery,
      async handle(ctx) {
        const read = await listPendingInvitations(
          ctx.db,
          await actor(ctx),
          pageRequestOf(ctx.query.pagina, ctx.query.cursor),
          INVITATIONS_PAGE_SIZE,
        );
        return keysetAnswer(read);
      },
    }),
    ...ACTION_PATHS.map(([path, action]) =>
      endpoint({
        method: 'POST',
        path,
        auth: [...auth],
        params: idParam,
        body: z.unknown(),
        async handle(ctx) {
          const saved = await USER_PAGE_ACTIONS[action](ctx.db, await actor(ctx), idOf(ctx.params.id), ctx.ip);
          return savedAnswer(saved, action);
        },
      }),
    ),
    endpoint({
      method: 'DELETE',
      path: '/v1/usuarios/:id/sessoes/:sessao',
      auth: [...auth],
      params: z.object({ id: z.string(), sessao: z.string().regex(/^[1-9]\d{0,8}$/, 'Sessão inválida') }),
      async handle(ctx) {
        const saved = await endUserSessions(ctx.db, await actor(ctx), idOf(ctx.params.id), ctx.ip, Number(ctx.params.sessao));
        return savedAnswer(saved, 'sessao-encerrar');
      },
    }),
  ];
}
