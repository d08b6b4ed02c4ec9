import * as z from 'zod/mini';
import { allChannels, channelById, hierarchyOf, saveChannel } from '../../server/services/network/hierarchy';
import {
  CHANNEL_CODE,
  CHANNEL_PAGES,
  channelEditPath,
  channelSchema,
  hierarchySearchSchema,
  mayEditChannels,
  parentChoices,
  type ChannelFact,
  type HierarchyNode,
  type HierarchyScope,
} from '../../lib/hierarchy';
import { formErrors, formValues, type FieldErrors, type V1Actor } from '../../lib/user-admin';
import type { PortalSession } from '../../lib/session';
import { asFieldErrors, adminContext, readForm, type Routed } from '../controller.server';

/*
 * The hierarchy and channel pages (issue 17, decision 050): a GET search over a tree rendered on the
 * server, and a plain POST form for a channel. A save redirects (303) to the hierarchy, which says
 * so; a refusal renders the form again with its values and pt-BR messages (400, or 409 when the
 * tree refuses it: a duplicate code, a loop) — never a 500 for bad input, nothing half-written.
 */

type Values = Record<string, string | string[]>;

export interface HierarchyProps {
  root: HierarchyNode;
  scope: HierarchyScope['kind'];
  busca: string;
  matches?: number;
  errors?: FieldErrors;
  canEdit: boolean;
  /** The channels in view, for the channel list (the admin group's). */
  channels: ChannelFact[];
  notice?: { text: string; anchor?: string };
}

/** /consulta-hierarquia?busca=…: the viewer's tree (HIERARQUIA VIEW; the route guard checked it). */
export async function hierarchyPage(session: PortalSession, url: URL): Promise<{ status: number; props: HierarchyProps }> {
  const { db, actor: anyActor } = await adminContext(session, 'v1');
  const actor = anyActor as V1Actor;
  const raw = url.searchParams.get('busca') ?? '';
  const parsed = z.safeParse(hierarchySearchSchema, { busca: raw });
  const busca = parsed.success ? parsed.data.busca : '';
  const view = await hierarchyOf(db, actor, busca);
  const saved = url.searchParams.get('salvo') ?? '';
  const channel = CHANNEL_CODE.test(saved) ? view.channels.find((c) => c.codigo === saved) : undefined;
  return {
    status: parsed.success ? 200 : 400,
    props: {
      root: view.root,
      scope: view.scope.kind,
      busca: parsed.success ? busca : raw.slice(0, 200),
      matches: view.matches,
      errors: parsed.success ? undefined : formErrors(parsed.error.issues),
      canEdit: mayEditChannels(actor),
      channels: view.channels,
      notice: channel ? { text: `Canal ${channel.nome} salvo.`, anchor: `no-c${channel.id}` } : undefined,
    },
  };
}

export interface ChannelFormProps {
  mode: 'novo' | 'editar';
  channel?: ChannelFact;
  formAction: string;
  values: Values;
  errors?: FieldErrors;
  /** The parents the channel may take (itself and those below it left out), in tree order. */
  parents: ReturnType<typeof parentChoices>;
}

/** /cadastrar-canal and /editar-canal/{id}: the admin group's; anyone else holding HIERARQUIA gets 403. */
export async function channelFormPage(
  session: PortalSession,
  idParam: string | undefined,
  request: Request,
  ip: string,
): Promise<Routed<ChannelFormProps> | { kind: 'forbidden' }> {
  const { db, actor: anyActor } = await adminContext(session, 'v1');
  const actor = anyActor as V1Actor;
  if (!mayEditChannels(actor)) return { kind: 'forbidden' };
  let channel: ChannelFact | undefined;
  if (idParam !== undefined) {
    channel = /^[1-9]\d{0,8}$/.test(idParam) ? await channelById(db, Number(idParam)) : undefined;
    if (!channel) return { kind: 'not-found' };
  }
  const channels = await allChannels(db);
  const codeOf = (id: number | null) => channels.find((c) => c.id === id)?.codigo ?? '';
  const props: ChannelFormProps = {
    mode: channel ? 'editar' : 'novo',
    channel,
    formAction: channel ? channelEditPath(channel.id) : CHANNEL_PAGES.novo,
    values: channel
      ? { codigo: channel.codigo, nome: channel.nome, tipo: channel.tipo, canalPai: codeOf(channel.parentId), status: channel.status }
      : { codigo: '', nome: '', tipo: '', canalPai: '', status: 'ATIVO' },
    parents: parentChoices(channels, channel?.id),
  };
  if (request.method !== 'POST') return { kind: 'page', status: 200, props };
  const form = formValues(await readForm(request));
  // The code names the channel in addresses: an existing channel keeps its own, whatever is posted.
  const values: Values = { ...form, codigo: channel ? channel.codigo : (form.codigo ?? '') };
  const parsed = z.safeParse(channelSchema, values);
  if (!parsed.success) return { kind: 'page', status: 400, props: { ...props, values, errors: formErrors(parsed.error.issues) } };
  try {
    const saved = await saveChannel(db, actor, parsed.data, channel, ip);
    return { kind: 'redirect', to: `${CHANNEL_PAGES.hierarquia}?salvo=${encodeURIComponent(saved.codigo)}` };
  } catch (error) {
    const failed = asFieldErrors(error);
    if (!failed) throw error;
    return { kind: 'page', status: failed.status, props: { ...props, values, errors: failed.errors } };
  }
}
