import type { DB } from '../../db';
import { brasiliaDay, formatIsoDate } from '../../../lib/format';
import { formatBRL } from '../../../lib/products/money';
import { maskedDestination, type CancellationPreview, type CancellationRecord, type ReasonStep } from '../../../lib/cancellation';
import { changedContactParts } from '../../../lib/endorsement-contact';
import { reasonLabel, type InsuredContact } from '../../../lib/endorsements';
import type { RefundAccount } from '../../../lib/refund-account';
import { queueEmail } from '../../mail/outbox';
import { policyNoticeFacts } from './policy-notices';

/*
 * Telling the insured (and the seller) what an endorsement did to the policy (issue 27): a contact
 * change to the old address and the new, a cancellation with when and how its refund is paid, a
 * cancellation scheduled and one undone. Written inside the endorsement's transaction, sent after it
 * commits by the outbox's delivery job — a notice exists exactly when its change does.
 */

const list = new Intl.ListFormat('pt-BR', { style: 'long', type: 'conjunction' });

/** The contact endorsement: to the new address and, when the e-mail changed, to the old one too. */
export async function notifyContactChanged(trx: DB, policyId: number, before: InsuredContact, after: InsuredContact, now: Date) {
  const facts = await policyNoticeFacts(trx, policyId);
  const data = {
    nome: facts.nome,
    nrApolice: facts.nrApolice,
    produto: facts.produto,
    quando: formatIsoDate(brasiliaDay(now)),
    alterados: list.format(changedContactParts(before, after)),
    parceiro: facts.parceiro,
  };
  if (after.email) await queueEmail(trx, after.email, 'dados-alterados-segurado', { ...data, enderecoAnterior: false });
  const oldEmail = before.email.trim().toLowerCase();
  if (oldEmail && oldEmail !== after.email.trim().toLowerCase())
    await queueEmail(trx, oldEmail, 'dados-alterados-segurado', { ...data, enderecoAnterior: true });
}

/** 'A sua apólice de seguro X nº N' or 'As coberturas A e B da sua apólice…': what a notice says is cancelled. */
function whatIsCancelled(facts: { produto: string; nrApolice: string }, preview: Pick<CancellationPreview, 'partial' | 'coverages'>) {
  const policy = `sua apólice de seguro ${facts.produto} nº ${facts.nrApolice}`;
  if (!preview.partial) return { oQue: `A ${policy}`, plural: false };
  const names = preview.coverages.map((c) => c.name);
  return names.length === 1
    ? { oQue: `A cobertura ${names[0]} da ${policy}`, plural: false }
    : { oQue: `As coberturas ${list.format(names)} da ${policy}`, plural: true };
}

function installmentsSentence(installments: Pick<CancellationRecord, 'parcelasCanceladas' | 'parcelasReduzidas'>): string {
  const ordinal = (n: number) => `${n}ª`;
  if (installments.parcelasCanceladas.length > 0)
    return `As parcelas em aberto (${list.format(installments.parcelasCanceladas.map(ordinal))}) foram canceladas: não serão cobradas.`;
  if (installments.parcelasReduzidas.length > 0)
    return `As próximas parcelas ficam menores: ${installments.parcelasReduzidas
      .map((p) => `${ordinal(p.numero)} de ${formatBRL(p.de)} para ${formatBRL(p.para)}`)
      .join('; ')}.`;
  return 'Não havia parcelas em aberto.';
}

export interface CancellationNotice {
  nrEndosso: string;
  motivo: ReasonStep;
  preview: CancellationPreview;
  installments: Pick<CancellationRecord, 'parcelasCanceladas' | 'parcelasReduzidas'>;
  destino: string | null;
  refundDue: string | null;
}

/** A cancellation carried out: to the insured (what, from when, the refund's amount, day and account) and to the seller. */
export async function notifyCancellation(trx: DB, policyId: number, notice: CancellationNotice) {
  const facts = await policyNoticeFacts(trx, policyId);
  const { motivo, preview } = notice;
  const reason = reasonLabel(motivo.solicitante, motivo.motivo);
  const refund =
    preview.refund.total > 0 && notice.refundDue ? { valor: formatBRL(preview.refund.total), ate: formatIsoDate(notice.refundDue) } : null;
  if (facts.insuredEmail)
    await queueEmail(trx, facts.insuredEmail, 'cancelamento-segurado', {
      nome: facts.nome,
      nrApolice: facts.nrApolice,
      produto: facts.produto,
      nrEndosso: notice.nrEndosso,
      ...whatIsCancelled(facts, preview),
      aPartirDe: formatIsoDate(motivo.efetivaEm),
      porQue: motivo.solicitante === 'SEGURADO' ? `a seu pedido (${reason})` : `por decisão da seguradora (${reason})`,
      restituicao: refund && { ...refund, destino: notice.destino ?? 'conta a informar' },
      pago: preview.refund.netPaid > 0,
      parcelas: installmentsSentence(notice.installments),
      parceiro: facts.parceiro,
    });
  await queueEmail(trx, facts.seller.email, 'cancelamento-vendedor', {
    nome: facts.seller.nome,
    nrApolice: facts.nrApolice,
    segurado: facts.nome,
    nrEndosso: notice.nrEndosso,
    aPartirDe: formatIsoDate(motivo.efetivaEm),
    restituicao: refund ? `${refund.valor} até ${refund.ate}` : 'nenhuma',
    estorno: formatBRL(preview.refund.clawback),
    link: facts.policyPage,
    seguradoAvisado: facts.insuredEmail ? (refund ? 'RESTITUICAO' : 'CANCELAMENTO') : null,
  });
}

/** A cancellation kept for a day ahead: the policy stays in force and its installments due until then. */
export async function notifyCancellationScheduled(
  trx: DB,
  policyId: number,
  scheduled: { efetivaEm: string; preview: CancellationPreview; account: RefundAccount },
) {
  const facts = await policyNoticeFacts(trx, policyId);
  if (!facts.insuredEmail) return;
  await queueEmail(trx, facts.insuredEmail, 'cancelamento-agendado-segurado', {
    nome: facts.nome,
    nrApolice: facts.nrApolice,
    produto: facts.produto,
    ...whatIsCancelled(facts, scheduled.preview),
    aPartirDe: formatIsoDate(scheduled.efetivaEm),
    destino: maskedDestination(scheduled.account),
    parceiro: facts.parceiro,
  });
}

/** A scheduled cancellation undone before its day. */
export async function notifyScheduleUndone(trx: DB, policyId: number, efetivaEm: string) {
  const facts = await policyNoticeFacts(trx, policyId);
  if (!facts.insuredEmail) return;
  await queueEmail(trx, facts.insuredEmail, 'cancelamento-desfeito-segurado', {
    nome: facts.nome,
    nrApolice: facts.nrApolice,
    produto: facts.produto,
    aPartirDe: formatIsoDate(efetivaEm),
    parceiro: facts.parceiro,
  });
}
