import * as z from 'zod/mini';
import { contactFields, type Address } from './products/insured';
import type { Cents } from './products/types';
import type { ProductLine } from './simulators';
import type { Requester } from './refund';

/*
 * Endorsements (issue 14; DESIGN §10): what may change in a policy after the sale, as data shared
 * by the pages, the endpoints and the services. ILLUSTRATIVE where it is a rule of the insurer
 * (which lines allow a partial cancellation, the reasons offered, the refund's payment days):
 * docs/decisions/038-endorsements.md.
 */

export type EndorsementKind = 'CONTATO' | 'CANCELAMENTO' | 'CANCELAMENTO_PARCIAL';

export const ENDORSEMENT_LABELS: Record<EndorsementKind, string> = {
  CONTATO: 'Alteração de dados cadastrais',
  CANCELAMENTO: 'Cancelamento da apólice',
  CANCELAMENTO_PARCIAL: 'Cancelamento de coberturas',
};

/** The insured's contact data a contact endorsement changes; no premium effect. */
export const contactSchema = z.object(contactFields());
export type InsuredContact = { email: string; telefone: string; endereco: Address };

/** Why a cancellation is asked for, by who asks. */
export const CANCELLATION_REASONS: Record<Requester, readonly { value: string; label: string }[]> = {
  SEGURADO: [
    { value: 'VENDA_DO_BEM', label: 'Venda ou perda do bem segurado' },
    { value: 'OUTRO_SEGURO', label: 'Contratou outro seguro' },
    { value: 'FINANCEIRO', label: 'Dificuldade financeira' },
    { value: 'ARREPENDIMENTO', label: 'Desistência da contratação' },
    { value: 'INSATISFACAO', label: 'Insatisfação com o seguro ou o atendimento' },
    { value: 'OUTRO', label: 'Outro motivo' },
  ],
  SEGURADORA: [
    { value: 'FALTA_PAGAMENTO', label: 'Falta de pagamento' },
    { value: 'AGRAVAMENTO', label: 'Agravamento intencional do risco' },
    { value: 'DECLARACAO_INEXATA', label: 'Declaração inexata ou omissão na proposta' },
    { value: 'OUTRO', label: 'Outro motivo' },
  ],
};

export const REQUESTER_LABELS: Record<Requester, string> = {
  SEGURADO: 'O segurado',
  SEGURADORA: 'A seguradora',
};

export const reasonLabel = (requester: Requester, reason: string) =>
  CANCELLATION_REASONS[requester].find((r) => r.value === reason)?.label ?? reason;

const NO_REASON = 'Motivo não informado';

/**
 * A cancellation's reason as an endorsement stores it — its code, or 'CODE: what the requester
 * added' (services/after-sale/cancellation.ts) — in words, as the resumo showed it before confirming:
 * 'Contratou outro seguro — Seguro incluído no financiamento'. Every page and document that shows a
 * stored reason reads it here, so none prints a code: one of the other requester's table (an
 * endorsement without its requester) is still labelled, and one no table knows reads as not given.
 */
export function reasonText(requester: Requester, stored: string | null): string {
  const [, code = '', detail] = /^([A-Z_]+)(?:: ?([\s\S]*))?$/.exec(stored ?? '') ?? [];
  const reason =
    CANCELLATION_REASONS[requester].find((r) => r.value === code) ??
    Object.values(CANCELLATION_REASONS)
      .flat()
      .find((r) => r.value === code);
  const label = reason?.label ?? NO_REASON;
  return detail?.trim() ? `${label} — ${detail.trim()}` : label;
}

/**
 * Lines whose coverages may be cancelled one by one. A crop, a forest or a pledged harvest is insured
 * as one risk (and its premium may be subsidised as a whole); a personal item has one coverage.
 */
export const PARTIAL_CANCELLATION: Record<ProductLine, boolean> = {
  residencial: true,
  empresarial: true,
  'empresarial-individual': true,
  maquinas: true,
  vida: true,
  agricola: false,
  'itens-pessoais': false,
};

/** Business days after the cancellation before the refund is paid (SUSEP allows up to 10). */
export const REFUND_BUSINESS_DAYS = 10;

export interface PolicyPremium {
  net: Cents;
  policyCost: Cents;
  iof: Cents;
  /** What the installments add up to (the premium with any installment interest). */
  total: Cents;
}

/**
 * The premium of the coverages dropped from a policy, as their share of its net premium: the IOF
 * and the installments' total in the same proportion, the policy cost staying with the policy.
 */
export function droppedPremium(policy: PolicyPremium, droppedNet: Cents): PolicyPremium {
  const share = policy.net === 0 ? 0 : droppedNet / policy.net;
  return {
    net: droppedNet,
    policyCost: 0,
    iof: Math.round(policy.iof * share),
    total: Math.round((policy.total - policy.policyCost) * share),
  };
}

/**
 * Open installments after a partial cancellation: each loses the dropped share of its amount, the
 * rounding's cents on the last one, so they add up to exactly `reduction` less.
 */
export function reducedInstallments(open: readonly Cents[], reduction: Cents): Cents[] {
  const sum = open.reduce((a, b) => a + b, 0);
  if (sum === 0 || open.length === 0) return [...open];
  const cut = Math.min(reduction, sum);
  const cuts = open.map((value) => Math.floor((value * cut) / sum));
  cuts[cuts.length - 1]! += cut - cuts.reduce((a, b) => a + b, 0);
  return open.map((value, i) => value - cuts[i]!);
}
