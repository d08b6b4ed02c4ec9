import type { DB } from '../../db';
import type { Generation } from '../../db/schema';
import { RENEWAL_MESSAGES, type RenewalSellerView } from '../../../lib/renewals';
import type { SessionViewer } from '../../../lib/session';
import { findUserById, loadV1User, loadV2User } from '../identity/principals';
import { sellableOffers, sellableOffersV1 } from '../network/offers';
import type { OfferToQuote, Seller } from './quotes';
import { sellerFromV1, sellerFromV2 } from './sellers';

/*
 * Who sells a renewal (issue 42: whoever clicked "Renovar" became the new quote's seller, a manager
 * taking a seller's client). The policy's own seller while they still can — active, still of the
 * company it was sold for, holding an offer of the product in force — whoever clicks: a manager
 * prepares the quote, and only its seller changes it and sends the proposal (decision 029). Else the
 * one who clicks, if they can sell it; the renewal page says which before anyone clicks.
 */

export interface RenewalSeller {
  seller: Seller;
  offer: OfferToQuote;
  view: RenewalSellerView;
}

/** The policy as its renewal's seller is chosen from it. */
export interface PolicyForSale {
  user_id: number;
  company_id: number | null;
  simulator_code: string;
  generation: Generation;
  /** The offer the policy was sold through (its quote's): kept when still sellable. */
  offer_id: number;
}

/** A viewer as the seller of the product: their sellable offer of it (the policy's own first), or undefined. */
async function sellingAs(executor: DB, viewer: SessionViewer, policy: PolicyForSale, now: Date) {
  const seller = viewer.generation === 'v2' ? await sellerFromV2(executor, viewer.user) : await sellerFromV1(executor, viewer.user);
  if (!seller.canSell(policy.simulator_code)) return undefined;
  const offers = (
    viewer.generation === 'v2' ? await sellableOffers(executor, viewer.user, now) : await sellableOffersV1(executor, viewer.user, now)
  ).filter((o) => o.code === policy.simulator_code);
  const offer = offers.find((o) => o.nrOferta === policy.offer_id) ?? offers[0];
  return offer && { seller, offer };
}

/** The policy's seller as a viewer of the policy's generation, while they may still sell for its company. */
async function policySellerOf(executor: DB, policy: PolicyForSale): Promise<{ viewer?: SessionViewer; nome: string }> {
  const user = (await findUserById(executor, policy.user_id))!;
  const stays =
    user.status === 'ATIVO' && user.generation === policy.generation && (policy.company_id ?? user.company_id) === user.company_id;
  if (!stays) return { nome: user.nome };
  // Away from the portal they hold no simulator session: what they may sell is what their operations allow.
  const viewer: SessionViewer =
    user.generation === 'v2'
      ? { generation: 'v2', user: await loadV2User(executor, user, { fullyAuthenticated: true }) }
      : { generation: 'v1', user: await loadV1User(executor, user) };
  return { viewer, nome: user.nome };
}

/** Who would sell the renewal if `clicker` clicked now, or why nobody can (pt-BR). Read through `executor` (a transaction's). */
export async function renewalSellerFor(
  executor: DB,
  policy: PolicyForSale,
  clicker: SessionViewer,
  now: Date,
): Promise<RenewalSeller | { refusal: string }> {
  const own = await policySellerOf(executor, policy);
  const clickerName = clicker.generation === 'v2' ? clicker.user.nmUsuario : clicker.user.nome;
  const isClicker = policy.user_id === clicker.user.idUsuario;
  const kept = own.viewer && (await sellingAs(executor, isClicker ? clicker : own.viewer, policy, now));
  if (kept) return { ...kept, view: { nome: own.nome, policySeller: true, viewer: isClicker } };
  const taken = !isClicker && (await sellingAs(executor, clicker, policy, now));
  if (taken) return { ...taken, view: { nome: clickerName, policySeller: false, viewer: true, instead: own.nome } };
  return { refusal: isClicker ? RENEWAL_MESSAGES.notSellable : RENEWAL_MESSAGES.sellerGone(own.nome) };
}
