import type { BeneficiaryScope, Scope } from './scope';

/**
 * Issue 31 (live worklist): what migration 038's triggers say on the change feed when a record a
 * worklist shows changes or appears, and whether such a notice concerns a viewer. A notice names
 * whose records changed, never which record — the count is asked again — so the payloads repeat
 * within a bulk write and PostgreSQL sends each distinct one once per transaction:
 *   'worklist:venda:<company id or empty>:<seller id>'  a sale's proposal, policy or installment;
 *   'worklist:usuario:<user id>'                          a user's sales report or user import;
 *   'worklist:empresa:<company id>'                       a company's nota fiscal;
 *   'worklist:equipe'                                     the insurer's staff queues (acceptance, refunds).
 */
export type WorklistNotice =
  | { whose: 'sale'; companyId: number | null; sellerId: number }
  | { whose: 'user'; userId: number }
  | { whose: 'company'; companyId: number }
  | { whose: 'staff' };

export const WORKLIST_PREFIX = 'worklist:';

/** The live worklist's stream under each generation's API base (server/api/endpoints/worklist-live.ts). */
export const WORKLIST_EVENTS_URL = { v1: '/api/plataforma/v1/pendencias/eventos', v2: '/api/bff/v1/pendencias/eventos' } as const;

/**
 * The header of the client's request for the page again after a notice (components/shell/live-worklist.ts):
 * the viewer memo, which ignores worklist notices, lets it through to be rendered afresh.
 */
export const LIVE_REFRESH_HEADER = 'x-portal-ao-vivo';

const ID = /^[1-9]\d{0,15}$/;
const idOf = (text: string | undefined) => (text !== undefined && ID.test(text) ? Number(text) : undefined);

/** A payload of the feed read as a worklist notice; undefined when it is not one (or is malformed). */
export function parseWorklistNotice(payload: string): WorklistNotice | undefined {
  if (!payload.startsWith(WORKLIST_PREFIX)) return undefined;
  const [whose, ...rest] = payload.slice(WORKLIST_PREFIX.length).split(':');
  if (whose === 'equipe' && rest.length === 0) return { whose: 'staff' };
  if (whose === 'usuario' && rest.length === 1) {
    const userId = idOf(rest[0]);
    return userId === undefined ? undefined : { whose: 'user', userId };
  }
  if (whose === 'empresa' && rest.length === 1) {
    const companyId = idOf(rest[0]);
    return companyId === undefined ? undefined : { whose: 'company', companyId };
  }
  if (whose === 'venda' && rest.length === 2) {
    const sellerId = idOf(rest[1]);
    const companyId = rest[0] === '' ? null : idOf(rest[0]);
    return sellerId === undefined || companyId === undefined ? undefined : { whose: 'sale', companyId, sellerId };
  }
  return undefined;
}

/**
 * What a viewer's worklist is made of, as the scoping function worked it out when the stream opened
 * (and again at each heartbeat): their sales (the BOLETOS scope, which holds APOLICES'), the
 * companies whose notas fiscais they see, and whether they are the insurer's staff.
 */
export interface WorklistAudience {
  userId: number;
  sales: Scope;
  notas: BeneficiaryScope;
  staff: boolean;
}

/** Whether a notice may change what a viewer's worklist counts: when it does, the count is asked again. */
export function touchesViewer(notice: WorklistNotice, audience: WorklistAudience): boolean {
  switch (notice.whose) {
    case 'staff':
      return audience.staff;
    case 'user':
      return notice.userId === audience.userId;
    case 'company':
      return audience.notas.kind === 'all' || audience.notas.companyIds.includes(notice.companyId);
    case 'sale': {
      // The seller's own proposals wait on them whatever their scope; the staff decide every proposal.
      if (notice.sellerId === audience.userId || audience.staff) return true;
      const { sales } = audience;
      if (sales.kind === 'all') return true;
      return sales.kind === 'companies' && notice.companyId !== null && sales.companyIds.includes(notice.companyId);
    }
  }
}
