import { sql } from 'kysely';
import type { DB } from '../../db';
import { forbidden } from '../../errors';
import { logGroupEvent } from './access-groups';
import { refuse } from './user-admin-writing';
import { now } from '../../clock';
import {
  buildTree,
  CHANNEL_MESSAGES as M,
  channelChanges,
  channelProblems,
  filterTree,
  hierarchyScope,
  hierarchyUserScope,
  mayEditChannels,
  mayViewHierarchy,
  type ChannelFact,
  type ChannelInput,
  type HierarchyFacts,
  type HierarchyNode,
  type HierarchyScope,
  type HierarchyUserScope,
} from '../../../lib/hierarchy';
import type { UserStatusCode, V1Actor } from '../../../lib/user-admin';

/*
 * Sales channels and the hierarchy (issue 17, decision 050). Rules and the tree in lib/hierarchy.ts;
 * this reads and writes. The tree is read in four statements whatever its size — the channels, the
 * companies of the viewer's scope (a recursive walk down from their own company), their points of
 * sale, their users — and built in memory. A channel is written in one transaction that first takes
 * the channels' lock, so two changes that would together close a loop run one after the other and
 * the second sees the first.
 */

/** Any key will do, as long as every change of a channel takes the same one (460_0NN: this decision's number). */
const CHANNEL_CHANGE_LOCK = 460_050;

export function requireHierarchy(actor: V1Actor): HierarchyScope {
  if (!mayViewHierarchy(actor)) throw forbidden('Você não tem permissão para consultar a hierarquia.');
  return hierarchyScope(actor);
}

export function requireChannelChange(actor: V1Actor): void {
  if (!mayEditChannels(actor)) throw forbidden(M.forbidden);
}

const channelColumns = ['id', 'codigo', 'nome', 'tipo', 'parent_id', 'status'] as const;
const asChannel = (r: { id: number; codigo: string; nome: string; tipo: string; parent_id: number | null; status: 'ATIVO' | 'INATIVO' }) =>
  ({ id: r.id, codigo: r.codigo, nome: r.nome, tipo: r.tipo, parentId: r.parent_id, status: r.status }) satisfies ChannelFact;

/** Every channel (a few dozen at most: the tree and the forms need them all). */
export async function allChannels(db: DB): Promise<ChannelFact[]> {
  return (await db.selectFrom('channels').select(channelColumns).orderBy('nome').execute()).map(asChannel);
}

export async function channelById(db: DB, id: number): Promise<ChannelFact | undefined> {
  const row = await db.selectFrom('channels').select(channelColumns).where('id', '=', id).executeTakeFirst();
  return row && asChannel(row);
}

/** The companies, points of sale and users a scope sees, with every channel: four statements. */
export async function hierarchyFacts(db: DB, scope: HierarchyScope, userScope: HierarchyUserScope): Promise<HierarchyFacts> {
  const channels = await allChannels(db);
  if (scope.kind === 'none') return { channels, companies: [], pointsOfSale: [], users: [] };
  // The viewer's companies and every company below them (their substabelecidos, and theirs).
  const inBranch =
    scope.kind === 'all'
      ? undefined
      : sql<boolean>`id in (with recursive branch(id) as (
          select id from companies where id in (${sql.join(scope.companyIds)})
          union select c.id from companies c join branch b on c.parent_id = b.id
        ) select id from branch)`;
  const companies = await db
    .selectFrom('companies')
    .select(['id', 'cnpj', 'razao_social', 'nome_fantasia', 'tipo', 'parent_id', 'channel_id', 'status'])
    .$if(inBranch !== undefined, (q) => q.where(inBranch!))
    .execute();
  const ids = companies.map((c) => c.id);
  if (ids.length === 0 && scope.kind !== 'all') return { channels, companies: [], pointsOfSale: [], users: [] };
  const pointsOfSale =
    ids.length === 0
      ? []
      : await db
          .selectFrom('points_of_sale')
          .select(['id', 'company_id', 'nome', 'codigo'])
          .$if(scope.kind !== 'all', (q) => q.where('company_id', 'in', ids))
          .execute();
  // Each user with every company they work for: their own (users.company_id) and their links.
  const links = sql<number[]>`array(select uc.company_id from user_companies uc where uc.user_id = u.id
    union select u.company_id where u.company_id is not null)`;
  // Users of these companies (their own or linked).
  const workingFor = (companyIds: number[]) =>
    sql<boolean>`(u.company_id in (${sql.join(companyIds)})
      or exists (select 1 from user_companies uc where uc.user_id = u.id and uc.company_id in (${sql.join(companyIds)})))`;
  // The users the viewer's user list shows (lib/hierarchy.ts#hierarchyUserScope), within the branch.
  const legacyOf = userScope.kind === 'legacy' ? userScope.companyIds : undefined;
  const users =
    userScope.kind === 'none'
      ? []
      : await db
          .selectFrom('users as u')
          .select(['u.id', 'u.nome', 'u.email', 'u.status', 'u.generation', 'u.point_of_sale_id', links.as('companies')])
          .$if(scope.kind !== 'all', (q) => q.where(workingFor(ids)))
          .$if(legacyOf !== undefined, (q) => q.where('u.generation', '=', 'v1').where(workingFor(legacyOf!)))
          .execute();
  return {
    channels,
    companies: companies.map((c) => ({
      id: c.id,
      cnpj: c.cnpj,
      razaoSocial: c.razao_social,
      nomeFantasia: c.nome_fantasia,
      tipo: c.tipo,
      parentId: c.parent_id,
      channelId: c.channel_id,
      status: c.status,
    })),
    pointsOfSale: pointsOfSale.map((p) => ({ id: p.id, companyId: p.company_id, nome: p.nome, codigo: p.codigo })),
    users: users.map((u) => ({
      id: u.id,
      nome: u.nome,
      email: u.email,
      status: u.status as UserStatusCode,
      generation: u.generation,
      companyIds: u.companies,
      pointOfSaleId: u.point_of_sale_id,
    })),
  };
}

export interface HierarchyView {
  scope: HierarchyScope;
  root: HierarchyNode;
  /** Nodes matching the search; undefined without one. */
  matches?: number;
  /** The channels in view (all of them for the admin group): the channel list and the API's names. */
  channels: ChannelFact[];
}

/** The viewer's tree, cut down to a search when there is one. */
export async function hierarchyOf(db: DB, actor: V1Actor, busca: string): Promise<HierarchyView> {
  const scope = requireHierarchy(actor);
  const facts = await hierarchyFacts(db, scope, hierarchyUserScope(actor));
  const tree = buildTree(facts, { everything: scope.kind === 'all' });
  const inView = new Set([...walkChannels(tree)]);
  const channels = facts.channels.filter((c) => inView.has(c.id));
  if (!busca) return { scope, root: tree, channels };
  const { root, matches } = filterTree(tree, busca);
  return { scope, root, matches, channels };
}

function* walkChannels(node: HierarchyNode): Generator<number> {
  if (node.kind === 'canal') yield node.channel.id;
  for (const child of node.children) if (child.kind === 'canal') yield* walkChannels(child);
}

/**
 * Creates a channel, or changes one (its name, type, parent and status; the code is fixed). Only the
 * admin group does it. Answers the channel's code. The tree's rules are checked against the table as
 * it stands inside the transaction, under the channels' lock.
 */
export async function saveChannel(
  db: DB,
  actor: V1Actor,
  input: ChannelInput,
  existing: ChannelFact | undefined,
  ip: string | null,
): Promise<ChannelFact> {
  requireChannelChange(actor);
  const codigo = existing?.codigo ?? input.codigo;
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${CHANNEL_CHANGE_LOCK})`.execute(trx);
    const channels = await allChannels(trx);
    const current = existing && channels.find((c) => c.id === existing.id);
    if (existing && !current) refuse({ form: [M.notFound] }, 'conflict');
    if (!existing && channels.some((c) => c.codigo === codigo)) refuse({ codigo: [M.duplicate] }, 'conflict');
    const parent = input.canalPai === '' ? undefined : channels.find((c) => c.codigo === input.canalPai);
    if (input.canalPai !== '' && !parent) refuse({ canalPai: [M.canalPai] });
    const parentId = parent?.id ?? null;
    const problems = channelProblems(channels, { id: existing?.id, codigo, parentId, status: input.status });
    if (Object.keys(problems).length > 0) refuse(problems, 'conflict');
    const values = { nome: input.nome, tipo: input.tipo, parent_id: parentId, status: input.status };
    const saved = current
      ? await trx.updateTable('channels').set(values).where('id', '=', current.id).returning(channelColumns).executeTakeFirstOrThrow()
      : await trx
          .insertInto('channels')
          .values({ ...values, codigo, created_at: now() })
          .returning(channelColumns)
          .executeTakeFirstOrThrow();
    const codeOf = (id: number | null) => (id === null ? 'nenhum' : (channels.find((c) => c.id === id)?.codigo ?? String(id)));
    await logGroupEvent(
      trx,
      current ? 'CANAL_ALTERADO' : 'CANAL_CRIADO',
      actor.userId,
      'v1',
      ip,
      `canal ${codigo}: ${channelChanges(current, asChannel(saved), codeOf)}`,
    );
    return asChannel(saved);
  });
}
