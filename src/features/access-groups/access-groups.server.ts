import * as z from 'zod/mini';
import { config, externalLinks } from '../../server/config';
import {
  deletePermissionGroup,
  legacyGroupOf,
  legacyGroupsByChannel,
  channelOf,
  listPermissionGroups,
  permissionGroupOf,
  savePermissionGroup,
  saveLegacyGroup,
  type ChannelGroups,
  type LegacyGroupRecord,
  type PermissionGroupDetail,
  type PermissionGroupRow,
} from '../../server/services/network/access-groups';
import { companyOptions, type CompanyOption } from '../../server/services/network/user-admin';
import {
  GROUP_ACTIONS,
  GROUP_OPERATIONS,
  LEGACY_PERMISSION_CATALOG,
  legacyGroupPath,
  legacyGroupSchema,
  mayEditLegacyGroups,
  menuPreview,
  PERMISSION_GROUP_ACTIONS,
  PERMISSION_PAGES,
  permissionGroupPath,
  permissionGroupSchema,
  permissionsOfForm,
  profileOfCompany,
  type GroupAction,
  type PermissionGroupAction,
} from '../../lib/access-groups';
import { formErrors, formValues, heldOperations, operationLabel, type FieldErrors, type V1Actor, type V2Actor } from '../../lib/user-admin';
import type { VisibleItem } from '../../lib/menu-visibility';
import type { V1Permission } from '../../lib/permissions';
import type { PortalSession } from '../../lib/session';
import { pageWithin, withReadablePage } from '../../lib/list-query';
import { asFieldErrors, adminContext, readForm, type Routed } from '../controller.server';
import { endsWithoutGrant, GRANT_END_MESSAGES, grantEndDays, readGrantEnds } from '../../lib/grant-ends';
import { brasiliaDay } from '../../lib/format';
import { now } from '../../server/clock';

/*
 * The pages of the groups that hold permissions (issue 16, decision 047): plain GET and POST forms.
 * A save redirects (303) to a page that says so; a refusal renders the form again with its values
 * and pt-BR messages (400, or 409 for a duplicate name) — never a 500 for bad input. A group the
 * viewer may not open, or an address that names none, is the 404 page.
 */

type Values = Record<string, string | string[]>;

/** A CNPJ as addresses carry it (digits, or the alphanumeric format): anything else is not looked up. */
const isCnpj = (value: string | undefined) => /^[0-9A-Z]{12}\d{2}$/.test(value ?? '');

// ─── Legacy access groups ────────────────────────────────────────────────────────────────────────

export interface LegacyGroupsProps {
  channels: ChannelGroups[];
  canEdit: boolean;
  notice?: string;
}

/** /grupo-acesso: the groups of every channel. */
export async function legacyGroupsPage(session: PortalSession, url: URL): Promise<LegacyGroupsProps> {
  const { db, actor } = await adminContext(session, 'v1');
  const saved = url.searchParams.get('salvo');
  return {
    channels: await legacyGroupsByChannel(db),
    canEdit: mayEditLegacyGroups(actor as V1Actor),
    notice:
      saved && /^[A-Z][A-Z0-9_]{2,39}$/.test(saved)
        ? `Grupo ${saved} salvo. Os usuários do grupo já veem as novas permissões na próxima página que abrirem.`
        : undefined,
  };
}

export interface LegacyGroupProps {
  action: GroupAction;
  channel: { codigo: string; nome: string };
  group?: LegacyGroupRecord;
  canEdit: boolean;
  formAction: string;
  values: Values;
  /** The permissions the form shows checked. */
  permissions: V1Permission[];
  /** Each permission's "válido até" day as the form shows it (YYYY-MM-DD; absent: no end). */
  ends: Record<string, string>;
  /** Brasília's today (YYYY-MM-DD): the first day a "válido até" may name (the inputs' `min`). */
  today: string;
  errors?: FieldErrors;
}

const valuesOfGroup = (group: LegacyGroupRecord): Values => ({
  nome: group.nome,
  descricao: group.descricao,
  ver: group.permissions.filter((p) => p.permiteVisualizacao).map((p) => p.nome),
  alterar: group.permissions.filter((p) => p.permiteAlteracao).map((p) => p.nome),
});

/** /grupo-acesso/{grupo}/{canal}/{visualizar|editar|novo}. */
export async function legacyGroupPage(
  session: PortalSession,
  params: { grupo?: string; canal?: string; action?: string },
  request: Request,
  ip: string,
): Promise<Routed<LegacyGroupProps>> {
  const { db, actor: anyActor } = await adminContext(session, 'v1');
  const actor = anyActor as V1Actor;
  const action = GROUP_ACTIONS.find((a) => a === params.action);
  // A name or channel code that could not exist is not looked up.
  const grupo = params.grupo ?? '';
  const canal = params.canal ?? '';
  if (!action || !/^([A-Z][A-Z0-9_]{2,39}|novo)$/.test(grupo) || !/^[a-z0-9-]{1,40}$/.test(canal)) return { kind: 'not-found' };
  const canEdit = mayEditLegacyGroups(actor);
  // Changing is the admin group's: anyone else opening an edit or a new group finds nothing.
  if (action !== 'visualizar' && !canEdit) return { kind: 'not-found' };
  let group: LegacyGroupRecord | undefined;
  let channel: { codigo: string; nome: string } | undefined;
  if (action === 'novo') {
    if (grupo !== 'novo') return { kind: 'not-found' };
    channel = await channelOf(db, canal);
  } else {
    group = await legacyGroupOf(db, grupo, canal);
    channel = group?.channel;
    if (group && action === 'editar' && group.isAdmin)
      return { kind: 'redirect', to: legacyGroupPath(group.nome, group.channel.codigo, 'visualizar') };
  }
  if (!channel) return { kind: 'not-found' };
  const props: LegacyGroupProps = {
    action,
    channel,
    group,
    canEdit,
    formAction: legacyGroupPath(group?.nome ?? 'novo', channel.codigo, action),
    values: group ? valuesOfGroup(group) : { ver: [], alterar: [] },
    permissions: group?.permissions ?? [],
    ends: grantEndDays(group?.ends ?? {}),
    today: brasiliaDay(now()),
  };
  if (request.method !== 'POST' || action === 'visualizar') return { kind: 'page', status: request.method === 'POST' ? 405 : 200, props };
  const form = await readForm(request);
  const values = formValues(form, ['ver', 'alterar']);
  const parsed = z.safeParse(legacyGroupSchema, values);
  const permissions = permissionsOfForm({ ver: [...(values.ver as string[])], alterar: [...(values.alterar as string[])] });
  // Each checked permission's "válido até" (decision 071), read before anything is written.
  const {
    ends,
    days,
    errors: endErrors,
  } = readGrantEnds(
    form,
    permissions.map((p) => p.nome),
    now(),
  );
  // A day beside a permission left unchecked is refused, not dropped (issue 42).
  const stray = endsWithoutGrant(
    form,
    LEGACY_PERMISSION_CATALOG.map((p) => p.code),
    permissions.map((p) => p.nome),
    GRANT_END_MESSAGES.uncheckedPermission,
  );
  const refused = [...endErrors, ...stray.errors];
  const shown = { ...props, values, permissions, ends: { ...days, ...stray.days } };
  if (!parsed.success || refused.length > 0) {
    const errors = parsed.success ? {} : formErrors(parsed.error.issues);
    return { kind: 'page', status: 400, props: { ...shown, errors: refused.length > 0 ? { ...errors, ate: refused } : errors } };
  }
  try {
    const nome = await saveLegacyGroup(db, actor, { channelCodigo: channel.codigo, existing: group }, parsed.data, ip, ends);
    return { kind: 'redirect', to: `/grupo-acesso?salvo=${encodeURIComponent(nome)}` };
  } catch (error) {
    const failed = asFieldErrors(error);
    if (!failed) throw error;
    return { kind: 'page', status: failed.status, props: { ...shown, errors: failed.errors } };
  }
}

// ─── v2 permission groups ────────────────────────────────────────────────────────────────────────

export interface PermissionGroupsProps {
  rows: PermissionGroupRow[];
  companies: CompanyOption[];
  values: { empresa: string; nome: string };
  page: number;
  totalPages: number;
  totalElements: number;
  notice?: string;
  errors?: FieldErrors;
}

const listQuery = z.object({
  empresa: z.pipe(
    z.pipe(
      z.optional(z.string().check(z.maxLength(20))),
      z.transform((v) => (v ?? '').replace(/[./\-\s]/g, '').toUpperCase()),
    ),
    z.string().check(z.regex(/^([0-9A-Z]{12}\d{2})?$/, 'Empresa inválida.')),
  ),
  nome: z.pipe(
    z.optional(z.string().check(z.maxLength(60, 'Nome muito longo.'))),
    z.transform((v) => (v ?? '').trim()),
  ),
  pagina: z.pipe(
    z.optional(z.string().check(z.regex(/^[1-9]\d{0,5}$/, 'Página inválida.'))),
    z.transform((v) => Number(v ?? 1)),
  ),
});

/** /v2/usuario/permissoes/consulta. */
export async function permissionGroupsPage(session: PortalSession, url: URL): Promise<{ status: number; props: PermissionGroupsProps }> {
  const { db, actor } = await adminContext(session, 'v2');
  // A page that is no number shows the first, one past the last the last (lib/list-query.ts).
  const raw = Object.fromEntries(
    [...withReadablePage(url.searchParams, 'pagina')].filter(([k]) => ['empresa', 'nome', 'pagina'].includes(k)),
  );
  const values = { empresa: raw.empresa ?? '', nome: raw.nome ?? '' };
  const companies = await companyOptions(db, actor);
  const parsed = z.safeParse(listQuery, raw);
  const notice = url.searchParams.get('aviso') === 'excluido' ? 'Grupo excluído.' : undefined;
  if (!parsed.success)
    return {
      status: 400,
      props: { rows: [], companies, values, page: 1, totalPages: 0, totalElements: 0, errors: formErrors(parsed.error.issues), notice },
    };
  const { empresa, nome, pagina } = parsed.data;
  const result = await pageWithin(pagina, (p) => listPermissionGroups(db, actor as V2Actor, { empresa, nome }, p));
  return {
    status: 200,
    props: {
      rows: result.content,
      companies,
      values,
      page: result.page,
      totalPages: result.totalPages,
      totalElements: result.totalElements,
      notice,
    },
  };
}

export interface PermissionGroupProps {
  action: PermissionGroupAction | 'novo';
  group?: PermissionGroupDetail;
  companies: CompanyOption[];
  /** The operations the form offers: what the viewer holds, and what the group already has. */
  operations: string[];
  formAction: string;
  values: Values;
  /** Each operation's "válido até" day as the form shows it (YYYY-MM-DD; absent: no end). */
  ends: Record<string, string>;
  /** Brasília's today (YYYY-MM-DD): the first day a "válido até" may name (the inputs' `min`). */
  today: string;
  errors?: FieldErrors;
  preview: { profile: string; menu: VisibleItem[] };
}

function previewOf(operations: readonly string[], tipo: 'PARCEIRO' | 'SUBSTABELECIDO') {
  const profile = profileOfCompany(tipo);
  return { profile, menu: menuPreview(operations, profile, config().PORTAL_ENV, externalLinks()) };
}

const listOfValue = (v: string | string[] | undefined) => (Array.isArray(v) ? v : v ? [v] : []);

/**
 * /v2/usuario/permissoes/cadastro (a new group) and /v2/usuario/permissoes/{id}/{cdCnpjEmpresa}/{action}
 * (visualizar, editar). A POST with acao=previa shows the menu of the operations checked without
 * saving; acao=salvar saves; acao=excluir deletes a group nobody holds.
 */
export async function permissionGroupPage(
  session: PortalSession,
  params: { id?: string; cnpj?: string; action?: string },
  request: Request,
  ip: string,
): Promise<Routed<PermissionGroupProps>> {
  const { db, actor: anyActor } = await adminContext(session, 'v2');
  const actor = anyActor as V2Actor;
  const isNew = params.id === undefined;
  const action = isNew ? 'novo' : PERMISSION_GROUP_ACTIONS.find((a) => a === params.action);
  if (!action) return { kind: 'not-found' };
  let group: PermissionGroupDetail | undefined;
  if (!isNew) {
    group =
      /^[1-9]\d{0,8}$/.test(params.id!) && isCnpj(params.cnpj)
        ? await permissionGroupOf(db, actor, Number(params.id), params.cnpj!)
        : undefined;
    if (!group) return { kind: 'not-found' };
  }
  const companies = await companyOptions(db, actor);
  const values: Values = group
    ? { empresa: group.empresa.cnpj, nome: group.nome, descricao: group.descricao, operacoes: group.operacoes }
    : { empresa: companies.length === 1 ? companies[0]!.cnpj : '', nome: '', descricao: '', operacoes: [] };
  const held = new Set([...heldOperations(actor), ...(group?.operacoes ?? [])]);
  const tipoOf = (cnpj: string) => companies.find((c) => c.cnpj === cnpj)?.tipo ?? group?.empresa.tipo ?? 'PARCEIRO';
  const props: PermissionGroupProps = {
    action,
    group,
    companies,
    operations: GROUP_OPERATIONS.filter((op) => held.has(op)),
    formAction: group ? permissionGroupPath(group.id, group.empresa.cnpj, 'editar') : PERMISSION_PAGES.cadastro,
    values,
    ends: grantEndDays(group?.ends ?? {}),
    today: brasiliaDay(now()),
    preview: previewOf(listOfValue(values.operacoes), tipoOf(String(values.empresa))),
  };
  if (request.method !== 'POST') return { kind: 'page', status: 200, props };
  if (action === 'visualizar') return { kind: 'page', status: 405, props };

  const raw = await readForm(request);
  const form = formValues(raw, ['operacoes']);
  const intent = form.acao;
  if (intent === 'excluir' && group) {
    try {
      await deletePermissionGroup(db, actor, group, ip);
      return { kind: 'redirect', to: `${PERMISSION_PAGES.consulta}?aviso=excluido` };
    } catch (error) {
      const failed = asFieldErrors(error);
      if (!failed) throw error;
      return { kind: 'page', status: failed.status, props: { ...props, errors: failed.errors } };
    }
  }
  // The company of an existing group does not change (the form does not offer it).
  const posted: Values = { ...form, empresa: group ? group.empresa.cnpj : (form.empresa ?? '') };
  const parsed = z.safeParse(permissionGroupSchema, posted);
  const checked = listOfValue(posted.operacoes).filter((op) => GROUP_OPERATIONS.includes(op));
  // Each checked operation's "válido até" (decision 071), read before anything is written.
  const { ends, days, errors: endErrors } = readGrantEnds(raw, checked, now(), undefined, operationLabel);
  const shown = { ...props, values: posted, ends: days, preview: previewOf(checked, tipoOf(String(posted.empresa))) };
  if (intent === 'previa') return { kind: 'page', status: 200, props: shown };
  if (!parsed.success || endErrors.length > 0) {
    const errors = parsed.success ? {} : formErrors(parsed.error.issues);
    return { kind: 'page', status: 400, props: { ...shown, errors: endErrors.length > 0 ? { ...errors, ate: endErrors } : errors } };
  }
  try {
    const saved = await savePermissionGroup(db, actor, parsed.data, group, ip, ends);
    return { kind: 'redirect', to: `${PERMISSION_PAGES.sucesso}?grupo=${saved.id}&empresa=${saved.cnpj}` };
  } catch (error) {
    const failed = asFieldErrors(error);
    if (!failed) throw error;
    return { kind: 'page', status: failed.status, props: { ...shown, errors: failed.errors } };
  }
}

export interface PermissionSuccessProps {
  group: PermissionGroupRow;
  preview: { profile: string; menu: VisibleItem[] };
}

/** /v2/usuario/permissoes/sucesso?grupo={id}&empresa={cnpj}: the group saved, and its menu. */
export async function permissionSuccessPage(session: PortalSession, url: URL): Promise<PermissionSuccessProps | undefined> {
  const { db, actor } = await adminContext(session, 'v2');
  const id = url.searchParams.get('grupo') ?? '';
  const cnpj = url.searchParams.get('empresa') ?? '';
  const group = /^[1-9]\d{0,8}$/.test(id) && isCnpj(cnpj) ? await permissionGroupOf(db, actor as V2Actor, Number(id), cnpj) : undefined;
  return group ? { group, preview: previewOf(group.operacoes, group.empresa.tipo) } : undefined;
}
