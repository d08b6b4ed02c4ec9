import * as z from 'zod/mini';
import type * as core from 'zod/v4/core';
import { endpoint, type Context } from '../router';
import { ApiError } from '../errors';
import { notFound } from '../../errors';
import { actorOf } from '../../services/network/user-admin';
import {
  listPointsOfSale,
  pointOfSaleOf,
  requirePointsOfSale,
  savePointOfSale,
  sellerOptions,
  type PointOfSaleRecord,
} from '../../services/network/points-of-sale';
import { POINT_OF_SALE_MESSAGES, pointOfSaleListQuery, pointOfSaleSchema } from '../../../lib/points-of-sale';
import { parseListQuery } from '../../../lib/list-query';
import { formErrors, type V2Actor } from '../../../lib/user-admin';

/*
 * Points of sale on the portal BFF (issue 17, decision 051), for the v2 screens' rule: ADMIN,
 * PARCEIRO_ADMIN or GERENCIAR_PONTO_VENDA — whoever else gets 403 before anything is read. The body
 * is the form's own schema (lib/points-of-sale.ts): 400 with field errors; a point of sale of a
 * company the caller does not manage, or none, is a 404; a duplicate code or a deactivation with
 * sellers a 409. Nothing is half-written: each save is one transaction.
 */

async function manager(ctx: Context) {
  const actor = (await actorOf(ctx.db, ctx.auth.user)) as V2Actor;
  requirePointsOfSale(actor);
  return actor;
}

function parsed<T extends core.$ZodType>(schema: T, body: unknown): core.output<T> {
  const result = z.safeParse(schema, body ?? {});
  if (!result.success) {
    const errors = formErrors(result.error.issues);
    throw new ApiError(400, Object.values(errors)[0]?.[0] ?? 'Requisição inválida', errors);
  }
  return result.data;
}

const idOf = (raw: string) => {
  if (!/^[1-9]\d{0,8}$/.test(raw)) throw notFound(POINT_OF_SALE_MESSAGES.notFound);
  return Number(raw);
};

/** A point of sale as the API answers it, with the users who work there. */
async function answer(ctx: Context, actor: V2Actor, record: PointOfSaleRecord) {
  const sellers = (await sellerOptions(ctx.db, actor, [], record.id)).filter((s) => s.pointOfSaleId === record.id);
  return {
    idPontoVenda: record.id,
    codigo: record.codigo,
    nome: record.nome,
    situacao: record.status,
    empresa: { cdCnpj: record.empresa.cnpj, nmRazaoSocial: record.empresa.nome },
    endereco: record.endereco,
    vendedores: sellers.map((s) => ({ idUsuario: s.id, nome: s.nome, email: s.email, geracao: s.generation })),
  };
}

const idParam = z.object({ id: z.string() });

export const pointOfSaleEndpoints = [
  endpoint({
    method: 'GET',
    path: '/v1/pontos-venda',
    auth: ['v2'],
    async handle(ctx) {
      const actor = await manager(ctx);
      const query = parseListQuery(pointOfSaleListQuery, ctx.url.searchParams);
      if (!query.ok) throw new ApiError(400, Object.values(query.errors)[0]?.[0] ?? 'Filtro inválido', query.errors);
      const { content, ...page } = await listPointsOfSale(ctx.db, actor, query.filters, query.page);
      return {
        ...page,
        content: content.map((p) => ({
          idPontoVenda: p.id,
          codigo: p.codigo,
          nome: p.nome,
          situacao: p.status,
          empresa: { cdCnpj: p.empresa.cnpj, nmRazaoSocial: p.empresa.nome },
          cidade: p.endereco?.cidade ?? null,
          uf: p.endereco?.uf ?? null,
          vendedores: p.vendedores,
        })),
      };
    },
  }),
  endpoint({
    method: 'GET',
    path: '/v1/pontos-venda/:id',
    auth: ['v2'],
    params: idParam,
    async handle(ctx) {
      const actor = await manager(ctx);
      const record = await pointOfSaleOf(ctx.db, actor, idOf(ctx.params.id));
      if (!record) throw notFound(POINT_OF_SALE_MESSAGES.notFound);
      return answer(ctx, actor, record);
    },
  }),
  endpoint({
    method: 'POST',
    path: '/v1/pontos-venda',
    auth: ['v2'],
    body: z.unknown(),
    async handle(ctx) {
      const actor = await manager(ctx);
      const saved = await savePointOfSale(ctx.db, actor, parsed(pointOfSaleSchema, ctx.body), undefined, ctx.ip);
      return { ...(await answer(ctx, actor, (await pointOfSaleOf(ctx.db, actor, saved.id))!)), mensagem: 'Ponto de venda cadastrado.' };
    },
  }),
  endpoint({
    method: 'PUT',
    path: '/v1/pontos-venda/:id',
    auth: ['v2'],
    params: idParam,
    body: z.unknown(),
    async handle(ctx) {
      const actor = await manager(ctx);
      const input = parsed(pointOfSaleSchema, ctx.body);
      const saved = await savePointOfSale(ctx.db, actor, input, idOf(ctx.params.id), ctx.ip);
      return { ...(await answer(ctx, actor, (await pointOfSaleOf(ctx.db, actor, saved.id))!)), mensagem: 'Ponto de venda alterado.' };
    },
  }),
];
