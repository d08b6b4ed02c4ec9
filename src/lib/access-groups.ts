import * as z from 'zod/mini';
import { visibleMenu, type Environment, type VisibleItem } from './menu-visibility';
import { V2_MENU, type ExternalLinkKey } from './menus';
import { canV2, OPERATIONS, V1_ADMIN_GROUP, V1_PERMISSIONS, v1OfferPermission, type Profile, type V1Permission } from './permissions';
import { SIMULATOR_CODES } from './simulators';
import { heldOperations, isV1Admin, operationLabel, type FieldErrors, type V1Actor, type V2Actor } from './user-admin';
import { digitsOnly } from './validators';

/*
 * The groups that hold permissions (issue 16, decision 047), pure.
 *
 *   Legacy access groups are per sales channel and serve every company of it: only the admin group
 *   creates or changes them (USUARIOS lets a manager read them). Each holds permission codes of
 *   SPEC §6 with its two flags — changing implies viewing. The admin group holds everything by
 *   definition and is not edited.
 *   v2 permission groups are a company's named sets of operations. ADMIN manages every company's,
 *   a PARCEIRO_ADMIN those of the companies they administer, a PARCEIRO or SUBSTABELECIDO holding
 *   GERENCIAR_PERMISSOES its own company's; nobody puts in a group an operation they do not hold.
 *   A group's menu preview is the shell's own rule applied to a user of the company's profile.
 */

// ─── Legacy access groups ────────────────────────────────────────────────────────────────────────

export const LEGACY_PERMISSION_LABELS: Record<string, string> = {
  RELATORIO_GESTAO: 'Relatório de vendas (gestão)',
  DOCUMENTO: 'Documentos: envio',
  DOCUMENTO_CONSULTA_E_DOWNLOAD: 'Documentos: consulta e download',
  HISTORICO_VENDAS: 'Histórico de vendas',
  HISTORICO_VENDAS_PROPOSTAS: 'Histórico: propostas',
  HISTORICO_VENDAS_SIMULACAO: 'Histórico: simulações',
  CLIENTES_CONSULTA_PAGAMENTO: 'Consulta de pagamentos',
  FINANCEIRO_INFORME_RENDIMENTO: 'Informe de rendimentos',
  HIERARQUIA: 'Hierarquia',
  USUARIOS: 'Usuários e grupos de acesso',
};

/** What a legacy group may hold: SPEC §6's codes (NAO_EXIBIR is the hidden items' marker, never given) and one offer per simulator. */
export const LEGACY_PERMISSION_CATALOG: readonly { code: string; label: string; offer: boolean }[] = [
  ...V1_PERMISSIONS.filter((code) => code !== 'NAO_EXIBIR').map((code) => ({
    code,
    label: LEGACY_PERMISSION_LABELS[code] ?? code,
    offer: false,
  })),
  ...SIMULATOR_CODES.map((s) => ({ code: v1OfferPermission(s.code), label: `Vender ${s.name}`, offer: true })),
];
const LEGACY_CODES = new Set(LEGACY_PERMISSION_CATALOG.map((p) => p.code));
export const legacyPermissionLabel = (code: string) => LEGACY_PERMISSION_CATALOG.find((p) => p.code === code)?.label ?? code;

export const GROUP_ACTIONS = ['visualizar', 'editar', 'novo'] as const;
export type GroupAction = (typeof GROUP_ACTIONS)[number];

/** /grupo-acesso/{grupo}/{canal}/{action}; a new group's address names no group yet ('novo'). */
export const legacyGroupPath = (grupo: string, canal: string, action: GroupAction) =>
  `/grupo-acesso/${encodeURIComponent(action === 'novo' ? 'novo' : grupo)}/${encodeURIComponent(canal)}/${action}`;

/** Only the admin group changes legacy groups: they serve every company of the channel. */
export const mayEditLegacyGroups = (actor: V1Actor) => isV1Admin(actor);
export const isAdminGroup = (group: { nome: string; isAdmin: boolean }) => group.isAdmin || group.nome === V1_ADMIN_GROUP;

export const ACCESS_GROUP_MESSAGES = {
  nome: 'Use de 3 a 40 letras maiúsculas, números ou _, começando por letra (ex.: VENDEDOR_LOJA).',
  descricao: 'Descreva o grupo em até 200 caracteres.',
  permissao: 'Permissão desconhecida.',
  duplicate: 'Já existe um grupo com este nome.',
  adminGroup: 'O grupo administrador tem todas as permissões e não é alterado.',
  forbidden: 'Somente o grupo administrador altera grupos de acesso.',
  channel: 'Canal inativo: reative-o antes de criar grupos nele.',
  nomeV2: 'Informe um nome de 3 a 60 caracteres.',
  empresa: 'Selecione uma empresa que você administra.',
  operacao: 'Permissão que você não possui não pode ser incluída.',
  inUse: 'Grupo em uso: retire-o dos usuários antes de excluí-lo.',
  foreignHolders:
    'Este grupo é de usuários que também trabalham em empresas que você não administra: só o administrador da seguradora pode mudar as permissões dele.',
  forbiddenV2: 'Você não tem permissão para gerenciar grupos de permissões.',
} as const;
const M = ACCESS_GROUP_MESSAGES;

const text = (max: number, message: string) =>
  z.pipe(
    z.transform((v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v))),
    z.string().check(z.maxLength(max, message)),
  );
const list = (max: number, message: string) =>
  z.pipe(
    z.transform((v: unknown) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : [v])),
    z.array(z.string().check(z.maxLength(80, message))).check(z.maxLength(max, message)),
  );

export const legacyGroupSchema = z.object({
  nome: z.pipe(
    z.pipe(
      text(60, M.nome),
      z.transform((v: string) => v.trim().toUpperCase()),
    ),
    z.string().check(z.regex(/^[A-Z][A-Z0-9_]{2,39}$/, M.nome)),
  ),
  descricao: z.pipe(
    z.pipe(
      text(400, M.descricao),
      z.transform((v: string) => v.replace(/\s+/g, ' ').trim()),
    ),
    z.string().check(z.minLength(1, M.descricao), z.maxLength(200, M.descricao)),
  ),
  /** The codes with "Visualizar" checked. */
  ver: z.pipe(list(200, M.permissao), z.array(z.string()).check(z.refine((codes) => codes.every((c) => LEGACY_CODES.has(c)), M.permissao))),
  /** The codes with "Alterar" checked. */
  alterar: z.pipe(
    list(200, M.permissao),
    z.array(z.string()).check(z.refine((codes) => codes.every((c) => LEGACY_CODES.has(c)), M.permissao)),
  ),
});
export type LegacyGroupInput = z.output<typeof legacyGroupSchema>;

/** The permissions a form asks for, in catalog order: changing implies viewing. */
export function permissionsOfForm(input: Pick<LegacyGroupInput, 'ver' | 'alterar'>): V1Permission[] {
  return LEGACY_PERMISSION_CATALOG.filter((p) => input.ver.includes(p.code) || input.alterar.includes(p.code)).map((p) => ({
    nome: p.code,
    permiteVisualizacao: true,
    permiteAlteracao: input.alterar.includes(p.code),
  }));
}

const flags = (p: V1Permission | undefined) => (!p ? 'sem acesso' : p.permiteAlteracao ? 'visualizar e alterar' : 'visualizar');

/** What changed, for the access log: one "CODE: before → after" per permission. */
export function permissionChanges(before: readonly V1Permission[], after: readonly V1Permission[]): string {
  const codes = [...new Set([...before, ...after].map((p) => p.nome))].sort();
  const lines = codes.flatMap((code) => {
    const a = flags(before.find((p) => p.nome === code));
    const b = flags(after.find((p) => p.nome === code));
    return a === b ? [] : [`${code}: ${a} → ${b}`];
  });
  return lines.length > 0 ? lines.join('; ') : 'permissões sem alteração';
}

// ─── v2 permission groups ────────────────────────────────────────────────────────────────────────

export const MANAGE_PERMISSION_GROUPS = { profiles: ['ADMIN', 'PARCEIRO_ADMIN'], operations: ['GERENCIAR_PERMISSOES'] } as const;
export const mayManagePermissionGroups = (actor: V2Actor) =>
  canV2(
    { profile: actor.profile, cdOperacoes: actor.operations },
    { profiles: [...MANAGE_PERMISSION_GROUPS.profiles], operations: [...MANAGE_PERMISSION_GROUPS.operations] },
  );

/** The companies whose groups the actor manages. */
export const permissionGroupCompanies = (actor: V2Actor): 'all' | readonly number[] =>
  actor.profile === 'ADMIN' ? 'all' : actor.companyIds;

/** Every operation a group may hold, in the order the screens list them. */
export const GROUP_OPERATIONS: readonly string[] = OPERATIONS;

export const permissionGroupSchema = z.object({
  empresa: z.pipe(
    z.pipe(
      text(20, M.empresa),
      z.transform((v: string) => v.replace(/[./\-\s]/g, '').toUpperCase()),
    ),
    z.string().check(z.regex(/^[0-9A-Z]{12}\d{2}$/, M.empresa)),
  ),
  nome: z.pipe(
    z.pipe(
      text(120, M.nomeV2),
      z.transform((v: string) => v.replace(/\s+/g, ' ').trim()),
    ),
    z.string().check(z.minLength(3, M.nomeV2), z.maxLength(60, M.nomeV2), z.regex(/^[\p{L}\p{N}][\p{L}\p{N} ._()/&-]*$/u, M.nomeV2)),
  ),
  descricao: z.pipe(
    z.pipe(
      text(400, M.descricao),
      z.transform((v: string) => v.replace(/\s+/g, ' ').trim()),
    ),
    z.string().check(z.maxLength(200, M.descricao)),
  ),
  operacoes: z.pipe(
    list(60, M.operacao),
    z.array(z.string()).check(z.refine((ops) => ops.every((op) => GROUP_OPERATIONS.includes(op)), M.operacao)),
  ),
});
export type PermissionGroupInput = z.output<typeof permissionGroupSchema>;

/** A group's operations the actor may not put in it (what it already held may stay). */
export function permissionGroupProblems(actor: V2Actor, operations: readonly string[], had: readonly string[] = []): FieldErrors {
  const held = new Set(heldOperations(actor));
  return operations.some((op) => !held.has(op) && !had.includes(op)) ? { operacoes: [M.operacao] } : {};
}

/**
 * May the actor change what a group gives its holders? A user may work for several companies, and a
 * group's operations are theirs in all of them: changing it changes users of companies the actor
 * does not administer, unless every holder's companies are the actor's.
 */
export function mayRegrantHolders(actor: V2Actor, holdersCompanies: readonly (readonly number[])[]): boolean {
  const companies = permissionGroupCompanies(actor);
  return companies === 'all' || holdersCompanies.every((ids) => ids.every((id) => companies.includes(id)));
}

/** The profile a user of this company has by default: the preview shows their menu. */
export const profileOfCompany = (tipo: 'PARCEIRO' | 'SUBSTABELECIDO'): Profile =>
  tipo === 'SUBSTABELECIDO' ? 'SUBSTABELECIDO' : 'PARCEIRO';

/** The v2 menu a user of the group sees (the shell's rule), and the routes it opens. */
export function menuPreview(
  operations: readonly string[],
  profile: Profile,
  environment: Environment,
  links: Record<ExternalLinkKey, string>,
): VisibleItem[] {
  return visibleMenu(V2_MENU, { generation: 'v2', user: { profile, cdOperacoes: operations } }, environment, links);
}

export const PERMISSION_GROUP_ACTIONS = ['visualizar', 'editar'] as const;
export type PermissionGroupAction = (typeof PERMISSION_GROUP_ACTIONS)[number];
export const PERMISSION_PAGES = {
  consulta: '/v2/usuario/permissoes/consulta',
  cadastro: '/v2/usuario/permissoes/cadastro',
  sucesso: '/v2/usuario/permissoes/sucesso',
} as const;
export const permissionGroupPath = (id: number, cnpj: string, action: PermissionGroupAction) =>
  `/v2/usuario/permissoes/${id}/${digitsOnly(cnpj) === cnpj ? cnpj : encodeURIComponent(cnpj)}/${action}`;

export { operationLabel };
