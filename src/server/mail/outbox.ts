import { sql } from 'kysely';
import type { DB } from '../db';
import { config } from '../config';
import { likeContaining, pagedOf, type Paged } from '../../lib/list-query';
import type { MailboxFilters } from '../../lib/mailbox';
import { now } from '../clock';
import { renderTemplate, type TemplateName, type TEMPLATES } from './templates';

/**
 * Every e-mail is written to the outbox table first; with SMTP_URL set it is then sent by SMTP and
 * marked sent (or its error kept). Without SMTP the demo mailbox (/caixa-postal, administrators only)
 * is the delivery.
 *
 * A message's secrets (a reset link's token, a validation code) are not written into its bodies: the
 * bodies hold a placeholder per secret and the secrets sit in their own column, which is cleared —
 * the message redacted — once it was sent, or when the secret expires (docs/decisions/028-mailbox-and-secrets.md).
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

/** Writes a message to the outbox; `queued` ones wait for the delivery job (deliverQueued). */
async function writeMessage<K extends TemplateName>(
  db: DB,
  to: string,
  template: K,
  data: Parameters<(typeof TEMPLATES)[K]>[0],
  secrets: MessageSecrets | undefined,
  queued: boolean,
) {
  const rendered = renderTemplate(template, data);
  const { id } = await db
    .insertInto('emails')
    .values({
      to_address: to,
      template,
      subject: rendered.subject,
      text_body: rendered.text,
      html_body: rendered.html,
      segredos: secrets ? JSON.stringify(secrets.values) : null,
      redigir_em: secrets?.expiresAt ?? null,
      fila: queued,
      created_at: now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, rendered };
}

export async function sendEmail<K extends TemplateName>(
  db: DB,
  to: string,
  template: K,
  data: Parameters<(typeof TEMPLATES)[K]>[0],
  secrets?: MessageSecrets,
): Promise<void> {
  const { id, rendered } = await writeMessage(db, to, template, data, secrets, false);
  await redactExpired(db);
  const smtpUrl = config().SMTP_URL;
  if (!smtpUrl) return;
  // Delivered after the answer, not within it: a slow or silent SMTP server must not hold the
  // user's request, nor tell by its delay which e-mails have accounts.
  const delivery = deliver(db, smtpUrl, id, to, rendered, secrets?.values ?? null);
  deliveries.add(delivery);
  void delivery.finally(() => deliveries.delete(delivery));
}

/**
 * Writes a message inside the caller's transaction, to be sent once it commits: a policy's notices
 * exist exactly when the policy does. The delivery job sends it (without SMTP the mailbox shows it).
 */
export async function queueEmail<K extends TemplateName>(
  trx: DB,
  to: string,
  template: K,
  data: Parameters<(typeof TEMPLATES)[K]>[0],
  secrets?: MessageSecrets,
): Promise<void> {
  await writeMessage(trx, to, template, data, secrets, true);
}

/** How long one instance holds a queued message while it sends it (SMTP timeouts add up to 40 s). */
const LEASE_MS = 5 * 60_000;
const DELIVERY_BATCH = 20;

/**
 * The delivery job: sends the queued messages by SMTP. Each is leased with SKIP LOCKED before it is
 * sent, so several instances never send one twice; a failure keeps its error and is not retried.
 */
export async function deliverQueued(db: DB): Promise<number> {
  const smtpUrl = config().SMTP_URL;
  if (!smtpUrl) return 0;
  const at = now();
  const leased = await db
    .updateTable('emails')
    .set({ reservado_ate: new Date(at.getTime() + LEASE_MS) })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('emails')
        .select('id')
        .where('fila', '=', true)
        .where('sent_at', 'is', null)
        .where('error', 'is', null)
        .where((w) => w.or([w('reservado_ate', 'is', null), w('reservado_ate', '<', at)]))
        .orderBy('id')
        .limit(DELIVERY_BATCH)
        .forUpdate()
        .skipLocked(),
    )
    .returning(['id', 'to_address', 'subject', 'text_body', 'html_body', 'segredos'])
    .execute();
  for (const message of leased)
    await deliver(
      db,
      smtpUrl,
      message.id,
      message.to_address,
      { subject: message.subject, text: message.text_body, html: message.html_body },
      message.segredos,
    );
  return leased.length;
}

const deliveries = new Set<Promise<void>>();

/** Waits for the deliveries under way (graceful shutdown, tests). */
export async function settleDeliveries(): Promise<void> {
  await Promise.allSettled([...deliveries]);
}

async function deliver(
  db: DB,
  smtpUrl: string,
  id: number,
  to: string,
  rendered: { subject: string; text: string; html: string },
  values: Record<string, string> | null,
): Promise<void> {
  try {
    const nodemailer = await import('nodemailer');
    // A server that accepts and then says nothing is given up on, not waited for forever.
    const transport = nodemailer.default.createTransport({
      url: smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    await transport.sendMail({
      from: config().MAIL_FROM,
      to,
      subject: rendered.subject,
      text: fillSecrets(rendered.text, values),
      html: fillSecrets(rendered.html, values),
    });
    // Sent: the outbox keeps no secret of it.
    await db.updateTable('emails').set({ sent_at: now(), segredos: null }).where('id', '=', id).execute();
  } catch (error) {
    // The message stays in the outbox with its error (its secrets until they expire).
    await db
      .updateTable('emails')
      .set({ error: String((error as Error).message).slice(0, 500) })
      .where('id', '=', id)
      .execute()
      .catch(() => undefined);
  }
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
