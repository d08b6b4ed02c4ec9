import { sql } from 'kysely';
import type { DB } from '../../db';
import type { CompanyListQuery } from '../../../lib/partner-forms';
import {
  COMPANY_PAGE_SIZE,
  managedPartners,
  mayManagePartners,
  type CompanyActor,
  type CompanyKind,
  type CompanyStatus,
} from '../../../lib/partners';
import { managesPartner } from './partners-company';

/*
 * The lists of partners and of substabelecidos (issue 17, decision 052): the companies the viewer
 * sees and the new ones still in registration, filtered and paged.
 */

// ─── The lists ───────────────────────────────────────────────────────────────────────────────────

export interface CompanyListRow {
  cnpj: string;
  razaoSocial: string;
  nomeFantasia: string;
  susep: string | null;
  /** A substabelecido's partner. */
  parceiro: string | null;
  ofertas: number;
  substabelecidos: number;
  usuarios: number;
  status: CompanyStatus | 'EM_CADASTRO';
  /** The viewer may change it (edit, suspend, continue). */
  manageable: boolean;
}

const STATUS_OF_FILTER = { ativo: 'ATIVO', suspenso: 'SUSPENSO', 'em-cadastro': 'EM_CADASTRO' } as const;
const likeText = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The list's filters as one condition over the listed rows. */
function filtersOf(query: CompanyListQuery) {
  const conditions = [sql`true`];
  if (query.cnpj) conditions.push(sql`cnpj like ${likeText(query.cnpj)}`);
  if (query.nome) conditions.push(sql`(razao_social ilike ${likeText(query.nome)} or nome_fantasia ilike ${likeText(query.nome)})`);
  const status = STATUS_OF_FILTER[query.status as keyof typeof STATUS_OF_FILTER];
  if (status) conditions.push(sql`status = ${status}`);
  return sql.join(conditions, sql` and `);
}

/**
 * A page of the kind's companies the actor sees — the new ones still in registration listed with
 * them — filtered by CNPJ (any part, mask or not), name (razão social or fantasia) and status.
 */
export async function listCompanies(db: DB, actor: CompanyActor, kind: CompanyKind, query: CompanyListQuery) {
  const partners = kind === 'PARCEIRO' ? (mayManagePartners(actor) ? 'all' : []) : managedPartners(actor);
  const own = actor.companies.filter((c) => c.tipo === kind).map((c) => c.id);
  const ids = (list: number[]) => (list.length ? sql.join(list.map((id) => sql`${id}`)) : sql`null`);
  // Who opens the substabelecidos' list sees their own company there too, without changing it.
  const companyScope =
    partners === 'all' ? sql`true` : kind === 'PARCEIRO' ? sql`false` : sql`(c.parent_id in (${ids(partners)}) or c.id in (${ids(own)}))`;
  const draftScope = partners === 'all' ? sql`true` : kind === 'PARCEIRO' ? sql`false` : sql`d.parent_id in (${ids(partners)})`;
  const base = sql`
    with listed as (
      select c.cnpj, c.razao_social, c.nome_fantasia, c.susep, c.status, c.parent_id, p.nome_fantasia as parceiro,
        (select count(*) from offers o where o.company_id = c.id and o.ativo)::int as ofertas,
        (select count(*) from companies s where s.parent_id = c.id)::int as substabelecidos,
        (select count(*) from user_companies uc where uc.company_id = c.id)::int as usuarios
      from companies c left join companies p on p.id = c.parent_id
      where c.tipo = ${kind} and ${companyScope}
      union all
      select d.cnpj, d.dados->'empresa'->>'razaoSocial', d.dados->'empresa'->>'nomeFantasia', nullif(d.dados->'empresa'->>'susep', ''),
        'EM_CADASTRO', d.parent_id, p.nome_fantasia, 0, 0, 0
      from company_drafts d left join companies p on p.id = d.parent_id
      where d.tipo = ${kind} and d.acao = 'novo' and ${draftScope}
    )
    select * from listed where ${filtersOf(query)}`;
  const [{ rows }, { rows: count }] = await Promise.all([
    sql<{
      cnpj: string;
      razao_social: string | null;
      nome_fantasia: string | null;
      susep: string | null;
      status: CompanyStatus | 'EM_CADASTRO';
      parent_id: number | null;
      parceiro: string | null;
      ofertas: number;
      substabelecidos: number;
      usuarios: number;
    }>`${base} order by razao_social, cnpj limit ${COMPANY_PAGE_SIZE} offset ${(query.pagina - 1) * COMPANY_PAGE_SIZE}`.execute(db),
    sql<{ n: number }>`select count(*)::int as n from (${base}) counted`.execute(db),
  ]);
  const total = count[0]?.n ?? 0;
  return {
    content: rows.map(
      (r): CompanyListRow => ({
        cnpj: r.cnpj,
        razaoSocial: r.razao_social ?? '',
        nomeFantasia: r.nome_fantasia ?? '',
        susep: r.susep,
        parceiro: r.parceiro,
        ofertas: r.ofertas,
        substabelecidos: r.substabelecidos,
        usuarios: r.usuarios,
        status: r.status,
        manageable: kind === 'PARCEIRO' ? partners === 'all' : managesPartner(actor, r.parent_id),
      }),
    ),
    totalElements: total,
    totalPages: Math.ceil(total / COMPANY_PAGE_SIZE),
    page: query.pagina,
  };
}
