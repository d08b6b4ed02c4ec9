import { adminContext, recordIdOf, refusalOf, type Routed } from '../controller.server';
import { managedUser, resetUserSecondFactor } from '../../server/services/network/user-admin';
import { securityOverview } from '../../server/services/identity/second-factor';
import { findUserById } from '../../server/services/identity/principals';
import { secondFactorResetPath } from '../../lib/user-admin';
import { userPagePath } from '../../lib/user-page';
import type { PortalSession } from '../../lib/session';

/*
 * An administrator resets a managed user's second factor (issue 32, decision 068): a page that says
 * what the user has set up and what the reset does, and its confirmation (a plain POST). A user the
 * viewer does not manage — or themself, whose factor is the profile's — is the 404 page.
 */

export interface SecondFactorResetProps {
  generation: 'v1' | 'v2';
  action: string;
  /** The user's page: where Cancelar and the reset lead. */
  back: string;
  user: { nome: string; email: string };
  factors: { totp: boolean; passkeys: number; required: boolean };
  error?: string;
}

export async function secondFactorResetPage(
  generation: 'v1' | 'v2',
  session: PortalSession,
  idParam: string | undefined,
  method: string,
  ip: string,
): Promise<Routed<SecondFactorResetProps>> {
  const { db, actor } = await adminContext(session, generation);
  const id = recordIdOf(idParam);
  // managedUser answers nobody to a viewer who may not change users.
  if (id === undefined || id === actor.userId || !(await managedUser(db, actor, { id }))) return { kind: 'not-found' };
  const user = (await findUserById(db, id))!;
  const overview = await securityOverview(db, user);
  const props: SecondFactorResetProps = {
    generation,
    action: secondFactorResetPath(generation, id),
    back: userPagePath(generation, id),
    user: { nome: user.nome, email: user.email },
    factors: { totp: overview.totp !== null, passkeys: overview.passkeys.length, required: overview.required },
  };
  if (method !== 'POST') return { kind: 'page', status: 200, props };
  try {
    await resetUserSecondFactor(db, actor, id, ip);
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    return { kind: 'page', status: refusal.status, props: { ...props, error: refusal.message } };
  }
  // Back to the user's page, which says what was done and shows the factor gone (issue 42).
  return { kind: 'redirect', to: `${userPagePath(generation, id)}?aviso=segundo-fator` };
}
