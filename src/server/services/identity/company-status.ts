import { sql } from 'kysely';
import type { DB } from '../../db';
import { companiesLetSignIn, companyOperating, type CompanyStatus } from '../../../lib/partners';

/*
 * Whether a user's companies let them in (issue 17, decision 052): a suspended company — or one
 * under a suspended partner — keeps its users out, unless they work for another company that is
 * working. Apart from services/network/partners-*.ts so the sign-in can ask without importing the onboarding
 * (which creates users, which signs nobody in).
 */

/** A user's companies, linked (user_companies) or their own (users.company_id, the legacy link). */
const companiesOfUser = (userId: number) =>
  sql`(select company_id from user_companies where user_id = ${userId} union select company_id from users where id = ${userId} and company_id is not null)`;

/** May this user sign in as far as their companies go? */
export async function companiesLetUserIn(db: DB, userId: number): Promise<boolean> {
  const { rows } = await sql<{ status: CompanyStatus; parent_status: CompanyStatus | null }>`
    select c.status, p.status as parent_status
    from companies c left join companies p on p.id = c.parent_id
    where c.id in ${companiesOfUser(userId)}`.execute(db);
  return companiesLetSignIn(rows.map((r) => ({ operating: companyOperating(r, r.parent_status ? { status: r.parent_status } : null) })));
}

/**
 * The users of these companies left with no working company — whom a suspension must sign out. Read
 * inside the suspension's transaction, after the status changed.
 */
export async function usersLeftOut(db: DB, companyIds: readonly number[]): Promise<{ id: number; email: string }[]> {
  if (companyIds.length === 0) return [];
  const ids = sql.join(companyIds.map((id) => sql`${id}`));
  const { rows } = await sql<{ id: number; email: string }>`
    select u.id, u.email from users u
    where (u.company_id in (${ids}) or u.id in (select user_id from user_companies where company_id in (${ids})))
      and not exists (
        select 1 from companies c left join companies p on p.id = c.parent_id
        where (c.id = u.company_id or c.id in (select company_id from user_companies uc where uc.user_id = u.id))
          and c.status = 'ATIVO' and (p.id is null or p.status = 'ATIVO'))
    order by u.id`.execute(db);
  return rows;
}
