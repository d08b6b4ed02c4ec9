import { database } from '../../server/boot/database';
import { viewerOf, type PortalSession } from '../../lib/session';
import { now } from '../../server/clock';
import { brasiliaDay } from '../../lib/format';
import { config } from '../../server/config';
import { scopeFor } from '../../server/services/identity/scope';
import { ledgerCsv, ledgerOfPolicy } from '../../server/services/after-sale/ledger';
import { csvResponse } from '../../server/api/download';
import { recordDataAccess } from '../../server/services/identity/access-log';
import { pageAccess } from '../../lib/route-guards';
import { ledgerCsvFileName } from '../../lib/ledger';
import { refundsQueuePath } from '../../lib/refund-status';

/* The money ledger of a policy (issue 31): its part of the policy page (PolicyLedger.astro) and its CSV. */

/** The policy's ledger as CSV, in the viewer's APOLICES scope (outside it: undefined, the 404 page); the export is logged. */
export async function ledgerCsvDownload(
  generation: 'v1' | 'v2',
  session: PortalSession,
  nrApolice: string,
  ip: string,
): Promise<Response | undefined> {
  const db = await database();
  const viewer = viewerOf(session, generation)!;
  const csv = await ledgerCsv(db, await scopeFor(db, viewer, 'APOLICES'), generation, nrApolice, brasiliaDay(now()));
  if (csv === undefined) return undefined;
  await recordDataAccess(db, viewer, ip, 'apolice.extrato', nrApolice);
  return csvResponse(csv, ledgerCsvFileName(nrApolice));
}

/** The ledger the policy page shows (PolicyLedger.astro), of a policy the page found in the viewer's scope; and whether the viewer opens the refunds queue. */
export async function policyLedgerOf(generation: 'v1' | 'v2', session: PortalSession, policyId: number) {
  const db = await database();
  const ledger = await ledgerOfPolicy(db, policyId, brasiliaDay(now()));
  const viewer = viewerOf(session, generation);
  const queueHref =
    viewer && pageAccess(refundsQueuePath(generation), viewer, config().PORTAL_ENV) === 'allowed'
      ? refundsQueuePath(generation)
      : undefined;
  return { ledger, queueHref };
}
