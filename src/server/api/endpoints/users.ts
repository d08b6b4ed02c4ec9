import { z } from '../../../lib/zod';
import { endpoint, type Context } from '../router';
import { ApiError } from '../errors';
import {
  formErrors,
  legacyUserSchema,
  linkSchema,
  personalDataSchema,
  statusChangeSchema,
  v2UserSchema,
  USER_STATUSES,
} from '../../../lib/user-admin';
import { actorOf, listUsers, requireChange, resetUserSecondFactor, SECOND_FACTOR_RESET_MESSAGE } from '../../services/network/user-admin';
import { setUserStatus } from '../../services/network/user-admin-writing';
import { createLegacyUser, updateLegacyUser } from '../../services/network/user-admin-legacy';
import { createV2User, updateV2User } from '../../services/network/user-admin-v2';
import * as zm from 'zod/mini';
import type * as core from 'zod/v4/core';

/**
 * User administration on the partner platform API (issue 16, decision 046), for both generations:
 * the session says whose users and which form — a legacy session lists and changes legacy users
 * (groups, one company), a v2 session v2 users (profile, companies, point of sale, operations).
 * The body is checked after the caller's right to change users: whoever may not gets 403 first.
 */

const userFilterQuery = z.object({
  page: z.coerce.number({ error: 'Página inválida' }).int().min(0, 'Página inválida').max(100_000).default(0),
  'page-size': z.coerce.number({ error: 'Tamanho de página inválido' }).int().min(1).max(50, 'No máximo 50 por página').default(4),
  email: z.string().max(254).optional(),
  nome: z.string().max(200).optional(),
  empresa: z.string().max(200).optional(),
  status: z
    .string()
    .trim()
    .toUpperCase()
    .pipe(z.enum(USER_STATUSES, { error: 'Status inválido' }))
    .optional(),
});

const idParam = z.object({ id: z.string() });
const idOf = (raw: string) => {
  if (!/^[1-9]\d{0,8}$/.test(raw)) throw new ApiError(404, 'Usuário não encontrado entre os que você administra.');
  return Number(raw);
};

/** A body read with a form's schema: its field errors, keyed by the form's field names, as a 400. */
export function parsed<T extends core.$ZodType>(schema: T, body: unknown): core.output<T> {
  const result = zm.safeParse(schema, body ?? {});
  if (!result.success) {
    const errors = formErrors(result.error.issues);
    throw new ApiError(400, Object.values(errors)[0]?.[0] ?? 'Requisição inválida', errors);
  }
  return result.data;
}

async function changer(ctx: Context) {
  const actor = await actorOf(ctx.db, ctx.auth.user);
  requireChange(actor);
  return actor;
}

const v2Change = (body: unknown) => {
  const input = parsed(v2UserSchema, body);
  return {
    dados: parsed(personalDataSchema, input),
    vinculo: parsed(linkSchema, input),
    status: input.status,
  };
};

const answer = (user: { id: number; nome: string; email: string; status: string }) => ({
  idUsuario: user.id,
  nome: user.nome,
  email: user.email,
  status: user.status,
});

export const userEndpoints = [
  endpoint({
    method: 'GET',
    path: '/v1/usuarios/filtro',
    auth: ['v1', 'v2'],
    query: userFilterQuery,
    async handle(ctx) {
      const actor = await actorOf(ctx.db, ctx.auth.user);
      const { page, 'page-size': pageSize, email, nome, empresa, status } = ctx.query;
      return listUsers(ctx.db, actor, { email, nome, empresa, status }, page, pageSize);
    },
  }),
  endpoint({
    method: 'POST',
    path: '/v1/usuarios',
    auth: ['v1', 'v2'],
    body: z.unknown(),
    async handle(ctx) {
      const actor = await changer(ctx);
      const saved =
        actor.generation === 'v1'
          ? await createLegacyUser(ctx.db, actor, parsed(legacyUserSchema, ctx.body), ctx.ip)
          : await createV2User(ctx.db, actor, v2Change(ctx.body), ctx.ip);
      return { ...answer(saved), mensagem: 'Usuário cadastrado. Enviamos o e-mail de primeiro acesso.' };
    },
  }),
  endpoint({
    method: 'PUT',
    path: '/v1/usuarios/:id',
    auth: ['v1', 'v2'],
    params: idParam,
    body: z.unknown(),
    async handle(ctx) {
      const actor = await changer(ctx);
      const id = idOf(ctx.params.id);
      const saved =
        actor.generation === 'v1'
          ? await updateLegacyUser(ctx.db, actor, id, parsed(legacyUserSchema, ctx.body), ctx.ip)
          : await updateV2User(ctx.db, actor, id, v2Change(ctx.body), ctx.ip);
      return { ...answer(saved), mensagem: 'Usuário alterado.' };
    },
  }),
  endpoint({
    method: 'PUT',
    path: '/v1/usuarios/:id/status',
    auth: ['v1', 'v2'],
    params: idParam,
    body: z.unknown(),
    async handle(ctx) {
      const actor = await changer(ctx);
      const id = idOf(ctx.params.id);
      const { status } = parsed(statusChangeSchema, ctx.body);
      const saved = await setUserStatus(ctx.db, actor, id, status, ctx.ip);
      return { ...answer(saved), mensagem: 'Situação do usuário alterada.' };
    },
  }),
  endpoint({
    // Issue 32: a lost phone and lost codes — the administrator resets the user's second factor (logged).
    method: 'POST',
    path: '/v1/usuarios/:id/segundo-fator/redefinir',
    auth: ['v1', 'v2'],
    params: idParam,
    async handle(ctx) {
      const actor = await changer(ctx);
      await resetUserSecondFactor(ctx.db, actor, idOf(ctx.params.id), ctx.ip);
      return { mensagem: SECOND_FACTOR_RESET_MESSAGE };
    },
  }),
];
