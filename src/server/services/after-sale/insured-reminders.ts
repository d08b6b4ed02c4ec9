import { sql } from 'kysely';
import type { DB } from '../../db';
import { addDays } from '../../../lib/calendar';
import { CHARGED_METHODS } from '../../../lib/charges';
import { brasiliaDay, formatIsoDate } from '../../../lib/format';
import {
  OVERDUE_SECOND_COPY_DAYS,
  reminderOutcome,
  reminderWindow,
  type ReminderKind,
  type ReminderOutcome,
} from '../../../lib/insured-messages';
import { formatBRL } from '../../../lib/products/money';
import { nudgeDelivery, queueEmail, secretSlot } from '../../mail/outbox';
import { chargeForInsured } from './charges';
import { createInsuredLink, hasOptedOut, insuredFacts } from './insured-links';

/*
 * The reminders the portal sends the insured on its own (issue 31; when each is due:
 * lib/insured-messages.ts REMINDER_RULES). A turn of the job reads, per kind, the installments or
 * policies whose reminder is due and not yet decided — an index range by date (migration 040), at
 * most TURN_LIMIT rows — and decides each in its own transaction: the row of insured_reminders
 * (unique per kind, target and due date) is inserted first, ON CONFLICT DO NOTHING, and the e-mail is
 * queued in the same transaction. Another instance deciding the same reminder waits on the key and
 * then finds it taken; a turn after a restart finds the row. One message, ever.
 */

/** Rows one turn decides at most per kind; the next turn (a minute later) goes on. */
export const TURN_LIMIT = 50;

interface Candidate {
  alvo: number;
  prazo: string;
  policyId: number;
}

/** The due, undecided reminders of a kind: an index range by date, the decided ones skipped by their key. */
async function candidates(db: DB, kind: ReminderKind, today: string, limit: number): Promise<Candidate[]> {
  const { first, last } = reminderWindow(kind, today);
  const undecided = (alvo: string, prazo: string) =>
    sql<boolean>`not exists (select 1 from insured_reminders r where r.tipo = ${kind} and r.alvo_id = ${sql.ref(alvo)} and r.prazo = ${sql.ref(prazo)})`;
  if (kind === 'FIM_VIGENCIA')
    return db
      .selectFrom('policies as a')
      .select(['a.id as alvo', 'a.fim_vigencia as prazo', 'a.id as policyId'])
      .where('a.status', '=', 'VIGENTE')
      .where('a.fim_vigencia', '>=', first)
      .where('a.fim_vigencia', '<=', last)
      .where(undecided('a.id', 'a.fim_vigencia'))
      .orderBy('a.fim_vigencia')
      .orderBy('a.id')
      .limit(limit)
      .execute();
  return db
    .selectFrom('installments as i')
    .innerJoin('policies as a', 'a.id', 'i.policy_id')
    .select(['i.id as alvo', 'i.vencimento as prazo', 'i.policy_id as policyId'])
    .where('i.status', '=', 'ABERTA')
    .where('i.vencimento', '>=', first)
    .where('i.vencimento', '<=', last)
    .where('a.status', '=', 'VIGENTE')
    .where('a.forma_pagamento', 'in', CHARGED_METHODS)
    .where(undecided('i.id', 'i.vencimento'))
    .orderBy('i.vencimento')
    .orderBy('i.id')
    .limit(limit)
    .execute();
}

/** Decides one reminder in its own transaction; answers what became of it, or undefined when another turn had it. */
async function decide(db: DB, kind: ReminderKind, c: Candidate, now: Date): Promise<ReminderOutcome | undefined> {
  const today = brasiliaDay(now);
  return db.transaction().execute(async (trx) => {
    const taken = await trx
      .insertInto('insured_reminders')
      .values({ tipo: kind, alvo_id: c.alvo, prazo: c.prazo, policy_id: c.policyId, resultado: 'ENCERRADO', created_at: now })
      .onConflict((oc) => oc.columns(['tipo', 'alvo_id', 'prazo']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!taken) return undefined;
    const facts = await insuredFacts(trx, c.policyId);
    const installment =
      kind === 'FIM_VIGENCIA'
        ? undefined
        : await trx
            .selectFrom('installments')
            .select(['id', 'numero', 'status', 'valor'])
            .where('id', '=', c.alvo)
            .executeTakeFirstOrThrow();
    const policy = await trx.selectFrom('policies').select('forma_pagamento').where('id', '=', c.policyId).executeTakeFirstOrThrow();
    let outcome = reminderOutcome(
      kind,
      {
        policyStatus: facts.policyStatus,
        installmentStatus: installment?.status ?? null,
        formaPagamento: policy.forma_pagamento,
        email: facts.insuredEmail,
        optedOut: await hasOptedOut(trx, { documento: facts.documento, email: facts.insuredEmail }),
      },
      CHARGED_METHODS,
    );
    if (outcome === 'ENVIADO') outcome = await queueReminder(trx, kind, c, facts, installment, now, today);
    await trx
      .updateTable('insured_reminders')
      .set({ resultado: outcome, email: facts.insuredEmail || null })
      .where('id', '=', taken.id)
      .execute();
    return outcome;
  });
}

type Facts = Awaited<ReturnType<typeof insuredFacts>>;

async function queueReminder(
  trx: DB,
  kind: ReminderKind,
  c: Candidate,
  facts: Facts,
  installment: { id: number; numero: number; valor: number } | undefined,
  now: Date,
  today: string,
): Promise<ReminderOutcome> {
  const target = { policyId: c.policyId, documento: facts.documento, email: facts.insuredEmail };
  const optOut = await createInsuredLink(trx, 'LEMBRETES', { ...target, installmentId: null }, now);
  if (kind === 'FIM_VIGENCIA') {
    await queueEmail(
      trx,
      facts.insuredEmail,
      'aviso-fim-vigencia',
      {
        nome: facts.nome,
        nrApolice: facts.nrApolice,
        produto: facts.produto,
        fimVigencia: facts.fimVigencia,
        parceiro: facts.parceiroComLoja,
        contato: facts.contato,
        descadastro: secretSlot('descadastro'),
      },
      { values: { descadastro: optOut.url }, expiresAt: optOut.expiresAt },
    );
    return 'ENVIADO';
  }
  const numero = installment!.numero;
  // The boleto reminder's charge is made when the insured opens the link; the overdue notice carries a 2ª via.
  const charge = kind === 'ATRASO' ? await chargeForInsured(trx, c.alvo, today, addDays(today, OVERDUE_SECOND_COPY_DAYS)) : undefined;
  if (kind === 'ATRASO' && !charge) return 'ENCERRADO';
  const boleto = await createInsuredLink(trx, 'BOLETO', { ...target, installmentId: c.alvo }, now);
  const secrets = { values: { link: boleto.url, descadastro: optOut.url }, expiresAt: boleto.expiresAt };
  const common = { nome: facts.nome, nrApolice: facts.nrApolice, produto: facts.produto, numero, validadeDias: boleto.days };
  const slots = { link: secretSlot('link'), descadastro: secretSlot('descadastro') };
  if (kind === 'BOLETO')
    await queueEmail(
      trx,
      facts.insuredEmail,
      'lembrete-vencimento',
      { ...common, ...slots, vencimento: formatIsoDate(c.prazo), valor: formatBRL(installment!.valor) },
      secrets,
    );
  else
    await queueEmail(
      trx,
      facts.insuredEmail,
      'aviso-atraso',
      {
        ...common,
        ...slots,
        vencimentoOriginal: formatIsoDate(c.prazo),
        vencimento: formatIsoDate(charge!.vencimento),
        valor: formatBRL(charge!.total),
        parceiro: facts.parceiro,
      },
      secrets,
    );
  return 'ENVIADO';
}

/**
 * One turn of the reminders' job: for each kind, the due and undecided reminders (at most TURN_LIMIT),
 * each decided once. Answers how many were decided per outcome.
 */
export async function queueDueReminders(db: DB, now: Date, limit = TURN_LIMIT): Promise<Record<ReminderOutcome, number>> {
  const today = brasiliaDay(now);
  const counts: Record<ReminderOutcome, number> = { ENVIADO: 0, SEM_EMAIL: 0, DESCADASTRADO: 0, ENCERRADO: 0 };
  for (const kind of ['BOLETO', 'ATRASO', 'FIM_VIGENCIA'] as const) {
    for (const candidate of await candidates(db, kind, today, limit)) {
      const outcome = await decide(db, kind, candidate, now);
      if (outcome) counts[outcome] += 1;
    }
  }
  if (counts.ENVIADO > 0) nudgeDelivery();
  return counts;
}
