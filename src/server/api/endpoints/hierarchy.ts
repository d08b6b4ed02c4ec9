import { z } from '../../../lib/zod';
import { endpoint, type Context } from '../router';
import { ApiError } from '../errors';
import { actorOf } from '../../services/network/user-admin';
import {
  allChannels,
  channelById,
  hierarchyOf,
  requireChannelChange,
  requireHierarchy,
  saveChannel,
} from '../../services/network/hierarchy';
import { channelAsJson, channelSchema, hierarchySearchSchema, treeAsJson, type ChannelFact } from '../../../lib/hierarchy';
import type { V1Actor } from '../../../lib/user-admin';
import { parsed } from './users';

/**
 * Sales channels and the hierarchy on the partner platform API (issue 17, decision 050): legacy
 * sessions only, as the pages are legacy. HIERARQUIA VIEW reads the tree (the viewer's part of it) and
 * the channels in it; only the admin group creates and changes channels — whoever may not gets 403
 * before their body is read. Bodies are the channel form's fields (canalPai: the parent's code).
 */

const legacyActor = async (ctx: Context) => (await actorOf(ctx.db, ctx.auth.user)) as V1Actor;

const idOf = (raw: string) => {
  if (!/^[1-9]\d{0,8}$/.test(raw)) throw new ApiError(404, 'Canal não encontrado.');
  return Number(raw);
};

const saved = async (ctx: Context, channel: ChannelFact, mensagem: string) => ({
  ...channelAsJson(channel, await allChannels(ctx.db)),
  mensagem,
});

export const hierarchyEndpoints = [
  endpoint({
    method: 'GET',
    path: '/v1/hierarquia',
    auth: ['v1'],
    query: z.object({ busca: z.string().optional() }),
    async handle(ctx) {
      const actor = await legacyActor(ctx);
      requireHierarchy(actor);
      const { busca } = parsed(hierarchySearchSchema, { busca: ctx.query.busca });
      const view = await hierarchyOf(ctx.db, actor, busca);
      return {
        ...(view.matches === undefined ? {} : { resultados: view.matches }),
        arvore: treeAsJson(view.root, view.channels),
      };
    },
  }),
  endpoint({
    method: 'GET',
    path: '/v1/canais',
    auth: ['v1'],
    async handle(ctx) {
      const view = await hierarchyOf(ctx.db, await legacyActor(ctx), '');
      return view.channels.map((c) => channelAsJson(c, view.channels));
    },
  }),
  endpoint({
    method: 'POST',
    path: '/v1/canais',
    auth: ['v1'],
    body: z.unknown(),
    async handle(ctx) {
      const actor = await legacyActor(ctx);
      requireChannelChange(actor);
      const channel = await saveChannel(ctx.db, actor, parsed(channelSchema, ctx.body), undefined, ctx.ip);
      return saved(ctx, channel, 'Canal cadastrado.');
    },
  }),
  endpoint({
    method: 'PUT',
    path: '/v1/canais/:id',
    auth: ['v1'],
    params: z.object({ id: z.string() }),
    body: z.unknown(),
    async handle(ctx) {
      const actor = await legacyActor(ctx);
      requireChannelChange(actor);
      const existing = await channelById(ctx.db, idOf(ctx.params.id));
      if (!existing) throw new ApiError(404, 'Canal não encontrado.');
      // The code is fixed: the body's, if any, is ignored for the channel's own.
      const body = typeof ctx.body === 'object' && ctx.body !== null ? { ...ctx.body, codigo: existing.codigo } : ctx.body;
      const channel = await saveChannel(ctx.db, actor, parsed(channelSchema, body), existing, ctx.ip);
      return saved(ctx, channel, 'Canal alterado.');
    },
  }),
];
