import { database } from '../../server/boot/database';
import { now } from '../../server/clock';
import { brasiliaDay } from '../../lib/format';
import { viewerOf, type PortalSession } from '../../lib/session';
import { contractIdOf, ENDORSEMENT_CLOSED, offeredEndorsements } from '../../lib/endorsement-home';
import { findPolicyByContract } from '../../server/services/after-sale/policies';
import { endorsementHistory } from '../../server/services/after-sale/endorsements';
import { scopeFor } from '../../server/services/identity/scope';
import { scheduledCancellationOf } from '../../server/services/after-sale/cancellation';
import { recordDataAccess } from '../../server/services/identity/access-log';

/**
 * What the endorsement pages need, for both generations: thin pages, this does the work. A contract
 * outside the viewer's APOLICES scope — another company's, an unknown or malformed number — is
 * undefined, and the page answers the same 404 whether it exists or not.
 */
type Generation = 'v1' | 'v2';

async function scopedPolicy(generation: Generation, session: PortalSession, contract: string) {
  const idContratacao = contractIdOf(contract);
  if (idContratacao === undefined) return undefined;
  const db = await database();
  // The middleware's guard let only a signed-in viewer of this generation reach the page.
  const viewer = viewerOf(session, generation)!;
  const scope = await scopeFor(db, viewer, 'APOLICES');
  const policy = await findPolicyByContract(db, scope, generation, idContratacao, brasiliaDay(now()));
  return policy && { db, viewer, policy };
}

/** The policy, its endorsements, and those its state offers (or why none). Each view is logged (decision 049). */
export async function endorsementHomePage(generation: Generation, session: PortalSession, idContratacao: string, ip: string) {
  const found = await scopedPolicy(generation, session, idContratacao);
  if (!found) return undefined;
  const { db, policy } = found;
  await recordDataAccess(db, found.viewer, ip, 'apolice.endossos', policy.nrApolice);
  const [history, scheduled] = await Promise.all([endorsementHistory(db, policy.id), scheduledCancellationOf(db, policy.id)]);
  return {
    policy,
    history,
    scheduled,
    offered: offeredEndorsements(policy.status, scheduled !== undefined),
    closed: ENDORSEMENT_CLOSED[policy.status],
  };
}

/** The contact form's policy: the proposal and the contract must be the same policy's. */
export async function contactEndorsementPage(
  generation: Generation,
  session: PortalSession,
  nrProposta: string,
  idContratacao: string,
  ip: string,
) {
  const found = await scopedPolicy(generation, session, idContratacao);
  if (!found || found.policy.nrProposta !== nrProposta) return undefined;
  await recordDataAccess(found.db, found.viewer, ip, 'apolice.endosso-contato', found.policy.nrApolice);
  return { policy: found.policy, closed: ENDORSEMENT_CLOSED[found.policy.status] };
}
