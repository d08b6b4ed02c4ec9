import { sql } from 'kysely';
import type { DB } from '../../db';
import { invalid, notFound, conflict } from '../../errors';
import {
  CHARGED_METHODS,
  chargeCodes,
  chargeDescription,
  isPayableOn,
  lateAmount,
  pixTxid,
  SECOND_COPY_MAX_DAYS,
  secondCopyWindow,
} from '../../../lib/charges';
import { brasiliaDay } from '../../../lib/format';
import { installmentStatus } from '../../../lib/policies';
import type { Scope } from '../../../lib/scope';
import type { Selectable } from 'kysely';
import type { ChargesTable, Generation } from '../../db/schema';
import { policyIdInScope } from './policies';
import { amountDue, splitReceipt, type ReceiptSituation, type ReceiptSplit } from '../../../lib/receipts';
import { now as clockNow } from '../../clock';
import { refundReceiptCredit } from './refunds';

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
  const codes = chargeCodes(id, amounts.total, vencimento, chargeDescription(installment));
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
  if (!CHARGED_METHODS.includes(forma_pagamento)) throw conflict(MESSAGES.notCharged);
  if (status === 'PAGA') throw conflict(MESSAGES.paid);
  if (status === 'CANCELADA') throw conflict(MESSAGES.cancelled);
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
  if (vencimento < dueWindow.min || vencimento > dueWindow.max) throw invalid(MESSAGES.dueDate, { vencimento: [MESSAGES.dueDate] });
  return db.transaction().execute(async (trx) => {
    const installment = await installmentOf(trx, scope, generation, nrApolice, numero);
    await lockInstallment(trx, installment.id);
    assertOpen(installment);
    if (installmentStatus(installment.status, installment.vencimento, today) !== 'VENCIDA') throw conflict(MESSAGES.notOverdue);
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

/** What a payment notice did (decision 059). Amounts in cents. */
export interface PaymentOutcome {
  situacao: ReceiptSituation;
  /** Whether the installment is paid, by this receipt or before it. */
  paid: boolean;
  nrApolice: string | null;
  numero: number | null;
  /** Received. */
  valor: number;
  /** What the installment cost on the day received; null when nothing was due (a closed installment, an unknown code). */
  devido: number | null;
  /** The part that went to the installment, and the part the insurer owes back. */
  aplicado: number;
  credito: number;
  /** The same notice as one recorded before: nothing new was recorded. */
  repeated: boolean;
}

export interface PaymentNotice {
  /** A linha digitável or a Pix "copia e cola". */
  code: string;
  /** The bank's identifier of the payment ('banco:…', 'demo:…'). */
  externalId: string;
  origem: 'WEBHOOK' | 'BANCO_DEMO';
  /** Received, in cents. The demo bank may leave it out: then what is still owed on the day. */
  valor?: number;
  /**
   * The demo bank only: the payer pays a slip that already paid its installment — what a bank lets
   * through when a customer pays the same boleto twice — so a duplicate can be shown (decision 074).
   * Blank amount: what paid it.
   */
  paidAgain?: boolean;
}

/** Serialises the notices that carry one bank id, so two at once can never both record it. */
const lockExternalId = (trx: DB, externalId: string) => sql`select pg_advisory_xact_lock(hashtext(${externalId}))`.execute(trx);

const reusedId = (externalId: string) =>
  conflict(
    `O pagamento ${externalId.replace(/^banco:/, '')} já foi registrado com outro código ou valor: cada pagamento precisa de um id próprio.`,
    { id: ['Este id já identifica outro pagamento.'] },
  );

/** The outcome of a notice recorded before, as it was recorded. */
async function recordedOutcome(trx: DB, receiptId: number): Promise<PaymentOutcome> {
  const row = await trx
    .selectFrom('receipts as r')
    .leftJoin('installments as i', 'i.id', 'r.installment_id')
    .leftJoin('policies as a', 'a.id', 'i.policy_id')
    .select(['r.situacao', 'r.valor', 'r.devido', 'r.aplicado', 'r.credito', 'i.status', 'i.numero', 'a.nr_apolice'])
    .where('r.id', '=', receiptId)
    .executeTakeFirstOrThrow();
  return {
    situacao: row.situacao,
    paid: row.status === 'PAGA',
    nrApolice: row.nr_apolice,
    numero: row.numero,
    valor: row.valor,
    devido: row.devido,
    aplicado: row.aplicado,
    credito: row.credito,
    repeated: true,
  };
}

/**
 * Records an amount received for the charge a linha digitável or a Pix "copia e cola" names, and
 * what it did (decision 059): every confirmed amount is a receipt; the installment is paid once the
 * receipts cover what it costs that day (its charge's total, or fine and interest after its due day),
 * a smaller amount leaves it open, and a duplicate, an excess or a payment of a closed installment is
 * recorded as a credit the insurer owes back.
 *
 * The bank's confirmation (WEBHOOK) reports money already received: it is recorded whatever the code
 * or the installment's state, and the same id again answers what was recorded (a different code or
 * amount under that id is a 409). The demo bank (BANCO_DEMO) plays the payer's bank, which refuses
 * before any money moves an unknown code, a replaced slip, an expired Pix and a closed installment.
 */
export async function payCharge(db: DB, input: PaymentNotice, now: Date): Promise<PaymentOutcome> {
  // A code copied from the boleto PDF arrives broken over lines: line breaks are never part of one.
  const code = input.code.replace(/[\r\n]+/g, '').trim();
  const digits = code.replace(/[\s.]/g, '');
  const isLine = /^\d{47}$/.test(digits);
  const txid = isLine ? undefined : /05\d\d(PORTAL\d{10})/.exec(code)?.[1];
  const demo = input.origem === 'BANCO_DEMO';
  return db.transaction().execute(async (trx) => {
    await lockExternalId(trx, input.externalId);
    const charge =
      isLine || txid
        ? await trx
            .selectFrom('charges as c')
            .innerJoin('installments as i', 'i.id', 'c.installment_id')
            .innerJoin('policies as a', 'a.id', 'i.policy_id')
            .select([
              'c.id',
              'c.status',
              'c.valor',
              'c.total',
              'c.vencimento',
              'c.installment_id',
              'i.numero',
              'a.id as policy_id',
              'a.nr_apolice',
              'a.documento_segurado',
            ])
            .$if(isLine, (qb) => qb.where('c.linha_digitavel', '=', digits))
            .$if(!isLine, (qb) => qb.where('c.pix_txid', '=', txid!).where('c.pix_copia_e_cola', '=', code))
            .executeTakeFirst()
        : undefined;
    if (!charge && demo) throw notFound(MESSAGES.unknownCode);
    const existing = await trx
      .selectFrom('receipts')
      .select(['id', 'charge_id', 'codigo', 'valor'])
      .where('external_id', '=', input.externalId)
      .executeTakeFirst();
    if (existing) {
      const same =
        existing.charge_id === (charge?.id ?? null) && (charge !== undefined || existing.codigo === code) && existing.valor === input.valor;
      if (!same) throw reusedId(input.externalId);
      return recordedOutcome(trx, existing.id);
    }
    const meio = isLine ? ('BOLETO' as const) : ('PIX' as const);
    const base = { external_id: input.externalId, codigo: code, origem: input.origem, recebido_em: now, created_at: now };
    if (!charge) {
      const valor = input.valor!;
      const split = splitReceipt(valor, undefined);
      await trx
        .insertInto('receipts')
        .values({ ...base, charge_id: null, installment_id: null, meio: null, valor, devido: null, ...receiptParts(split) })
        .execute();
      return { ...split, paid: false, nrApolice: null, numero: null, valor, devido: null, repeated: false };
    }

    // The policy's key share before the installment's lock: a credit's refund references the policy,
    // and a cancellation locks the policy, then its open installments — taken in that order here too,
    // a payment and a cancellation of one policy wait on each other without deadlocking.
    await sql`select id from policies where id = ${charge.policy_id} for key share`.execute(trx);
    await lockInstallment(trx, charge.installment_id);
    const installment = await trx
      .selectFrom('installments as i')
      .select([
        'i.status',
        'i.valor',
        'i.vencimento',
        (eb) =>
          eb
            .selectFrom('receipts as r')
            .select(sql<number>`coalesce(sum(r.aplicado), 0)::int`.as('received'))
            .whereRef('r.installment_id', '=', 'i.id')
            .as('received'),
      ])
      .where('i.id', '=', charge.installment_id)
      .executeTakeFirstOrThrow();
    const open = installment.status === 'ABERTA';
    const today = brasiliaDay(now);
    // The slip that paid its installment, paid again (the demo bank, when asked): a duplicate.
    const again = demo && input.paidAgain === true && installment.status === 'PAGA' && charge.status === 'PAGA';
    if (demo && !again) {
      if (!open) throw conflict(MESSAGES.closed);
      if (charge.status === 'SUBSTITUIDA') throw conflict(MESSAGES.replaced);
      if (charge.status !== 'ATIVA') throw conflict(MESSAGES.closed);
      // A Pix is due on its charge's day; a boleto may still be paid late (the bank charges the rest).
      if (!isLine && charge.vencimento < today) throw conflict(MESSAGES.expired);
    }
    const due = amountDue(installment, charge, today);
    const received = installment.received ?? 0;
    const valor = input.valor ?? (again ? received : Math.max(due - received, 1));
    const split = splitReceipt(valor, { open, due, received });
    const devido = open ? due : null;
    const receipt = await trx
      .insertInto('receipts')
      .values({ ...base, charge_id: charge.id, installment_id: charge.installment_id, meio, valor, devido, ...receiptParts(split) })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Whatever came above what was owed goes back to the insured through the refunds queue (decision 074).
    if (split.credito > 0)
      await refundReceiptCredit(
        trx,
        { id: receipt.id, policyId: charge.policy_id, insuredDocument: charge.documento_segurado, credito: split.credito },
        now,
      );
    if (split.paid) {
      await trx
        .insertInto('payments')
        .values({
          installment_id: charge.installment_id,
          charge_id: charge.id,
          external_id: input.externalId,
          meio,
          origem: input.origem,
          // What the installment was paid with: what it cost that day (a 2ª via's fine and interest included).
          valor: received + split.aplicado,
          pago_em: now,
          created_at: now,
        })
        .execute();
      await trx.updateTable('charges').set({ status: 'PAGA' }).where('id', '=', charge.id).execute();
      // A paid installment has nothing left to pay: a 2ª via still out stops being payable.
      await trx
        .updateTable('charges')
        .set({ status: 'CANCELADA' })
        .where('installment_id', '=', charge.installment_id)
        .where('status', '=', 'ATIVA')
        .execute();
      await trx.updateTable('installments').set({ status: 'PAGA', paga_em: now }).where('id', '=', charge.installment_id).execute();
    }
    return {
      ...split,
      paid: split.paid || installment.status === 'PAGA',
      nrApolice: charge.nr_apolice,
      numero: charge.numero,
      valor,
      devido,
      repeated: false,
    };
  });
}

const receiptParts = (split: ReceiptSplit) => ({ situacao: split.situacao, aplicado: split.aplicado, credito: split.credito });

/**
 * The charge a message to the insured points at (issue 31), inside the caller's transaction: the
 * active charge of an open installment (made now if there is none) while it is payable today; for
 * an overdue one with nothing payable, a 2ª via due `secondCopyDue` with the contract's fine and
 * interest — asked for by `userId` (the policy page's send) or by nobody (the reminders job, user_id
 * null, as the first charge) — `issued` says it was made now. While that 2ª via is payable, a later
 * message points at it again: one 2ª via however often the installment is sent. Undefined when the
 * installment is no longer open, or is overdue and no 2ª via was asked for.
 */
export async function chargeForInsured(
  trx: DB,
  installmentId: number,
  today: string,
  secondCopyDue?: string,
  /** Who asked for the 2ª via (the policy page's send); null for the reminders job. */
  userId: number | null = null,
): Promise<(ChargeView & { issued: boolean }) | undefined> {
  await lockInstallment(trx, installmentId);
  const installment = await trx
    .selectFrom('installments as i')
    .innerJoin('policies as a', 'a.id', 'i.policy_id')
    .select(['i.id', 'i.valor', 'i.vencimento', 'i.numero', 'i.status', 'a.nr_apolice', 'a.forma_pagamento'])
    .where('i.id', '=', installmentId)
    .executeTakeFirst();
  if (installment?.status !== 'ABERTA' || !CHARGED_METHODS.includes(installment.forma_pagamento)) return undefined;
  const active = await activeCharge(trx, installment);
  if (isPayableOn(active, today)) return { ...active, issued: false };
  if (!secondCopyDue) return undefined;
  await trx.updateTable('charges').set({ status: 'SUBSTITUIDA' }).where('id', '=', active.id).execute();
  const late = lateAmount(installment.valor, installment.vencimento, secondCopyDue);
  const amounts = { valor: installment.valor, multa: late.fine, juros: late.interest, total: late.total };
  return { ...view(await writeCharge(trx, installment, amounts, secondCopyDue, userId)), issued: true };
}
