import * as z from 'zod/mini';
import { INSURER } from './insurer';
import { canV1, V1_ADMIN_GROUP } from './permissions';
import { managedCompanies, mayListUsers, type FieldErrors, type UserStatusCode, type V1Actor } from './user-admin';
import { digitsOnly } from './validators';

/*
 * Sales channels and the hierarchy (issue 17, decision 050), pure: the pages, the API and the
 * service all ask these rules and build the tree with these functions; the service hands them what
 * the database says.
 *
 *   Who: HIERARQUIA VIEW reads the hierarchy. The legacy admin group sees the whole tree; anyone else
 *   holding it sees the branch of their own company (the company, its substabelecidos, their points of
 *   sale and users) under the channels it hangs from. Channels serve every company under them, as the
 *   access groups do (decision 047), so only the admin group creates and changes them.
 *   Channels form a tree: a channel never sits under itself or one of its descendants, an active
 *   channel never under an inactive one, and the portal's own channel (where new companies land)
 *   stays active. The code names the channel in addresses (/grupo-acesso/{grupo}/{canal}/…) and is
 *   fixed once created.
 */

// ─── Channels ────────────────────────────────────────────────────────────────────────────────────

/** The kinds of sales channel an insurer in Brazil sells through (the codes are stored). */
export const CHANNEL_TYPES = [
  { code: 'DIGITAL', label: 'Digital (portal próprio)' },
  { code: 'PROPRIO', label: 'Próprio (equipe da seguradora)' },
  { code: 'CORRETORA', label: 'Corretoras' },
  { code: 'VAREJO', label: 'Varejo' },
  { code: 'BANCASSURANCE', label: 'Bancassurance' },
  { code: 'COOPERATIVA', label: 'Cooperativas' },
  { code: 'AFINIDADE', label: 'Afinidade (associações e utilities)' },
] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number]['code'];
const CHANNEL_TYPE_CODES = CHANNEL_TYPES.map((t) => t.code) as unknown as readonly [ChannelType, ...ChannelType[]];
/** A stored type the table does not know (written by another system) is shown as it is. */
export const channelTypeLabel = (code: string) => CHANNEL_TYPES.find((t) => t.code === code)?.label ?? code;

export type ChannelStatus = 'ATIVO' | 'INATIVO';
export const CHANNEL_STATUS_LABELS: Record<ChannelStatus, string> = { ATIVO: 'Ativo', INATIVO: 'Inativo' };

/** The portal's own channel (migration 017): companies land in it unless they are given another. */
export const PORTAL_CHANNEL = 'portal';

export interface ChannelFact {
  id: number;
  codigo: string;
  nome: string;
  tipo: string;
  parentId: number | null;
  status: ChannelStatus;
}

export const CHANNEL_MESSAGES = {
  codigo: 'Use de 2 a 40 letras minúsculas, números e hífens, começando por letra (ex.: rede-sul).',
  nome: 'Informe o nome do canal, de 2 a 80 caracteres.',
  tipo: 'Selecione o tipo do canal.',
  canalPai: 'Selecione um canal existente, ou nenhum.',
  status: 'Selecione a situação: ativo ou inativo.',
  duplicate: 'Já existe um canal com este código.',
  self: 'Um canal não pode ficar abaixo dele mesmo.',
  cycle: 'O canal escolhido está abaixo deste: colocar este canal sob ele fecharia um ciclo. Escolha outro canal pai.',
  inactiveParent: 'O canal pai escolhido está inativo: um canal ativo não fica abaixo de um inativo.',
  activeChildren: 'Há canais ativos abaixo deste: desative-os antes.',
  portal: 'O canal do portal recebe as novas empresas e não pode ser desativado.',
  forbidden: 'Somente o grupo administrador cadastra e altera canais.',
  notFound: 'Canal não encontrado.',
} as const;
const M = CHANNEL_MESSAGES;

/** Only the admin group creates and changes channels: a channel serves every company under it. */
export const mayEditChannels = (actor: Pick<V1Actor, 'groups'>) => actor.groups.includes(V1_ADMIN_GROUP);

/** The ids below a channel (children, their children…), walked once each: even a looped table ends. */
export function descendantIds(channels: readonly ChannelFact[], id: number): Set<number> {
  const children = groupBy(channels, (c) => c.parentId);
  const found = new Set<number>();
  const pending = [id];
  while (pending.length > 0) {
    for (const child of children.get(pending.pop()!) ?? []) {
      if (found.has(child.id) || child.id === id) continue;
      found.add(child.id);
      pending.push(child.id);
    }
  }
  return found;
}

/** The channels above one, nearest first; stops at a repeat, so a looped table ends. */
export function ancestorIds(channels: readonly ChannelFact[], id: number): number[] {
  const byId = new Map(channels.map((c) => [c.id, c]));
  const chain: number[] = [];
  for (let at = byId.get(id)?.parentId ?? null; at !== null && at !== id && !chain.includes(at); at = byId.get(at)?.parentId ?? null)
    chain.push(at);
  return chain;
}

/** The parents a channel may take: every channel but itself and those below it (a new one: any). */
export function parentOptions(channels: readonly ChannelFact[], id?: number): ChannelFact[] {
  if (id === undefined) return [...channels];
  const below = descendantIds(channels, id);
  return channels.filter((c) => c.id !== id && !below.has(c.id));
}

export interface ChannelChange {
  /** Absent for a new channel. */
  id?: number;
  codigo: string;
  parentId: number | null;
  status: ChannelStatus;
}

/**
 * What the tree refuses of a change, by field: a parent that is the channel itself or lies below it
 * (a cycle), an active channel under an inactive one, a channel deactivated over active ones, the
 * portal's channel deactivated. `channels` is the table as it stands (read in the change's transaction).
 */
export function channelProblems(channels: readonly ChannelFact[], change: ChannelChange): FieldErrors {
  const errors: FieldErrors = {};
  const parent = change.parentId === null ? undefined : channels.find((c) => c.id === change.parentId);
  if (change.parentId !== null && !parent) errors.canalPai = [M.canalPai];
  else if (change.id !== undefined && change.parentId === change.id) errors.canalPai = [M.self];
  else if (change.id !== undefined && change.parentId !== null && descendantIds(channels, change.id).has(change.parentId))
    errors.canalPai = [M.cycle];
  else if (parent && parent.status === 'INATIVO' && change.status === 'ATIVO') errors.canalPai = [M.inactiveParent];
  if (change.status === 'INATIVO') {
    if (change.codigo === PORTAL_CHANNEL) errors.status = [M.portal];
    else if (change.id !== undefined && channels.some((c) => c.parentId === change.id && c.status === 'ATIVO'))
      errors.status = [M.activeChildren];
  }
  return errors;
}

/** What changed, for the access log: "campo: antes → depois" for each field that did. */
export function channelChanges(
  before: ChannelFact | undefined,
  after: Omit<ChannelFact, 'id'>,
  codeOf: (id: number | null) => string,
): string {
  if (!before) return `nome ${after.nome}; tipo ${after.tipo}; canal pai ${codeOf(after.parentId)}; situação ${after.status.toLowerCase()}`;
  const fields: [string, string, string][] = [
    ['nome', before.nome, after.nome],
    ['tipo', before.tipo, after.tipo],
    ['canal pai', codeOf(before.parentId), codeOf(after.parentId)],
    ['situação', before.status.toLowerCase(), after.status.toLowerCase()],
  ];
  const changed = fields.filter(([, a, b]) => a !== b).map(([field, a, b]) => `${field}: ${a} → ${b}`);
  return changed.length > 0 ? changed.join('; ') : 'sem alteração';
}

// ─── The channel form ────────────────────────────────────────────────────────────────────────────

/** An HTML form sends strings; a missing field and a blank one are the same. */
const text = (max: number, message: string) =>
  z.pipe(
    z.transform((v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v))),
    z.string().check(z.maxLength(max, message)),
  );
const trimmed = (max: number, message: string) =>
  z.pipe(
    text(max, message),
    z.transform((v: string) => v.replace(/\s+/g, ' ').trim()),
  );
export const CHANNEL_CODE = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** /cadastrar-canal and /editar-canal/{id}, and the API's body. The parent is named by its code; blank: a root channel. */
export const channelSchema = z.object({
  codigo: z.pipe(
    z.pipe(
      text(80, M.codigo),
      z.transform((v: string) => v.trim().toLowerCase()),
    ),
    z.string().check(z.refine((v) => v.length >= 2 && v.length <= 40 && CHANNEL_CODE.test(v), M.codigo)),
  ),
  nome: z.pipe(
    trimmed(200, M.nome),
    z.string().check(z.refine((v) => v.length >= 2 && v.length <= 80 && /^[\p{L}\p{N}]/u.test(v), M.nome)),
  ),
  tipo: z.pipe(
    z.pipe(
      text(40, M.tipo),
      z.transform((v: string) => v.trim().toUpperCase()),
    ),
    z.enum(CHANNEL_TYPE_CODES, { error: M.tipo }),
  ),
  canalPai: z.pipe(
    z.pipe(
      text(80, M.canalPai),
      z.transform((v: string) => v.trim().toLowerCase()),
    ),
    z.string().check(z.refine((v) => v === '' || (v.length <= 40 && CHANNEL_CODE.test(v)), M.canalPai)),
  ),
  status: z.pipe(
    z.pipe(
      text(20, M.status),
      z.transform((v: string) => v.trim().toUpperCase()),
    ),
    z.enum(['ATIVO', 'INATIVO'], { error: M.status }),
  ),
});
export type ChannelInput = z.output<typeof channelSchema>;

export const CHANNEL_PAGES = { novo: '/cadastrar-canal', editar: '/editar-canal', hierarquia: '/consulta-hierarquia' } as const;
export const channelEditPath = (id: number) => `${CHANNEL_PAGES.editar}/${id}`;

// ─── Who sees what ───────────────────────────────────────────────────────────────────────────────

/** The permission of the hierarchy (SPEC §6's legacy code; the menu and the route guards ask it too). */
export const HIERARCHY_PERMISSION = 'HIERARQUIA';

export const mayViewHierarchy = (actor: Pick<V1Actor, 'groups' | 'permissions'>) =>
  canV1({ profile: actor.groups, permissions: actor.permissions }, HIERARCHY_PERMISSION, 'VIEW');

/**
 * Which part of the tree a viewer sees, in the shape of lib/scope.ts: everything (the admin group),
 * the branch under the companies given (anyone else holding HIERARQUIA: their own company), or nothing.
 */
export type HierarchyScope = { kind: 'all' } | { kind: 'companies'; companyIds: number[] } | { kind: 'none' };

export function hierarchyScope(actor: Pick<V1Actor, 'groups' | 'permissions' | 'companyId'>): HierarchyScope {
  if (!mayViewHierarchy(actor)) return { kind: 'none' };
  if (actor.groups.includes(V1_ADMIN_GROUP)) return { kind: 'all' };
  return actor.companyId === null ? { kind: 'none' } : { kind: 'companies', companyIds: [actor.companyId] };
}

/**
 * Which users the tree names (issue 27): those the viewer's own user list shows them (decision 046) —
 * the admin group, allowed everything, every user of either generation; anyone else holding USUARIOS
 * the legacy users of the company they manage; someone without it, none. A user outside it is neither
 * shown, nor found by a search, nor counted: the tree of companies and points of sale is no way round
 * the user list.
 */
export type HierarchyUserScope = { kind: 'all' } | { kind: 'legacy'; companyIds: number[] } | { kind: 'none' };

export function hierarchyUserScope(actor: V1Actor): HierarchyUserScope {
  if (actor.groups.includes(V1_ADMIN_GROUP)) return { kind: 'all' };
  if (!mayListUsers(actor)) return { kind: 'none' };
  const companies = managedCompanies(actor);
  if (companies === 'all') return { kind: 'all' };
  return companies.length === 0 ? { kind: 'none' } : { kind: 'legacy', companyIds: [...companies] };
}

// ─── The tree ────────────────────────────────────────────────────────────────────────────────────

export interface HierarchyCompany {
  id: number;
  cnpj: string;
  razaoSocial: string;
  nomeFantasia: string;
  tipo: 'PARCEIRO' | 'SUBSTABELECIDO';
  parentId: number | null;
  channelId: number;
  status: string;
}
export interface HierarchyPointOfSale {
  id: number;
  companyId: number;
  nome: string;
  codigo: string;
}
export interface HierarchyUser {
  id: number;
  nome: string;
  email: string;
  status: UserStatusCode;
  generation: 'v1' | 'v2';
  /** Every company the user works for (users.company_id and user_companies); none: the insurer's staff. */
  companyIds: number[];
  pointOfSaleId: number | null;
}
/** What the service read: the companies, points of sale and users of the viewer's scope, and every channel. */
export interface HierarchyFacts {
  channels: ChannelFact[];
  companies: HierarchyCompany[];
  pointsOfSale: HierarchyPointOfSale[];
  users: HierarchyUser[];
}

export interface Counts {
  parceiros: number;
  substabelecidos: number;
  pontosDeVenda: number;
  usuarios: number;
}

interface NodeBase {
  /** Unique in the tree: the element ids and the tests use it. */
  key: string;
  counts: Counts;
  children: HierarchyNode[];
  /** Rendered open (<details open>). */
  open: boolean;
  /** Matched the search. */
  match: boolean;
}
export type HierarchyNode =
  | (NodeBase & { kind: 'seguradora'; nome: string })
  | (NodeBase & { kind: 'canal'; channel: ChannelFact })
  | (NodeBase & { kind: 'empresa'; company: HierarchyCompany })
  | (NodeBase & { kind: 'ponto-venda'; pointOfSale: HierarchyPointOfSale })
  | (NodeBase & { kind: 'usuario'; user: HierarchyUser });

const ZERO: Counts = { parceiros: 0, substabelecidos: 0, pontosDeVenda: 0, usuarios: 0 };
const byText =
  <T>(text: (t: T) => string) =>
  (a: T, b: T) =>
    text(a).localeCompare(text(b), 'pt-BR');

/** The channels a branch hangs from: those of its companies and every channel above them. */
export function channelsOfCompanies(channels: readonly ChannelFact[], companies: readonly HierarchyCompany[]): ChannelFact[] {
  const ids = new Set<number>();
  for (const channelId of new Set(companies.map((c) => c.channelId))) {
    ids.add(channelId);
    for (const above of ancestorIds(channels, channelId)) ids.add(above);
  }
  return channels.filter((c) => ids.has(c.id));
}

/**
 * The tree provider → channels (nested) → partners → substabelecidos → points of sale → users, with the
 * distinct partners, substabelecidos, points of sale and users under each node. `everything`: every
 * channel is shown, empty ones too, and the users of no company under the insurer (the admin group's
 * view); otherwise only the channels the companies hang from. A user of several companies appears
 * under each, counted once above them; under the point of sale they sell at when it is that company's.
 */
export function buildTree(facts: HierarchyFacts, { everything }: { everything: boolean }): HierarchyNode {
  const companyIds = new Set(facts.companies.map((c) => c.id));
  // A company hangs under its partner when the partner is in view, else under its channel.
  const hangsFromChannel = (c: HierarchyCompany) => c.parentId === null || !companyIds.has(c.parentId);
  const channels = everything ? facts.channels : channelsOfCompanies(facts.channels, facts.companies.filter(hangsFromChannel));
  const channelIds = new Set(channels.map((c) => c.id));
  const sortedUsers = [...facts.users].sort(byText((u) => u.nome));
  const pointOfSaleCompany = new Map(facts.pointsOfSale.map((p) => [p.id, p.companyId]));
  // Each user under every company of theirs in view: at their point of sale when it is that company's.
  const placements = sortedUsers.flatMap((user) =>
    [...new Set(user.companyIds)]
      .filter((companyId) => companyIds.has(companyId))
      .map((companyId) => ({
        user,
        companyId,
        pointOfSaleId: user.pointOfSaleId !== null && pointOfSaleCompany.get(user.pointOfSaleId) === companyId ? user.pointOfSaleId : null,
      })),
  );
  const usersOfPointOfSale = groupBy(
    placements.filter((p) => p.pointOfSaleId !== null),
    (p) => p.pointOfSaleId!,
  );
  const directUsers = groupBy(
    placements.filter((p) => p.pointOfSaleId === null),
    (p) => p.companyId,
  );
  const pointsOfCompany = groupBy([...facts.pointsOfSale].sort(byText((p) => `${p.codigo} ${p.nome}`)), (p) => p.companyId);
  const companiesSorted = [...facts.companies].sort(byText((c) => c.nomeFantasia || c.razaoSocial));
  const companiesUnder = groupBy(
    companiesSorted.filter((c) => !hangsFromChannel(c)),
    (c) => c.parentId!,
  );
  const companiesOfChannel = groupBy(companiesSorted.filter(hangsFromChannel), (c) => c.channelId);
  const channelsUnder = groupBy([...channels].sort(byText((c) => c.nome)), (c) => c.parentId);

  const userNode = (user: HierarchyUser, at: string): HierarchyNode => ({
    kind: 'usuario',
    key: `${at}-u${user.id}`,
    user,
    counts: ZERO,
    children: [],
    open: false,
    match: false,
  });
  const seen = new Set<number>();
  const companyNode = (company: HierarchyCompany): HierarchyNode => {
    seen.add(company.id);
    const key = `e${company.id}`;
    const subs = (companiesUnder.get(company.id) ?? []).filter((c) => !seen.has(c.id)).map(companyNode);
    const points = (pointsOfCompany.get(company.id) ?? []).map(
      (p): HierarchyNode => ({
        kind: 'ponto-venda',
        key: `${key}-p${p.id}`,
        pointOfSale: p,
        counts: ZERO,
        children: (usersOfPointOfSale.get(p.id) ?? []).map(({ user }) => userNode(user, `${key}-p${p.id}`)),
        open: false,
        match: false,
      }),
    );
    const users = (directUsers.get(company.id) ?? []).map(({ user }) => userNode(user, key));
    return { kind: 'empresa', key, company, counts: ZERO, children: [...subs, ...points, ...users], open: false, match: false };
  };
  const placed = new Set<number>();
  const channelNode = (channel: ChannelFact): HierarchyNode => {
    placed.add(channel.id);
    const subChannels = (channelsUnder.get(channel.id) ?? []).filter((c) => !placed.has(c.id)).map(channelNode);
    const companies = (companiesOfChannel.get(channel.id) ?? []).filter((c) => !seen.has(c.id)).map(companyNode);
    return {
      kind: 'canal',
      key: `c${channel.id}`,
      channel,
      counts: ZERO,
      children: [...subChannels, ...companies],
      open: true,
      match: false,
    };
  };
  const sortedChannels = [...channels].sort(byText((c) => c.nome));
  const roots = sortedChannels.filter((c) => c.parentId === null || !channelIds.has(c.parentId)).map(channelNode);
  // Channels in a loop (which the forms refuse, but a table written by hand may hold) are roots too.
  for (const channel of sortedChannels) if (!placed.has(channel.id)) roots.push(channelNode(channel));
  const staff = everything ? sortedUsers.filter((u) => u.companyIds.length === 0).map((u) => userNode(u, 's')) : [];
  return withCounts({
    kind: 'seguradora',
    key: 's',
    nome: INSURER.name,
    counts: ZERO,
    children: [...roots, ...staff],
    open: true,
    match: false,
  });
}

/** Items by a key, each list in the items' order. */
function groupBy<K, T>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

interface Members {
  parceiros: Set<number>;
  substabelecidos: Set<number>;
  pontosDeVenda: Set<number>;
  usuarios: Set<number>;
}

/** Each node's counts: the distinct members of its subtree (a shared user counts once above the split). */
function withCounts(root: HierarchyNode): HierarchyNode {
  const visit = (node: HierarchyNode): Members => {
    const members: Members = { parceiros: new Set(), substabelecidos: new Set(), pontosDeVenda: new Set(), usuarios: new Set() };
    for (const child of node.children) {
      const below = visit(child);
      for (const key of Object.keys(members) as (keyof Members)[]) for (const id of below[key]) members[key].add(id);
    }
    node.counts = {
      parceiros: members.parceiros.size,
      substabelecidos: members.substabelecidos.size,
      pontosDeVenda: members.pontosDeVenda.size,
      usuarios: members.usuarios.size,
    };
    if (node.kind === 'empresa') members[node.company.tipo === 'SUBSTABELECIDO' ? 'substabelecidos' : 'parceiros'].add(node.company.id);
    if (node.kind === 'ponto-venda') members.pontosDeVenda.add(node.pointOfSale.id);
    if (node.kind === 'usuario') members.usuarios.add(node.user.id);
    return members;
  };
  visit(root);
  return root;
}

// ─── Search ──────────────────────────────────────────────────────────────────────────────────────

export const SEARCH_MESSAGE = 'Busque com até 120 caracteres.';
export const hierarchySearchSchema = z.object({
  busca: z.pipe(
    text(120, SEARCH_MESSAGE),
    z.transform((v: string) => v.replace(/\s+/g, ' ').trim()),
  ),
});

/** Lower case without accents: "São" finds "sao", "SAO" and "São". */
export const foldText = (value: string) => value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** What a node is found by: names, codes, the CNPJ, the e-mail. */
function searchableText(node: HierarchyNode): string[] {
  switch (node.kind) {
    case 'seguradora':
      return [];
    case 'canal':
      return [node.channel.nome, node.channel.codigo];
    case 'empresa':
      return [node.company.razaoSocial, node.company.nomeFantasia, node.company.cnpj];
    case 'ponto-venda':
      return [node.pointOfSale.nome, node.pointOfSale.codigo];
    case 'usuario':
      return [node.user.nome, node.user.email];
  }
}

/** Does the node match the search? A term of digits and CNPJ punctuation also compares digits (a CNPJ typed with its mask). */
export function nodeMatches(node: HierarchyNode, term: string): boolean {
  const folded = foldText(term);
  if (folded === '') return false;
  const texts = searchableText(node).map(foldText);
  if (texts.some((t) => t.includes(folded))) return true;
  const digits = digitsOnly(term);
  return /^[\d./\s-]+$/.test(term) && digits.length >= 3 && node.kind === 'empresa' && digitsOnly(node.company.cnpj).includes(digits);
}

/**
 * The tree cut down to the nodes matching `term` and the nodes above them, which open to show them.
 * A matching node keeps everything under it (closed, but for the way to other matches), so a partner
 * found by name opens to its points of sale and users. Counts stay those of the whole tree. The root
 * is always kept; `matches` is how many nodes matched.
 */
export function filterTree(root: HierarchyNode, term: string): { root: HierarchyNode; matches: number } {
  let matches = 0;
  const visit = (node: HierarchyNode): HierarchyNode | undefined => {
    const match = nodeMatches(node, term);
    if (match) matches += 1;
    const kept = node.children.map((child) => [child, visit(child)] as const);
    const below = kept.filter(([, k]) => k !== undefined).map(([, k]) => k!);
    if (!match && below.length === 0) return undefined;
    const children = match ? kept.map(([original, k]) => k ?? { ...original, open: false }) : below;
    return { ...node, match, open: below.length > 0 || (match && children.length > 0), children } as HierarchyNode;
  };
  const kept = visit(root);
  return { root: kept ?? { ...root, children: [], open: true }, matches };
}

/** Every node of a tree, depth first (tests and the API's flat answers). */
export function* walk(node: HierarchyNode): Generator<HierarchyNode> {
  yield node;
  for (const child of node.children) yield* walk(child);
}

/** The tree as the API answers it: Portuguese fields, as SPEC names the rest. */
export interface HierarchyJson {
  tipo: HierarchyNode['kind'];
  id: number | null;
  nome: string;
  detalhe: Record<string, string | null>;
  contagens: Counts;
  resultadoBusca: boolean;
  filhos: HierarchyJson[];
}

export function treeAsJson(node: HierarchyNode, channels: readonly ChannelFact[]): HierarchyJson {
  const codeOf = (id: number | null) => channels.find((c) => c.id === id)?.codigo ?? null;
  const base = { tipo: node.kind, contagens: node.counts, resultadoBusca: node.match };
  const filhos = node.children.map((child) => treeAsJson(child, channels));
  switch (node.kind) {
    case 'seguradora':
      return { ...base, id: null, nome: node.nome, detalhe: {}, filhos };
    case 'canal': {
      const c = node.channel;
      return {
        ...base,
        id: c.id,
        nome: c.nome,
        detalhe: { codigo: c.codigo, tipo: c.tipo, canalPai: codeOf(c.parentId), status: c.status },
        filhos,
      };
    }
    case 'empresa': {
      const c = node.company;
      return {
        ...base,
        id: c.id,
        nome: nodeName(node),
        detalhe: { cnpj: c.cnpj, razaoSocial: c.razaoSocial, tipo: c.tipo, canal: codeOf(c.channelId), status: c.status },
        filhos,
      };
    }
    case 'ponto-venda':
      return { ...base, id: node.pointOfSale.id, nome: node.pointOfSale.nome, detalhe: { codigo: node.pointOfSale.codigo }, filhos };
    case 'usuario': {
      const u = node.user;
      return { ...base, id: u.id, nome: u.nome, detalhe: { email: u.email, status: u.status, geracao: u.generation }, filhos };
    }
  }
}

/** A channel as the API answers it. */
export const channelAsJson = (c: ChannelFact, channels: readonly ChannelFact[]) => ({
  id: c.id,
  codigo: c.codigo,
  nome: c.nome,
  tipo: c.tipo,
  canalPai: channels.find((p) => p.id === c.parentId)?.codigo ?? null,
  status: c.status,
});

// ─── What the pages show ─────────────────────────────────────────────────────────────────────────

/** The parents a channel may take, in tree order, each with its depth (the form's select indents them). */
export function parentChoices(channels: readonly ChannelFact[], id?: number): (ChannelFact & { depth: number })[] {
  const byId = new Map(channels.map((c) => [c.id, c]));
  const pathOf = (c: ChannelFact) => [...ancestorIds(channels, c.id).reverse(), c.id].map((at) => byId.get(at)?.nome ?? '').join(' › ');
  return parentOptions(channels, id)
    .map((c) => ({ ...c, depth: ancestorIds(channels, c.id).length, path: pathOf(c) }))
    .sort((a, b) => a.path.localeCompare(b.path, 'pt-BR'))
    .map(({ path: _, ...c }) => c);
}

const COUNT_WORDS: Record<keyof Counts, [string, string]> = {
  parceiros: ['parceiro', 'parceiros'],
  substabelecidos: ['substabelecido', 'substabelecidos'],
  pontosDeVenda: ['ponto de venda', 'pontos de venda'],
  usuarios: ['usuário', 'usuários'],
};

/** Which counts a node shows: what can lie under it. */
function countsShown(node: HierarchyNode): (keyof Counts)[] {
  switch (node.kind) {
    case 'seguradora':
    case 'canal':
      return ['parceiros', 'substabelecidos', 'pontosDeVenda', 'usuarios'];
    case 'empresa':
      return node.company.tipo === 'PARCEIRO' ? ['substabelecidos', 'pontosDeVenda', 'usuarios'] : ['pontosDeVenda', 'usuarios'];
    case 'ponto-venda':
      return ['usuarios'];
    case 'usuario':
      return [];
  }
}

/** "1 parceiro, 2 pontos de venda, 5 usuários": the counts a node shows, in words. */
export function countsText(node: HierarchyNode): string {
  return countsShown(node)
    .map((key) => `${node.counts[key]} ${COUNT_WORDS[key][node.counts[key] === 1 ? 0 : 1]}`)
    .join(', ');
}

/** A node's name as the tree shows it (a company by its trade name). */
export function nodeName(node: HierarchyNode): string {
  switch (node.kind) {
    case 'seguradora':
      return node.nome;
    case 'canal':
      return node.channel.nome;
    case 'empresa':
      return node.company.nomeFantasia || node.company.razaoSocial;
    case 'ponto-venda':
      return node.pointOfSale.nome;
    case 'usuario':
      return node.user.nome;
  }
}

/** What a node is, in a word: "Canal", "Parceiro", "Ponto de venda"… */
export function kindLabel(node: HierarchyNode): string {
  switch (node.kind) {
    case 'seguradora':
      return 'Seguradora';
    case 'canal':
      return 'Canal';
    case 'empresa':
      return node.company.tipo === 'SUBSTABELECIDO' ? 'Substabelecido' : 'Parceiro';
    case 'ponto-venda':
      return 'Ponto de venda';
    case 'usuario':
      return 'Usuário';
  }
}
