import { sql } from 'kysely';
import type { DB } from '../db';
import { ApiError, notFound } from '../api/errors';
import { CHARGED_METHODS, chargeCodes, lateAmount, pixTxid, SECOND_COPY_MAX_DAYS, secondCopyWindow } from '../../lib/charges';
import { brasiliaDay } from '../../lib/format';
import { installmentStatus } from '../../lib/policies';
import type { Scope } from '../../lib/scope';
import type { Selectable } from 'kysely';
import type { ChargesTable, Generation } from '../db/schema';
import { policyIdInScope } from './policies';
import { now as clockNow } from '../clock';

/*
 * Charging and paying installments (issue 13; DESIGN §10). An open installment has one active
 * charge — a boleto with Pix — made when first asked for; a 2ª via of an overdue one replaces it,
 * with the contract's fine and interest up to its new due date. A payment settles the installment
 * once, whoever notifies it and however often.
 */

const MESSAGES = {
  notFound: 'Parcela não encontrada.',
  paid: 'Esta parcela já está paga: não há boleto a emitir.',
  cancelled: 'Esta parcela foi cancelada: não há boleto a emitir.',
  notOverdue: 'A 2ª via com nova data é para parcelas vencidas; esta ainda vale com o boleto atual.',
  dueDate: `Escolha um vencimento entre hoje e os próximos ${SECOND_COPY_MAX_DAYS} dias.`,
  unknownCode: 'Código de pagamento não reconhecido: confira a linha digitável ou o Pix copia e cola.',
  replaced: 'Este boleto foi substituído por uma 2ª via: pague o mais recente.',
  expired: 'Este Pix venceu: emita uma 2ª via da parcela.',
  closed: 'Esta parcela não está mais em aberto.',
  notCharged: 'Esta apólice é paga no cartão ou em débito em conta: não há boleto nem Pix a emitir.',
} as const;

/** An installment of a policy the scope sees (lib/scope.ts, through the policies' one condition). */
async function installmentOf(db: DB, scope: Scope, generation: Generation, nrApolice: string, numero: number) {
  const policyId = await policyIdInScope(db, scope, generation, nrApolice);
  const row =
    policyId === undefined
      ? undefined
      : await db
          .selectFrom('installments as i')
          .innerJoin('policies as a', 'a.id', 'i.policy_id')
          .select(['i.id', 'i.valor', 'i.vencimento', 'i.status', 'i.numero', 'a.nr_apolice', 'a.forma_pagamento'])
          .where('i.policy_id', '=', policyId)
          .where('i.numero', '=', numero)
          .executeTakeFirst();
  if (!row) throw notFound(MESSAGES.notFound);
  return row;
}

export interface ChargeView {
  id: number;
  vencimento: string;
  valor: number;
  multa: number;
  juros: number;
  total: number;
  linhaDigitavel: string;
  pixCopiaECola: string;
}

const view = (c: Selectable<ChargesTable>): ChargeView => ({
  id: c.id,
  vencimento: c.vencimento,
  valor: c.valor,
  multa: c.multa,
  juros: c.juros,
  total: c.total,
  linhaDigitavel: c.linha_digitavel,
  pixCopiaECola: c.pix_copia_e_cola,
});

/** Serialises everything that charges or pays one installment (two tabs, a bank notifying twice). */
const lockInstallment = (trx: DB, id: number) => sql`select id from installments where id = ${id} for update`.execute(trx);

/** Writes a charge and its codes (the codes carry the charge's id, so it is inserted first). */
async function writeCharge(
  trx: DB,
  installment: { id: number; numero: number; nr_apolice: string },
  amounts: { valor: number; multa: number; juros: number; total: number },
  vencimento: string,
  userId: number | null,
) {
  const { rows } = await sql<{ id: number }>`select nextval(pg_get_serial_sequence('charges', 'id'))::int as id`.execute(trx);
  const id = rows[0]!.id;
  const codes = chargeCodes(id, amounts.total, vencimento, `Parcela ${installment.numero} apolice ${installment.nr_apolice}`);
  return trx
    .insertInto('charges')
    .values({
      id,
      installment_id: installment.id,
      vencimento,
      ...amounts,
      codigo_barras: codes.barcode,
      linha_digitavel: codes.linhaDigitavel,
      pix_txid: pixTxid(id),
      pix_copia_e_cola: codes.pixCopiaECola,
      user_id: userId,
      created_at: clockNow(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

function assertOpen({ status, forma_pagamento }: { status: string; forma_pagamento: string }) {
  if (!CHARGED_METHODS.includes(forma_pagamento)) throw new ApiError(409, MESSAGES.notCharged);
  if (status === 'PAGA') throw new ApiError(409, MESSAGES.paid);
  if (status === 'CANCELADA') throw new ApiError(409, MESSAGES.cancelled);
}

/** The active charge of a locked, open installment; the first one is made now, due with the installment. */
async function activeCharge(trx: DB, installment: { id: number; numero: number; nr_apolice: string; valor: number; vencimento: string }) {
  const active = await trx
    .selectFrom('charges')
    .selectAll()
    .where('installment_id', '=', installment.id)
    .where('status', '=', 'ATIVA')
    .executeTakeFirst();
  if (active) return view(active);
  const amounts = { valor: installment.valor, multa: 0, juros: 0, total: installment.valor };
  return view(await writeCharge(trx, installment, amounts, installment.vencimento, null));
}

/** The installment's active charge, made on first request with its own due date and amount. */
export async function currentCharge(db: DB, scope: Scope, generation: Generation, nrApolice: string, numero: number): Promise<ChargeView> {
  return db.transaction().execute(async (trx) => {
    const installment = await installmentOf(trx, scope, generation, nrApolice, numero);
    await lockInstallment(trx, installment.id);
    assertOpen(installment);
    return activeCharge(trx, installment);
  });
}

/**
 * The active charge of every open installment of a policy, by number, in one transaction (the
 * policy's page); undefined when the scope may not charge it or its method has no charge.
 */
export async function payableCharges(
  db: DB,
  scope: Scope,
  generation: Generation,
  nrApolice: string,
): Promise<Record<number, ChargeView> | undefined> {
  const policyId = await policyIdInScope(db, scope, generation, nrApolice);
  if (policyId === undefined) return undefined;
  return db.transaction().execute(async (trx) => {
    const installments = await trx
      .selectFrom('installments as i')
      .innerJoin('policies as a', 'a.id', 'i.policy_id')
      .select(['i.id', 'i.valor', 'i.vencimento', 'i.numero', 'a.nr_apolice', 'a.forma_pagamento'])
      .where('i.policy_id', '=', policyId)
      .where('i.status', '=', 'ABERTA')
      .orderBy('i.numero')
      .forUpdate('i')
      .execute();
    if (installments[0] && !CHARGED_METHODS.includes(installments[0].forma_pagamento)) return undefined;
    const charges: Record<number, ChargeView> = {};
    for (const installment of installments) charges[installment.numero] = await activeCharge(trx, installment);
    return charges;
  });
}

/**
 * A 2ª via of an overdue installment, due on `vencimento` (today up to SECOND_COPY_MAX_DAYS ahead),
 * with the fine and interest of the contract up to that day; the previous charge stops being payable.
 */
export async function secondCopy(
  db: DB,
  scope: Scope,
  generation: Generation,
  nrApolice: string,
  numero: number,
  vencimento: string,
  userId: number,
  now: Date,
): Promise<ChargeView> {
  const today = brasiliaDay(now);
  const dueWindow = secondCopyWindow(today);
  if (vencimento < dueWindow.min || vencimento > dueWindow.max)
    throw new ApiError(400, MESSAGES.dueDate, { vencimento: [MESSAGES.dueDate] });
  return db.transaction().execute(async (trx) => {
    const installment = await installmentOf(trx, scope, generation, nrApolice, numero);
    await lockInstallment(trx, installment.id);
    assertOpen(installment);
    if (installmentStatus(installment.status, installment.vencimento, today) !== 'VENCIDA') throw new ApiError(409, MESSAGES.notOverdue);
    await trx
      .updateTable('charges')
      .set({ status: 'SUBSTITUIDA' })
      .where('installment_id', '=', installment.id)
      .where('status', '=', 'ATIVA')
      .execute();
    const late = lateAmount(installment.valor, installment.vencimento, vencimento);
    const amounts = { valor: installment.valor, multa: late.fine, juros: late.interest, total: late.total };
    return view(await writeCharge(trx, installment, amounts, vencimento, userId));
  });
}

export type PaymentOutcome = { paid: true; nrApolice: string; numero: number; valor: number; repeated: boolean };

/**
 * Pays the charge a linha digitável or a Pix "copia e cola" names. `externalId` is the bank's
 * identifier of the payment: the same notice twice records one payment, and an installment paid
 * already is never paid again (the second payer is told so).
 */
export async function payCharge(
  db: DB,
  input: { code: string; externalId: string; origem: 'WEBHOOK' | 'BANCO_DEMO' },
  now: Date,
): Promise<PaymentOutcome> {
  // A code copied from the boleto PDF arrives broken over lines: line breaks are never part of one.
  const code = input.code.replace(/[\r\n]+/g, '').trim();
  const digits = code.replace(/[\s.]/g, '');
  const isLine = /^\d{47}$/.test(digits);
  const txid = isLine ? undefined : /05\d\d(PORTAL\d{10})/.exec(code)?.[1];
  if (!isLine && !txid) throw new ApiError(404, MESSAGES.unknownCode);
  return db.transaction().execute(async (trx) => {
    const charge = await trx
      .selectFrom('charges as c')
      .innerJoin('installments as i', 'i.id', 'c.installment_id')
      .innerJoin('policies as a', 'a.id', 'i.policy_id')
      .select(['c.id', 'c.status', 'c.total', 'c.vencimento', 'c.pix_copia_e_cola', 'c.installment_id', 'i.numero', 'a.nr_apolice'])
      .$if(isLine, (qb) => qb.where('c.linha_digitavel', '=', digits))
      .$if(!isLine, (qb) => qb.where('c.pix_txid', '=', txid!).where('c.pix_copia_e_cola', '=', code))
      .executeTakeFirst();
    if (!charge) throw new ApiError(404, MESSAGES.unknownCode);
    await lockInstallment(trx, charge.installment_id);
    const existing = await trx
      .selectFrom('payments')
      .select(['external_id', 'valor'])
      .where('installment_id', '=', charge.installment_id)
      .executeTakeFirst();
    if (existing?.external_id === input.externalId)
      return { paid: true, nrApolice: charge.nr_apolice, numero: charge.numero, valor: existing.valor, repeated: true };
    if (existing) throw new ApiError(409, MESSAGES.closed);
    if (charge.status === 'SUBSTITUIDA') throw new ApiError(409, MESSAGES.replaced);
    if (charge.status !== 'ATIVA') throw new ApiError(409, MESSAGES.closed);
    // A Pix is due on its charge's day; a boleto may still be paid late (the bank charges the rest).
    if (!isLine && charge.vencimento < brasiliaDay(now)) throw new ApiError(409, MESSAGES.expired);
    await trx
      .insertInto('payments')
      .values({
        installment_id: charge.installment_id,
        charge_id: charge.id,
        external_id: input.externalId,
        meio: isLine ? 'BOLETO' : 'PIX',
        origem: input.origem,
        valor: charge.total,
        pago_em: now,
        created_at: now,
      })
      .execute();
    await trx.updateTable('charges').set({ status: 'PAGA' }).where('id', '=', charge.id).execute();
    await trx.updateTable('installments').set({ status: 'PAGA', paga_em: now }).where('id', '=', charge.installment_id).execute();
    return { paid: true, nrApolice: charge.nr_apolice, numero: charge.numero, valor: charge.total, repeated: false };
  });
}
