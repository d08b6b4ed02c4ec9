import type { DB } from '../db';
import { config } from '../config';
import { renderTemplate, type TemplateName, TEMPLATES } from './templates';

/**
 * Every e-mail is written to the outbox table first; with SMTP_URL set it is then sent by SMTP and
 * marked sent (or its error kept). Without SMTP the demo mailbox page is the delivery.
 */
export async function sendEmail<K extends TemplateName>(
  db: DB, to: string, template: K, data: Parameters<(typeof TEMPLATES)[K]>[0],
): Promise<void> {
  const rendered = renderTemplate(template, data);
  const { id } = await db
    .insertInto('emails')
    .values({ to_address: to, template, subject: rendered.subject, text_body: rendered.text, html_body: rendered.html })
    .returning('id')
    .executeTakeFirstOrThrow();
  const smtpUrl = config().SMTP_URL;
  if (!smtpUrl) return;
  try {
    const nodemailer = await import('nodemailer');
    await nodemailer.default.createTransport(smtpUrl).sendMail({
      from: config().MAIL_FROM, to, subject: rendered.subject, text: rendered.text, html: rendered.html,
    });
    await db.updateTable('emails').set({ sent_at: new Date() }).where('id', '=', id).execute();
  } catch (error) {
    // The message stays in the outbox with its error; the user's request still succeeds.
    await db.updateTable('emails').set({ error: String((error as Error).message).slice(0, 500) }).where('id', '=', id).execute();
  }
}

export const listEmails = (db: DB, limit = 50) =>
  db.selectFrom('emails').selectAll().orderBy('id', 'desc').limit(limit).execute();

/** Absolute links in e-mails come from PUBLIC_URL, never from the request's Host header. */
export const publicUrl = (path: string): string =>
  new URL(path, config().PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 4321}`).toString();
