import { sql } from 'kysely';
import type { DB } from '../../db';
import { isInsurerStaff, type SessionViewer } from '../../../lib/session';
import { scopeFor, soldWithin } from '../identity/scope';

/** The count stops here: the bell needs no more. */
export const WORKLIST_COUNT_CAP = 99;

/**
 * PROVISIONAL (slice B of issue 31, so the live worklist works on its branch): slice A owns this file
 * and its real `worklistNewCount` replaces this one at the merge — same signature.
 * Here: the proposals waiting for the partner's documents within the viewer's scope, and for the
 * insurer's staff the acceptance queue too; capped.
 */
export async function worklistNewCount(db: DB, viewer: SessionViewer): Promise<number> {
  const scope = await scopeFor(db, viewer, 'APOLICES');
  const waiting = sql<boolean>`(p.status = 'AGUARDANDO_DOCUMENTOS' and (p.user_id = ${viewer.user.idUsuario} or ${soldWithin(scope, sql.ref('q.user_id'), sql.ref('q.company_id'))}))`;
  const queued = isInsurerStaff(viewer) ? sql<boolean>`p.status = 'EM_ANALISE'` : sql<boolean>`false`;
  const rows = await db
    .selectFrom('proposals as p')
    .innerJoin('quotes as q', 'q.id', 'p.quote_id')
    .select('p.id')
    .where(sql<boolean>`(${waiting} or ${queued})`)
    .limit(WORKLIST_COUNT_CAP)
    .execute();
  return rows.length;
}
