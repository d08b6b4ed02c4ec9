import * as z from 'zod/mini';
import { addDays } from './calendar';
import { isPayableOn } from './charges';
import { EMAIL_MESSAGES, emailRule } from './email-field';
import { formatIsoDate } from './format';
import { normalizeEmail } from './validators';

/*
 * The insured kept informed (issue 31): the reminders the portal sends on its own, the links an
 * e-mail carries, and what the partner may send from the policy page. Every number here is data;
 * docs/decisions says why each is what it is.
 */

/**
 * The reminders, each queued once per (kind, installment or policy, due date or end of term) by the
 * job of server/boot/jobs.ts:
 *   BOLETO       the boleto and Pix of an open installment, `from` days before its due date until it:
 *                3 days, because a boleto paid on a Friday clears on the next business day (up to two
 *                with the bank's batch) — three days before lets a weekend pass and still be on time;
 *   ATRASO       an overdue installment with a 2ª via, from the day after the due date for `until`
 *                days (a job stopped for a week does not greet the insured with a month-old debt);
 *   FIM_VIGENCIA the policy about to end, 30 days before its last day (time to renew, SUSEP's usual
 *                notice period for a renewal offer), with the partner's contact.
 */
export const REMINDER_RULES = {
  BOLETO: { label: 'Lembrete de vencimento (boleto e Pix)', from: -3, until: 0 },
  ATRASO: { label: 'Aviso de parcela vencida (2ª via)', from: 1, until: 10 },
  FIM_VIGENCIA: { label: 'Aviso de fim de vigência', from: -30, until: 0 },
} as const satisfies Record<string, { label: string; from: number; until: number }>;

export type ReminderKind = keyof typeof REMINDER_RULES;
export const REMINDER_KINDS = Object.keys(REMINDER_RULES) as ReminderKind[];

/**
 * The due dates (or ends of term) whose reminder of this kind is due today: a window, not a day, so a
 * turn missed (every instance down) is made up while the reminder still helps. `term` between `first`
 * and `last` inclusive.
 */
export function reminderWindow(kind: ReminderKind, today: string): { first: string; last: string } {
  const rule = REMINDER_RULES[kind];
  // term + from <= today <= term + until  ⇔  today - until <= term <= today - from
  return { first: addDays(today, -rule.until), last: addDays(today, -rule.from) };
}

/** Is the reminder of `kind` for `term` due today (pure form of the window the job queries)? */
export function isReminderDue(kind: ReminderKind, term: string, today: string): boolean {
  const { first, last } = reminderWindow(kind, today);
  return term >= first && term <= last;
}

/** What the job knows of an installment or a policy when it decides (the query filters the same). */
export interface ReminderCandidate {
  policyStatus: 'VIGENTE' | 'CANCELADA';
  /** Null for FIM_VIGENCIA. */
  installmentStatus: 'ABERTA' | 'PAGA' | 'CANCELADA' | null;
  formaPagamento: string;
  email: string;
  optedOut: boolean;
}

export type ReminderOutcome = 'ENVIADO' | 'SEM_EMAIL' | 'DESCADASTRADO' | 'ENCERRADO';

/**
 * What becomes of a due reminder: sent, or kept as not sent and why (so it is decided once and never
 * looked at again). Paid or cancelled installments and cancelled policies are never reminded of; an
 * insured without e-mail cannot be; one who opted out is not.
 */
export function reminderOutcome(kind: ReminderKind, c: ReminderCandidate, chargedMethods: readonly string[]): ReminderOutcome {
  if (c.policyStatus !== 'VIGENTE') return 'ENCERRADO';
  if (kind !== 'FIM_VIGENCIA' && (c.installmentStatus !== 'ABERTA' || !chargedMethods.includes(c.formaPagamento))) return 'ENCERRADO';
  if (!c.email) return 'SEM_EMAIL';
  if (c.optedOut) return 'DESCADASTRADO';
  return 'ENVIADO';
}

// ─── Opt-out (LGPD) ──────────────────────────────────────────────────────────────────────────────

/**
 * The keys an insured's choice is stored under: their document (CPF/CNPJ digits) and their e-mail,
 * so it holds for every policy of the person and for every policy that writes to that address — not
 * for one policy only. A reminder is held back when either key opted out.
 */
export function optOutKeys(insured: { documento: string; email: string }): string[] {
  const keys: string[] = [];
  const digits = insured.documento.replace(/\D/g, '');
  if (digits) keys.push(`doc:${digits}`);
  const email = normalizeEmail(insured.email);
  if (email) keys.push(`email:${email}`);
  return keys;
}

/*
 * An opt-out stops the reminders only (the job's reminderOutcome): the notices the insurer owes the
 * insured — the policy issued, its endorsements and cancellations, a refund — go whatever the insured
 * chose (they are queued by their own services, which never ask), and so does what the partner sends
 * on the insured's request from the policy page.
 */

// ─── Links ───────────────────────────────────────────────────────────────────────────────────────

/** How long a public boleto link opens the installment's boleto and Pix (like the policy's link, decision 035). */
export const BOLETO_LINK_DAYS = 30;
/** How long the opt-out link of a reminder works: a year, so an old message still lets one opt out. */
export const OPT_OUT_LINK_DAYS = 365;

/** A token as the links carry it: 32 random bytes in base64url. */
export const isLinkToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/** The WhatsApp share link (wa.me with no number: the partner picks the contact in the app). */
export const whatsappHref = (text: string) => `https://wa.me/?text=${encodeURIComponent(text)}`;

// ─── Sending from the policy page ────────────────────────────────────────────────────────────────

/**
 * An overdue installment with nothing payable gets a 2ª via due this many days ahead when its boleto is
 * sent — by the overdue notice of the reminders job, or from the policy page's "Enviar ao segurado"
 * (issue 42 item 16) — with the contract's fine and interest up to that day.
 */
export const OVERDUE_SECOND_COPY_DAYS = 3;

/** What the policy page says of an overdue installment it offers to send: its 2ª via is issued with the message. */
export const overdueSendNote = (secondCopyDue: string) =>
  `Vencida: ao enviar, emitimos a 2ª via com vencimento em ${secondCopyDue}, com multa e juros até esse dia.`;

/** An installment the policy page offers to send: payable today, or overdue with what sending it does. */
export interface SendableInstallment {
  numero: number;
  /** Its charge's due day, dd/mm/aaaa (for an overdue one, the day it was due). */
  vencimento: string;
  /** Overdue: the 2ª via the send issues (overdueSendNote). */
  nota?: string;
}

/**
 * What the policy page's "Enviar ao segurado" offers, from the active charge of each open installment
 * the viewer may charge: the payable ones as they are, the overdue ones with the note of the 2ª via
 * their send issues (issue 42 item 16) — so no installment waits for a 2ª via issued by hand first.
 */
export function sendableInstallments(charges: Record<number, { vencimento: string }>, today: string): SendableInstallment[] {
  const note = overdueSendNote(formatIsoDate(addDays(today, OVERDUE_SECOND_COPY_DAYS)));
  return Object.entries(charges).map(([numero, charge]) => ({
    numero: Number(numero),
    vencimento: formatIsoDate(charge.vencimento),
    ...(isPayableOn(charge, today) ? {} : { nota: note }),
  }));
}

export const SEND_MESSAGES = {
  tipo: 'Escolha o que enviar.',
  numero: 'Parcela inválida.',
  noEmail: 'A apólice não tem e-mail do segurado: informe um endereço.',
  notCharged: 'Esta parcela não tem boleto em aberto para enviar.',
} as const;

/**
 * What the policy page sends: the policy, or the boleto and Pix of an open installment; to the
 * insured's e-mail on file (no address) or to another one typed. The island and the endpoint share it.
 */
export const insuredSendSchema = z.object({
  tipo: z.enum(['apolice', 'boleto'], { error: SEND_MESSAGES.tipo }),
  numero: z.optional(z.number({ error: SEND_MESSAGES.numero }).check(z.int(), z.minimum(1), z.maximum(99))),
  email: z.optional(
    z.pipe(
      z.string({ error: EMAIL_MESSAGES.invalid }).check(z.maxLength(254, EMAIL_MESSAGES.invalid)),
      z.pipe(z.transform(normalizeEmail), z.string().check(emailRule())),
    ),
  ),
});
export type InsuredSend = z.output<typeof insuredSendSchema>;

/** The WhatsApp link asks for the same thing, with no address. */
export const whatsappLinkSchema = z.object({
  tipo: insuredSendSchema.shape.tipo,
  numero: insuredSendSchema.shape.numero,
});

/**
 * Sends from the policy page are limited, in the database so every instance counts the same: a user
 * may send 30 an hour (a day's work, not a spam run), and one policy gets 10 an hour from anyone
 * (its insured's inbox is what is protected).
 */
export const SEND_LIMITS = {
  perUser: { name: 'envio-segurado-usuario', limit: 30, windowSeconds: 3600 },
  perPolicy: { name: 'envio-segurado-apolice', limit: 10, windowSeconds: 3600 },
} as const;

/** 'm*****a@exemplo.com.br': the page shows whose inbox it writes to without spelling it out. */
export function maskedEmail(email: string): string {
  const [user, domain] = email.split('@');
  if (!user || !domain) return '';
  return user.length <= 2 ? `${user[0]}***@${domain}` : `${user[0]}${'*'.repeat(Math.min(user.length - 2, 6))}${user.at(-1)}@${domain}`;
}
