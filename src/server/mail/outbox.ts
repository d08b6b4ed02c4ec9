import { sql } from 'kysely';
import type { DB } from '../db';
import { config } from '../config';
import { likeContaining, pagedOf, type Paged } from '../../lib/list-query';
import type { MailboxFilters } from '../../lib/mailbox';
import { now } from '../clock';
import { withDeadline } from '../../lib/deadline';
import { renderTemplate, type TemplateName, type TEMPLATES } from './templates';
import { wakeLine } from '../wake';

/**
 * Every e-mail is written to the outbox table, and only the delivery job (deliverQueued, every 15 s
 * and at once when this process queues a message) sends it by SMTP when SMTP_URL is set. Without SMTP
 * the demo mailbox (/caixa-postal, administrators only) is the delivery and nothing leaves.
 *
 * A message's secrets (a reset link's token, a validation code) are not written into its bodies: the
 * bodies hold a placeholder per secret and the secrets sit in their own column, which is cleared —
 * the message redacted — once it was sent, or when the secret expires (docs/decisions/028-mailbox-and-secrets.md).
 *
 * Delivery (issue 30, migration 036), one message at a time:
 *   due      sent_at, falhou_em null; tentar_em <= now; no lease, or the lease ran out
 *   claimed  reservado_ate = now + LEASE_MS, tentativas + 1 (SKIP LOCKED: two instances never claim
 *            one message at once; a process that dies holding it lets it go when the lease ends)
 *   sent     sent_at set, secrets cleared, lease cleared
 *   waiting  a failure: error kept, tentar_em = now + backoff(tentativas), lease cleared → due again
 *   failed   falhou_em set: MAX_ATTEMPTS claims, its code expired unsent, or older than MAX_AGE_MS
 */

/** What a template receives in place of a secret; `fillSecrets` puts the secret (or a notice) back. */
export const secretSlot = (name: string) => `__segredo_${name}__`;
const REDACTED = '[removido: o código só é mostrado enquanto vale e até o e-mail ser enviado]';

export interface MessageSecrets {
  values: Record<string, string>;
  /** When the secrets stop being useful (the code's expiry): redacted then at the latest. */
  expiresAt: Date;
}

function fillSecrets(body: string, secrets: Record<string, string> | null): string {
  return body.replace(/__segredo_(\w+)__/g, (_, name: string) => secrets?.[name] ?? REDACTED);
}

/** Writes a message to the outbox, due at once: the delivery job sends it. */
async function writeMessage<K extends TemplateName>(
  db: DB,
  to: string,
  template: K,
  data: Parameters<(typeof TEMPLATES)[K]>[0],
  secrets: MessageSecrets | undefined,
): Promise<void> {
  const rendered = renderTemplate(template, data);
  const at = now();
  await db
    .insertInto('emails')
    .values({
      to_address: to,
      template,
      subject: rendered.subject,
      text_body: rendered.text,
      html_body: rendered.html,
      segredos: secrets ? JSON.stringify(secrets.values) : null,
      redigir_em: secrets?.expiresAt ?? null,
      fila: true,
      created_at: at,
      tentar_em: at,
    })
    .execute();
}

/**
 * Writes a message (its own statement, committed when it returns) and wakes this process's delivery
 * job: a reset link or a validation code leaves within moments, yet never inside the request — a
 * slow or silent SMTP server must not hold the answer, nor tell by its delay which e-mails have
 * accounts.
 */
export async function sendEmail<K extends TemplateName>(
  db: DB,
  to: string,
  template: K,
  data: Parameters<(typeof TEMPLATES)[K]>[0],
  secrets?: MessageSecrets,
): Promise<void> {
  await writeMessage(db, to, template, data, secrets);
  await redactExpired(db);
  // Inside a transaction the row is not visible yet: the job's next turn finds it.
  if (!db.isTransaction) nudgeDelivery();
}

/**
 * Writes a message inside the caller's transaction, to be sent once it commits: a policy's notices
 * exist exactly when the policy does. The job's next turn sends it; a caller for whom a person waits
 * wraps its transaction in `deliverAfter` (the job then runs once it committed).
 */
export async function queueEmail<K extends TemplateName>(
  trx: DB,
  to: string,
  template: K,
  data: Parameters<(typeof TEMPLATES)[K]>[0],
  secrets?: MessageSecrets,
): Promise<void> {
  await writeMessage(trx, to, template, data, secrets);
}

const mailQueued = wakeLine();

/** The delivery job of this process listens here (server/boot/jobs.ts); the answer stops listening. */
export const onMailQueued = mailQueued.listen;

/** Asks this process's delivery job for a turn now (after a commit that queued mail). */
export const nudgeDelivery = mailQueued.wake;

/** Waits for a transaction that may have queued mail, then wakes the delivery job (a person waits for it). */
export async function deliverAfter<T>(commit: Promise<T>): Promise<T> {
  const result = await commit;
  nudgeDelivery();
  return result;
}

/**
 * How long a claim holds a message. It must outlast one send — connection (10 s), greeting (10 s)
 * and the reply (20 s) add up to 40 s, and SEND_DEADLINE_MS cuts a send at 45 s — or another
 * instance would send it too; short, so a message claimed by a process that died waits little.
 */
export const LEASE_MS = 60_000;
const SEND_DEADLINE_MS = 45_000;
/** Attempts before giving up; the pauses between them double from 30 s up to an hour (about 3 h in all). */
export const MAX_ATTEMPTS = 10;
const FIRST_PAUSE_MS = 30_000;
const LONGEST_PAUSE_MS = 3_600_000;
/** A message not sent within a day (no SMTP then, every instance down) is given up, not sent late. */
export const MAX_AGE_MS = 86_400_000;
/** Messages one turn sends at most; the next turn goes on. */
const TURN_LIMIT = 100;

/** The pause after the `attempt`-th failure (1-based). */
export const retryPause = (attempt: number): number => Math.min(FIRST_PAUSE_MS * 2 ** (attempt - 1), LONGEST_PAUSE_MS);

export interface DeliveryHooks {
  /** Tests only: runs between the claim and the send (a test kills the process there). */
  afterClaim?: (id: number) => Promise<void>;
}

interface Claimed {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  segredos: Record<string, string> | null;
  redigir_em: Date | null;
  created_at: Date;
  tentativas: number;
}

/** Claims the next due message for this process (SKIP LOCKED: one claimant per message). */
async function claimNext(db: DB, at: Date): Promise<Claimed | undefined> {
  return db
    .updateTable('emails')
    .set((eb) => ({ reservado_ate: new Date(at.getTime() + LEASE_MS), tentativas: eb('tentativas', '+', 1) }))
    .where('id', '=', (eb) =>
      eb
        .selectFrom('emails')
        .select('id')
        .where('sent_at', 'is', null)
        .where('falhou_em', 'is', null)
        .where('tentar_em', '<=', at)
        // Every message is `fila` now; during a rolling deploy an older instance writes its own
        // messages with fila = false and sends them itself: not ours to send as well.
        .where('fila', '=', true)
        .where((w) => w.or([w('reservado_ate', 'is', null), w('reservado_ate', '<', at)]))
        .orderBy('tentar_em')
        .orderBy('id')
        .limit(1)
        .forUpdate()
        .skipLocked(),
    )
    .returning(['id', 'to_address', 'subject', 'text_body', 'html_body', 'segredos', 'redigir_em', 'created_at', 'tentativas'])
    .executeTakeFirst();
}

/**
 * The delivery job: claims the due messages one at a time and sends each by SMTP (each claim takes a
 * fresh lease, so a long queue never outlives its lease). Answers how many it sent.
 */
export async function deliverQueued(db: DB, hooks: DeliveryHooks = {}): Promise<number> {
  const smtpUrl = config().SMTP_URL;
  if (!smtpUrl) return 0;
  let sent = 0;
  for (let turn = 0; turn < TURN_LIMIT; turn++) {
    const message = await claimNext(db, now());
    if (!message) break;
    await hooks.afterClaim?.(message.id);
    if (await deliver(db, smtpUrl, message)) sent++;
  }
  return sent;
}

/** Why a claimed message is given up without being sent, if it is. */
function tooLate(message: Claimed, at: Date): string | undefined {
  if (message.tentativas > MAX_ATTEMPTS) return 'desistência: o processo parou durante a última tentativa';
  if (at.getTime() - message.created_at.getTime() > MAX_AGE_MS) return 'desistência: não enviado em um dia';
  // Its code expired before it left: a message whose link or code opens nothing is not sent.
  if (message.redigir_em && message.redigir_em <= at) return 'desistência: o código expirou antes do envio';
  return undefined;
}

/** Sends one claimed message and records the outcome; true when the SMTP server accepted it. */
async function deliver(db: DB, smtpUrl: string, message: Claimed): Promise<boolean> {
  const late = tooLate(message, now());
  if (late) {
    await recordFailure(db, message, late, true);
    return false;
  }
  try {
    await withDeadline(
      send(smtpUrl, message),
      SEND_DEADLINE_MS,
      () => new Error(`sem resposta do servidor SMTP em ${SEND_DEADLINE_MS / 1000} s`),
    );
  } catch (error) {
    await recordFailure(db, message, String((error as Error).message).slice(0, 500), message.tentativas >= MAX_ATTEMPTS);
    return false;
  }
  // Sent: the outbox keeps no secret of it. Written whoever holds the lease now — the message left.
  await db
    .updateTable('emails')
    .set({ sent_at: now(), segredos: null, reservado_ate: null })
    .where('id', '=', message.id)
    .where('sent_at', 'is', null)
    .execute();
  return true;
}

async function send(smtpUrl: string, message: Claimed): Promise<void> {
  const nodemailer = await import('nodemailer');
  // A server that accepts and then says nothing is given up on, not waited for forever.
  const transport = nodemailer.default.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  const from = config().MAIL_FROM;
  await transport.sendMail({
    from,
    to: message.to_address,
    subject: message.subject,
    text: fillSecrets(message.text_body, message.segredos),
    html: fillSecrets(message.html_body, message.segredos),
    // The same on every attempt: a receiver that saw it already may drop a second copy.
    messageId: messageIdOf(message, from),
  });
}

/** `<portal.{id}.{written at, ms}@{MAIL_FROM's domain}>`: one per outbox row, across databases too. */
export function messageIdOf(message: { id: number; created_at: Date }, from: string): string {
  const domain = /@([^\s>]+)>?\s*$/.exec(from)?.[1] ?? 'portal.invalid';
  return `<portal.${message.id}.${message.created_at.getTime()}@${domain}>`;
}

/**
 * A failed attempt: the error kept, the next one after a pause (or given up). Only while this claim
 * is still the message's last one — a process whose lease ran out does not undo another's claim.
 */
async function recordFailure(db: DB, message: Claimed, error: string, giveUp: boolean): Promise<void> {
  const at = now();
  await db
    .updateTable('emails')
    .set({
      error,
      reservado_ate: null,
      tentar_em: new Date(at.getTime() + retryPause(message.tentativas)),
      falhou_em: giveUp ? at : null,
    })
    .where('id', '=', message.id)
    .where('tentativas', '=', message.tentativas)
    .where('sent_at', 'is', null)
    .execute();
}

/** Clears the secrets of messages whose secrets expired. */
async function redactExpired(db: DB): Promise<void> {
  await db.updateTable('emails').set({ segredos: null }).where('segredos', 'is not', null).where('redigir_em', '<=', now()).execute();
}

/** Clears the secrets of every message to `to` (their codes were used or retired: they open nothing now). */
export async function redactMessagesTo(db: DB, to: string): Promise<void> {
  await db.updateTable('emails').set({ segredos: null }).where('to_address', '=', to).where('segredos', 'is not', null).execute();
}

/** The newest messages as their reader sees them: secrets filled in while they last. */
export async function listEmails(db: DB, limit = 50) {
  await redactExpired(db);
  const rows = await db.selectFrom('emails').selectAll().orderBy('id', 'desc').limit(limit).execute();
  return rows.map((row) => ({
    ...row,
    text_body: fillSecrets(row.text_body, row.segredos),
    html_body: fillSecrets(row.html_body, row.segredos),
  }));
}

/**
 * A page of the mailbox (1-based), newest first: messages whose recipient and subject contain what
 * was typed (case ignored), secrets filled in while they last.
 */
export async function pageOfEmails(db: DB, filters: MailboxFilters, page: number, pageSize: number): Promise<Paged<MailboxMessage>> {
  await redactExpired(db);
  let query = db.selectFrom('emails');
  if (filters.para) query = query.where('to_address', 'ilike', likeContaining(filters.para));
  if (filters.assunto) query = query.where('subject', 'ilike', likeContaining(filters.assunto));
  const [{ total }, rows] = await Promise.all([
    query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
    query
      .select(['id', 'to_address', 'subject', 'text_body', 'segredos', 'created_at'])
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
  ]);
  const content = rows.map((row) => ({
    id: row.id,
    to: row.to_address,
    subject: row.subject,
    text: fillSecrets(row.text_body, row.segredos),
    createdAt: row.created_at,
  }));
  return pagedOf(content, total, page, pageSize);
}

export interface MailboxMessage {
  id: number;
  to: string;
  subject: string;
  text: string;
  createdAt: Date;
}

/** Absolute links in e-mails come from PUBLIC_URL, never from the request's Host header. */
export const publicUrl = (path: string): string =>
  new URL(path, config().PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 4321}`).toString();
