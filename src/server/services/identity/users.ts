import { sql } from 'kysely';
import type { DB } from '../../db';
import { maskCpf } from '../../../lib/validators';

/** An ILIKE pattern matching text that contains `value` literally (its %, _ and \\ escaped). */
export const containing = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The user `u` of the query works for one of `companyIds`: their own company or one linked to them
 * (user_companies). None given: no one.
 */
export const worksForAny = (companyIds: readonly number[]) =>
  companyIds.length === 0
    ? sql<boolean>`false`
    : sql<boolean>`(u.company_id in (${sql.join(companyIds)}) or exists (select 1 from user_companies uc where uc.user_id = u.id and uc.company_id in (${sql.join(companyIds)})))`;

/** User search for managers (GET /v1/usuarios/filtro). Scope: every user, or the companies given. */
export interface UserFilter {
  email?: string;
  nome?: string;
  empresa?: string;
  status?: string;
  page: number;
  pageSize: number;
  /** Company ids the caller may see; undefined = all (the provider's admins). */
  companyIds?: number[];
  /** Only the users of one generation (each generation's screens manage its own: decision 046). */
  generation?: 'v1' | 'v2';
}

/**
 * The users a filter matches within its scope, as a query to select from (the list's page, the bulk
 * actions' selection, the export); undefined when the scope names no company.
 */
export function usersMatching(db: DB, filter: Omit<UserFilter, 'page' | 'pageSize'>) {
  let query = db.selectFrom('users as u').leftJoin('companies as c', 'c.id', 'u.company_id');
  if (filter.email) query = query.where('u.email', 'ilike', containing(filter.email));
  if (filter.nome) query = query.where('u.nome', 'ilike', containing(filter.nome));
  if (filter.empresa) {
    const empresa = filter.empresa;
    query = query.where((eb) =>
      eb.or([eb('c.razao_social', 'ilike', containing(empresa)), eb('c.cnpj', 'like', containing(empresa.replace(/\D/g, '') || empresa))]),
    );
  }
  if (filter.status) query = query.where('u.status', '=', filter.status.toUpperCase() as never);
  if (filter.generation) query = query.where('u.generation', '=', filter.generation);
  if (filter.companyIds) {
    const ids = filter.companyIds;
    if (ids.length === 0) return undefined;
    query = query.where(worksForAny(ids));
  }
  return query;
}

export async function filterUsers(db: DB, filter: UserFilter) {
  const query = usersMatching(db, filter);
  if (!query) return { content: [], totalPages: 0, totalElements: 0 };
  const { total } = await query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
  const rows = await query
    .select(['u.id', 'u.nome', 'u.email', 'u.cpf', 'u.status', 'u.generation', 'u.profile', 'c.razao_social', 'c.cnpj'])
    .orderBy('u.nome')
    .orderBy('u.id')
    .limit(filter.pageSize)
    .offset(filter.page * filter.pageSize)
    .execute();
  return {
    content: rows.map((r) => ({
      id: r.id,
      nome: r.nome,
      email: r.email,
      cpf: r.cpf ? maskCpf(r.cpf) : null,
      status: r.status,
      geracao: r.generation,
      perfil: r.profile?.toUpperCase() ?? null,
      empresa: r.razao_social,
      cnpjEmpresa: r.cnpj,
    })),
    totalPages: Math.ceil(total / filter.pageSize),
    totalElements: total,
  };
}
