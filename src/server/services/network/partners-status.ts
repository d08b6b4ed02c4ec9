import type { DB } from '../../db';
import { notFound, conflict } from '../../errors';
import { announce } from '../../cache';
import { now } from '../../clock';
import { refuse } from './user-admin-writing';
import { usersLeftOut } from '../identity/company-status';
import { OFFERS_CHANGED } from './offers';
import { COMPANY_FORM_MESSAGES } from '../../../lib/partner-forms';
import { mayManageCompany, type CompanyActor, type CompanyKind, type CompanyStatus } from '../../../lib/partners';
import { NOT_FOUND_MESSAGE } from './partners-company';
import { COMPANY_EVENTS, lockCompany, logCompany } from './partners-confirm';

/*
 * The suspension of a partner or substabelecido and its reactivation (issue 17, decision 052).
 */

const M = COMPANY_FORM_MESSAGES;

// ─── Suspension ──────────────────────────────────────────────────────────────────────────────────

export type StatusOperation = 'suspender' | 'reativar';

/**
 * Suspends (with a reason) or reactivates a company. Suspending stops it — and, for a partner, every
 * substabelecido under it: the users left with no working company are signed out in the same
 * transaction (their sessions revoked) and refused at sign-in; the offers stop being sold (the
 * companies trigger tells every instance). Nothing else is touched: policies, commissions, reports
 * stay. Answers how many users were signed out.
 */
export async function setCompanyStatus(
  db: DB,
  actor: CompanyActor,
  kind: CompanyKind,
  cnpj: string,
  operation: StatusOperation,
  motivo: string | null,
  ip: string | null,
): Promise<{ signedOut: number; notice: 'suspenso' | 'reativado' }> {
  const result = await db.transaction().execute(async (trx) => {
    await lockCompany(trx, cnpj);
    const company = await trx
      .selectFrom('companies')
      .select(['id', 'cnpj', 'tipo', 'parent_id', 'status', 'nome_fantasia'])
      .where('cnpj', '=', cnpj)
      .executeTakeFirst();
    if (!company || company.tipo !== kind || !mayManageCompany(actor, { tipo: company.tipo, parentId: company.parent_id }))
      throw notFound(NOT_FOUND_MESSAGE);
    const wanted: CompanyStatus = operation === 'suspender' ? 'SUSPENSO' : 'ATIVO';
    if (company.status === wanted) throw conflict(operation === 'suspender' ? 'A empresa já está suspensa.' : 'A empresa já está ativa.');
    if (operation === 'suspender' && !motivo) refuse({ motivo: [M.motivo] }, 'invalid');
    await trx
      .updateTable('companies')
      .set(
        operation === 'suspender'
          ? { status: 'SUSPENSO', suspended_at: now(), suspended_by: actor.userId, motivo_suspensao: motivo }
          : { status: 'ATIVO', suspended_at: null, suspended_by: null, motivo_suspensao: null },
      )
      .where('id', '=', company.id)
      .execute();
    let out: { id: number; email: string }[] = [];
    if (operation === 'suspender') {
      const subs = kind === 'PARCEIRO' ? await trx.selectFrom('companies').select('id').where('parent_id', '=', company.id).execute() : [];
      out = await usersLeftOut(trx, [company.id, ...subs.map((s) => s.id)]);
      if (out.length > 0)
        await trx
          .updateTable('sessions')
          .set({ revoked_at: now() })
          .where(
            'user_id',
            'in',
            out.map((u) => u.id),
          )
          .where('revoked_at', 'is', null)
          .execute();
    }
    await logCompany(trx, actor, COMPANY_EVENTS[kind][operation], company, ip, [
      ...(motivo ? [`motivo: ${motivo}`] : []),
      ...(operation === 'suspender' ? [`usuários desconectados: ${out.length}`] : []),
    ]);
    return { out };
  });
  announce(db, OFFERS_CHANGED);
  announce(db, { kind: 'principals' });
  for (const user of result.out) announce(db, { kind: 'user', userId: user.id });
  return { signedOut: result.out.length, notice: operation === 'suspender' ? 'suspenso' : 'reativado' };
}
