import { addDays, daysBetween } from './calendar';
import { generatePixPayload } from '@brazilian-utils/brazilian-utils';
import { barcode, digitableLine } from './boleto';

/*
 * Charging an installment (issue 13): the boleto with Pix ("boleto híbrido") of one installment, and
 * what an overdue one costs. ILLUSTRATIVE: the receiving bank, agreement, Pix key, fine and interest
 * are sample data (decision 033).
 */

/** Who receives: the insurer's account at its bank and its Pix key. */
export const RECEIVER = {
  bank: '001',
  /** The branch that keeps the insurer's account, as the slip prints it ("agência/código do beneficiário"). */
  agency: '1234-5',
  /** The 7-digit agreement (convênio) the bank gave the insurer. */
  agreement: '3128557',
  pixKey: '12.345.678/0001-95',
  name: 'Seguradora Demo S.A.',
  city: 'Sao Paulo',
} as const;

/** The contract's late charges: a 2 % fine and 1 % a month, pro rata by day (30-day months). */
export const LATE_CHARGES = { finePercent: 2, monthlyInterestPercent: 1 } as const;

/** The methods a charge (boleto with Pix) collects; card and debit are charged by their networks. */
export const CHARGED_METHODS: readonly string[] = ['boleto', 'pix'];

/** How far ahead a 2ª via may be due. */
export const SECOND_COPY_MAX_DAYS = 10;

/** The days a 2ª via asked for on `today` may fall due on: today up to SECOND_COPY_MAX_DAYS ahead. */
export const secondCopyWindow = (today: string) => ({ min: today, max: addDays(today, SECOND_COPY_MAX_DAYS) });

/** What an installment of `valor` due on `vencimento` costs when paid on `paidOn`, figure by figure. */
export function lateAmount(valor: number, vencimento: string, paidOn: string) {
  const days = Math.max(0, daysBetween(vencimento, paidOn));
  const fine = days > 0 ? Math.round((valor * LATE_CHARGES.finePercent) / 100) : 0;
  const interest = Math.round((valor * LATE_CHARGES.monthlyInterestPercent * days) / 100 / 30);
  return { days, fine, interest, total: valor + fine + interest };
}

/**
 * The 25-digit free field: the agreement (7 digits) and the 17-digit "nosso número" the bank uses
 * to tell charges apart — here the charge's own id — and a trailing zero (the wallet's digit).
 */
export const freeField = (chargeId: number) => `${RECEIVER.agreement}${nossoNumero(chargeId)}0`;

/** The charge's "nosso número" as the slip prints it: its id in 17 digits. */
export const nossoNumero = (chargeId: number) => String(chargeId).padStart(17, '0');

/** A charge is paid by its own slip and Pix up to its due day; after that its installment asks for a 2ª via. */
export const isPayableOn = (charge: { vencimento: string }, today: string) => charge.vencimento >= today;

/** The txid of a charge's Pix: 'PORTAL' and the id, within the 25 characters Pix allows. */
export const pixTxid = (chargeId: number) => `PORTAL${String(chargeId).padStart(10, '0')}`;

/** What a charge's Pix says it pays (the payer's bank app shows it): the installment and its policy. */
export const chargeDescription = (installment: { numero: number; nr_apolice: string }) =>
  `Parcela ${installment.numero} apolice ${installment.nr_apolice}`;

export interface ChargeCodes {
  barcode: string;
  linhaDigitavel: string;
  pixCopiaECola: string;
}

/** The boleto's barcode and line and the Pix "copia e cola" of one charge. */
export function chargeCodes(chargeId: number, amountCents: number, dueDate: string, description: string): ChargeCodes {
  const code = barcode({ bank: RECEIVER.bank, amountCents, dueDate, freeField: freeField(chargeId) });
  const pix = generatePixPayload({
    key: RECEIVER.pixKey,
    merchantName: RECEIVER.name,
    merchantCity: RECEIVER.city,
    amount: amountCents / 100,
    txid: pixTxid(chargeId),
    description,
  });
  if (!pix) throw new Error('Pix payload refused by its generator');
  return { barcode: code, linhaDigitavel: digitableLine(code), pixCopiaECola: pix };
}
