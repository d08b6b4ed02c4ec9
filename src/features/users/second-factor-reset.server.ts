import { adminContext, recordIdOf, refusalOf, type Routed } from '../controller.server';
import { managedUser, resetUserSecondFactor } from '../../server/services/network/user-admin';
import { securityOverview } from '../../server/services/identity/second-factor';
import { findUserById } from '../../server/services/identity/principals';
import { LEGACY_USER_PAGES, V2_USER_PAGES, secondFactorResetPath } from '../../lib/user-admin';
import type { PortalSession } from '../../lib/session';
import { withNotice } from './users-list.server';

/*
 * An administrator resets a managed user's second factor (issue 32, decision 068): a page that says
 * what the user has set up and what the reset does, and its confirmation (a plain POST). A user the
 * viewer does not manage — or themself, whose factor is the profile's — is the 404 page.
 */

export interface SecondFactorResetProps {
  generation: 'v1' | 'v2';
  action: string;
  back: string;
  user: { nome: string; email: string };
  factors: { totp: boolean; passkeys: number; required: boolean };
  error?: string;
}

const LIST = { v1: LEGACY_USER_PAGES.consulta, v2: V2_USER_PAGES.consulta } as const;

export async function secondFactorResetPage(
  generation: 'v1' | 'v2',
  session: PortalSession,
  idParam: string | undefined,
  method: string,
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
    back: LIST[generation],
    user: { nome: user.nome, email: user.email },
    factors: { totp: overview.totp !== null, passkeys: overview.passkeys.length, required: overview.required },
  };
  if (method !== 'POST') return { kind: 'page', status: 200, props };
  try {
    await resetUserSecondFactor(db, actor, id);
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    return { kind: 'page', status: refusal.status, props: { ...props, error: refusal.message } };
  }
  return { kind: 'redirect', to: withNotice(LIST[generation], 'segundo-fator') };
}
