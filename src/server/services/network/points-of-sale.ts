import { sql } from 'kysely';
import type { DB } from '../../db';
import { forbidden, notFound } from '../../errors';
import { announce } from '../../cache';
import { now } from '../../clock';
import { containing } from '../identity/users';
import { manageableIds } from './user-admin';
import { changedFields, inUserChange, logEvent, refuse } from './user-admin-writing';
import { logGroupEvent } from './access-groups';
import { managedCompanies, type FieldErrors, type UserStatusCode, type V2Actor } from '../../../lib/user-admin';
import { pagedOf, type Paged } from '../../../lib/list-query';
import {
  managesCompany,
  mayManagePointsOfSale,
  POINT_OF_SALE_MESSAGES as M,
  POINT_OF_SALE_PAGE_SIZE,
  pointOfSaleForSale,
  sellerChanges,
  statusProblems,
  storedStatus,
  type PointOfSaleAddress,
  type PointOfSaleInput,
  type PointOfSaleStatus,
  type SellerCandidate,
} from '../../../lib/points-of-sale';

/*
 * Points of sale (issue 17, decision 051): where a sale is made (decision 045), and the records a
 * partner administers — the list, one point of sale, the users who may work there, and the save,
 * which writes the point of sale and moves its sellers in one transaction under the user-change lock
 * (moving a user is changing them), logged in access_events like user administration.
 */

/**
 * Where a sale for a company is made (DESIGN §10, decisions 045 and 051): the seller's own point of
 * sale when it is one of that company's and active, else the company's first active one; none for a
 * sale without a company, or a company without an active point of sale.
 */
export async function pointOfSaleOfSale(
  db: DB,
  companyId: number | null,
  sellersPointOfSaleId: number | null,
): Promise<{ id: number; codigo: string } | undefined> {
  if (companyId === null) return undefined;
  const points = await db
    .selectFrom('points_of_sale')
    .select(['id', 'codigo', 'status'])
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute();
  return pointOfSaleForSale(points, sellersPointOfSaleId);
}

// ─── Reading ─────────────────────────────────────────────────────────────────────────────────────

export interface PointOfSaleRecord {
  id: number;
  codigo: string;
  nome: string;
  status: PointOfSaleStatus;
  empresa: { id: number; cnpj: string; nome: string };
  endereco: PointOfSaleAddress | null;
  /** Users working there who have not left (either generation): the list's "vendedores". */
  vendedores: number;
  updatedAt: Date;
}

const recordsQuery = (db: DB) =>
  db
    .selectFrom('points_of_sale as p')
    .innerJoin('companies as c', 'c.id', 'p.company_id')
    .select([
      'p.id',
      'p.codigo',
      'p.nome',
      'p.status',
      'p.cep',
      'p.logradouro',
      'p.numero',
      'p.complemento',
      'p.bairro',
      'p.cidade',
      'p.uf',
      'p.updated_at',
      'c.id as companyId',
      'c.cnpj',
      'c.razao_social',
      sql<number>`(select count(*)::int from users u where u.point_of_sale_id = p.id and u.status <> 'INATIVO')`.as('vendedores'),
    ]);

type RecordRow = Awaited<ReturnType<ReturnType<typeof recordsQuery>['executeTakeFirstOrThrow']>>;

function recordOf(r: RecordRow): PointOfSaleRecord {
  return {
    id: r.id,
    codigo: r.codigo,
    nome: r.nome,
    status: r.status,
    empresa: { id: r.companyId, cnpj: r.cnpj, nome: r.razao_social },
    // An address is whole or absent: rows made before migration 021 have none until edited.
    endereco:
      r.cep === null
        ? null
        : {
            cep: r.cep,
            logradouro: r.logradouro ?? '',
            numero: r.numero ?? '',
            complemento: r.complemento ?? '',
            bairro: r.bairro ?? '',
            cidade: r.cidade ?? '',
            uf: r.uf ?? '',
          },
    vendedores: r.vendedores,
    updatedAt: r.updated_at,
  };
}

export function requirePointsOfSale(actor: V2Actor): void {
  if (!mayManagePointsOfSale(actor)) throw forbidden(M.forbidden);
}

export interface PointOfSaleFilters {
  empresa?: string;
  busca?: string;
  situacao?: PointOfSaleStatus;
}

/** The points of sale of the companies the actor manages, filtered, ten per page (1-based). */
export async function listPointsOfSale(
  db: DB,
  actor: V2Actor,
  filters: PointOfSaleFilters,
  page: number,
): Promise<Paged<PointOfSaleRecord>> {
  requirePointsOfSale(actor);
  const companies = managedCompanies(actor);
  if (companies !== 'all' && companies.length === 0) return pagedOf([], 0, page, POINT_OF_SALE_PAGE_SIZE);
  const { empresa, busca, situacao } = filters;
  const rows = await recordsQuery(db)
    .select(sql<number>`count(*) over ()::int`.as('total'))
    .$if(companies !== 'all', (q) => q.where('p.company_id', 'in', [...(companies as readonly number[])]))
    .$if(Boolean(empresa), (q) => q.where('c.cnpj', '=', empresa!))
    .$if(Boolean(busca), (q) =>
      q.where((eb) => eb.or([eb('p.nome', 'ilike', containing(busca!)), eb('p.codigo', 'ilike', containing(busca!))])),
    )
    .$if(Boolean(situacao), (q) => q.where('p.status', '=', situacao!))
    .orderBy('c.razao_social')
    .orderBy('p.codigo')
    .limit(POINT_OF_SALE_PAGE_SIZE)
    .offset((page - 1) * POINT_OF_SALE_PAGE_SIZE)
    .execute();
  return pagedOf(rows.map(recordOf), rows[0]?.total ?? 0, page, POINT_OF_SALE_PAGE_SIZE);
}

/** Point of sale `id` when the actor manages its company; else undefined (the 404: a foreign one is not told apart). */
export async function pointOfSaleOf(db: DB, actor: V2Actor, id: number): Promise<PointOfSaleRecord | undefined> {
  if (!mayManagePointsOfSale(actor)) return undefined;
  const row = await recordsQuery(db).where('p.id', '=', id).executeTakeFirst();
  return row && managesCompany(actor, row.companyId) ? recordOf(row) : undefined;
}

/** The companies whose points of sale the actor manages, for the new form's choice. */
export async function pointOfSaleCompanies(db: DB, actor: V2Actor): Promise<{ id: number; cnpj: string; nome: string }[]> {
  if (!mayManagePointsOfSale(actor)) return [];
  const companies = managedCompanies(actor);
  if (companies !== 'all' && companies.length === 0) return [];
  return db
    .selectFrom('companies')
    .select(['id', 'cnpj', 'razao_social as nome'])
    .$if(companies !== 'all', (q) => q.where('id', 'in', [...(companies as readonly number[])]))
    .orderBy('razao_social')
    .execute();
}

/** A user who could work at a point of sale, as the form lists them. */
export interface SellerOption extends SellerCandidate {
  nome: string;
  email: string;
  generation: 'v1' | 'v2';
  /** Where they work now. */
  pointOfSale: { id: number; codigo: string; nome: string } | null;
  companyIds: number[];
}

/**
 * The users who may work at a point of sale of these companies — their v2 users who have not left
 * (ADMIN belongs to no company) — and whoever works at `pointId` now, legacy users included (listed,
 * never moved here: the legacy portal manages them). `manageable` is the user administration's rule.
 */
export async function sellerOptions(db: DB, actor: V2Actor, companyIds: readonly number[], pointId?: number): Promise<SellerOption[]> {
  if (companyIds.length === 0 && pointId === undefined) return [];
  const ids = companyIds.length > 0 ? [...companyIds] : [0];
  const rows = await db
    .selectFrom('users as u')
    .leftJoin('points_of_sale as p', 'p.id', 'u.point_of_sale_id')
    .select([
      'u.id',
      'u.nome',
      'u.email',
      'u.status',
      'u.generation',
      'u.point_of_sale_id',
      'p.codigo',
      'p.nome as pointName',
      sql<
        number[]
      >`array(select uc.company_id from user_companies uc where uc.user_id = u.id union select u.company_id where u.company_id is not null)`.as(
        'companyIds',
      ),
    ])
    .where('u.status', '<>', 'INATIVO')
    .where((eb) =>
      eb.or([
        eb.and([
          eb('u.generation', '=', 'v2'),
          eb('u.profile', '<>', 'admin'),
          eb.or([
            eb('u.company_id', 'in', ids),
            eb.exists(
              eb
                .selectFrom('user_companies as uc')
                .select('uc.user_id')
                .whereRef('uc.user_id', '=', 'u.id')
                .where('uc.company_id', 'in', ids),
            ),
          ]),
        ]),
        eb('u.point_of_sale_id', '=', pointId ?? 0),
      ]),
    )
    .orderBy('u.nome')
    .orderBy('u.id')
    .execute();
  const manageable = await manageableIds(
    db,
    actor,
    rows.filter((r) => r.generation === 'v2').map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    nome: r.nome,
    email: r.email,
    status: r.status as UserStatusCode,
    generation: r.generation,
    pointOfSaleId: r.point_of_sale_id,
    pointOfSale: r.point_of_sale_id === null ? null : { id: r.point_of_sale_id, codigo: r.codigo!, nome: r.pointName! },
    companyIds: r.companyIds,
    manageable: manageable.has(r.id),
  }));
}

// ─── Writing ─────────────────────────────────────────────────────────────────────────────────────

/** Codes are unique per company in any case: the index stops what two saves at one moment would let through. */
async function codeAsConflict<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const { code, constraint } = (error ?? {}) as { code?: string; constraint?: string };
    if (code !== '23505' || !constraint?.startsWith('points_of_sale_')) throw error;
    return refuse({ codigo: [M.codigoDuplicado] }, 'conflict');
  }
}

const EVENTS = {
  created: 'PONTO_VENDA_CRIADO',
  changed: 'PONTO_VENDA_ALTERADO',
  ATIVO: 'PONTO_VENDA_REATIVADO',
  INATIVO: 'PONTO_VENDA_DESATIVADO',
} as const;

const addressOf = (input: PointOfSaleInput): PointOfSaleAddress => ({
  cep: input.cep,
  logradouro: input.logradouro,
  numero: input.numero,
  complemento: input.complemento ?? '',
  bairro: input.bairro,
  cidade: input.cidade,
  uf: input.uf,
});

export interface SavedPointOfSale {
  id: number;
  /** The users moved here and away by the save. */
  assigned: number;
  released: number;
}

/**
 * Creates a point of sale (`existingId` undefined) or changes one, with the users who work there, in
 * one transaction: a refusal — another company's point of sale (404), a company the actor does not
 * manage, a code the company already has (409), a seller the actor may not move, an inactive point
 * of sale with active sellers (409) — writes nothing.
 */
export async function savePointOfSale(
  db: DB,
  actor: V2Actor,
  input: PointOfSaleInput,
  existingId: number | undefined,
  ip: string | null,
): Promise<SavedPointOfSale> {
  requirePointsOfSale(actor);
  const status = storedStatus(input.status);
  const result = await codeAsConflict(
    inUserChange(db, async (trx) => {
      // Locked for the transaction: a user registered at it meanwhile (who reads it with a shared lock)
      // is either counted below or sees it inactive.
      const before =
        existingId === undefined
          ? undefined
          : await trx.selectFrom('points_of_sale').selectAll().where('id', '=', existingId).forUpdate().executeTakeFirst();
      if (existingId !== undefined && (!before || !managesCompany(actor, before.company_id))) throw notFound(M.notFound);
      const company = await trx.selectFrom('companies').select(['id', 'cnpj']).where('cnpj', '=', input.empresa).executeTakeFirst();
      const errors: FieldErrors = {};
      if (!company || !managesCompany(actor, company.id)) errors.empresa = [M.empresa];
      else if (before && company.id !== before.company_id) errors.empresa = [M.empresaFixa];
      if (Object.keys(errors).length > 0) return refuse(errors);
      const clash = await trx
        .selectFrom('points_of_sale')
        .select('id')
        .where('company_id', '=', company!.id)
        .where(sql<boolean>`upper(codigo) = ${input.codigo}`)
        .$if(before !== undefined, (q) => q.where('id', '!=', before!.id))
        .executeTakeFirst();
      if (clash) return refuse({ codigo: [M.codigoDuplicado] }, 'conflict');

      const options = await sellerOptions(trx, actor, [company!.id], before?.id);
      const candidates = options.filter(
        (o) => o.generation === 'v2' && (o.companyIds.includes(company!.id) || o.pointOfSaleId === before?.id),
      );
      const changes = sellerChanges(before?.id, candidates, input.vendedores);
      const problems = statusProblems(status, changes);
      if (Object.keys(problems).length > 0) return refuse(problems, problems.status ? 'conflict' : 'invalid');

      const values = { nome: input.nome, codigo: input.codigo, ...addressOf(input), status, updated_at: now() };
      const { id } = before
        ? await trx.updateTable('points_of_sale').set(values).where('id', '=', before.id).returning('id').executeTakeFirstOrThrow()
        : await trx
            .insertInto('points_of_sale')
            .values({ ...values, company_id: company!.id, created_at: values.updated_at })
            .returning('id')
            .executeTakeFirstOrThrow();
      if (changes.assign.length > 0)
        await trx.updateTable('users').set({ point_of_sale_id: id }).where('id', 'in', changes.assign).execute();
      if (changes.release.length > 0)
        await trx.updateTable('users').set({ point_of_sale_id: null }).where('id', 'in', changes.release).execute();

      const emailOf = (userId: number) => options.find((o) => o.id === userId)!.email;
      const moved = [...changes.assign.map((u) => `+${emailOf(u)}`), ...changes.release.map((u) => `-${emailOf(u)}`)];
      const fields = before
        ? changedFields(
            {
              nome: before.nome,
              codigo: before.codigo,
              endereco: [before.cep, before.logradouro, before.numero, before.complemento, before.bairro, before.cidade, before.uf],
              status: before.status,
            },
            { nome: values.nome, codigo: values.codigo, endereco: Object.values(addressOf(input)), status },
          )
        : 'criado';
      const event = !before ? EVENTS.created : before.status !== status ? EVENTS[status] : EVENTS.changed;
      await logGroupEvent(
        trx,
        event,
        actor.userId,
        'v2',
        ip,
        `ponto de venda ${input.codigo} (${company!.cnpj}): ${fields}; vendedores: ${moved.join(', ') || 'sem alteração'}`,
        company!.id,
      );
      const codeOf = (pointId: number | null) =>
        pointId === null
          ? 'nenhum'
          : pointId === id
            ? input.codigo
            : (options.find((o) => o.pointOfSaleId === pointId)?.pointOfSale?.codigo ?? String(pointId));
      for (const userId of [...changes.assign, ...changes.release]) {
        const seller = options.find((o) => o.id === userId)!;
        const to = changes.assign.includes(userId) ? id : null;
        await logEvent(
          trx,
          'USUARIO_ALTERADO',
          { id: userId, email: seller.email, generation: 'v2' },
          actor.userId,
          ip,
          `ponto de venda: ${codeOf(seller.pointOfSaleId)} → ${codeOf(to)}`,
        );
      }
      return { id, assigned: changes.assign.length, released: changes.release.length, moved: [...changes.assign, ...changes.release] };
    }),
  );
  // A seller's point of sale is a fact of their principal: this instance forgets it now (the users
  // trigger tells the others), so their next quote is made where they work now.
  for (const userId of result.moved) announce(db, { kind: 'user', userId });
  return { id: result.id, assigned: result.assigned, released: result.released };
}
