import type { DB } from '../../db';
import { canSellCode, canSellCodeV1 } from '../../../lib/offers';
import { V1_ADMIN_GROUP } from '../../../lib/permissions';
import type { V1SessionUser, V2SessionUser } from '../../../lib/session';
import type { Seller } from './quotes';
import { principalFacts } from '../identity/principals';

/**
 * The v2 seller: partners and sub-delegated users see their own quotes, a partner admin those of
 * their companies (the history "for managers"), the provider's admin every quote.
 */
export async function sellerFromV2(db: DB, user: V2SessionUser): Promise<Seller> {
  // The user's company and companies come with the principal the request already resolved.
  const { companyId, companies, pointOfSaleId } = await principalFacts(db, user.idUsuario);
  const scope: Seller['scope'] =
    user.profile === 'ADMIN'
      ? { kind: 'all' }
      : user.profile === 'PARCEIRO_ADMIN'
        ? { kind: 'companies', ids: companies.map((c) => c.id) }
        : { kind: 'own' };
  return {
    generation: 'v2',
    userId: user.idUsuario,
    companyId,
    pointOfSaleId,
    scope,
    canSell: (code) => user.fullyAuthenticated && canSellCode(user, code),
  };
}

/**
 * The legacy seller (docs/decisions/019-legacy-sell.md): their own quotes; the admin group, which
 * may do everything (SPEC §6), every legacy quote. Quotes are sold for the user's company.
 */
export async function sellerFromV1(db: DB, user: V1SessionUser): Promise<Seller> {
  const { companyId, pointOfSaleId } = await principalFacts(db, user.idUsuario);
  return {
    generation: 'v1',
    userId: user.idUsuario,
    companyId,
    pointOfSaleId,
    scope: user.profile.includes(V1_ADMIN_GROUP) ? { kind: 'all' } : { kind: 'own' },
    canSell: (code) => canSellCodeV1(user, code),
  };
}
