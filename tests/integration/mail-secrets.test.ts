import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient } from '../fixtures/api';
import { fakeSmtpServer } from '../fixtures/smtp';
import { deliverQueued } from '../../src/server/mail/outbox';

/**
 * With SMTP configured, a message that carries a secret (a reset link, a validation code) leaves by
 * SMTP with the secret in it, and the outbox keeps no readable copy of the secret afterwards.
 */
let db: DB;
let close: () => Promise<void>;
let smtp: Awaited<ReturnType<typeof fakeSmtpServer>>;

beforeAll(async () => {
  smtp = await fakeSmtpServer();
  // Read once by the server configuration, before anything sends mail (the seed does).
  process.env.SMTP_URL = smtp.url;
  ({ db, close } = await freshDatabase());
});
afterAll(async () => {
  await close();
  await smtp.close();
  delete process.env.SMTP_URL;
});

describe('outbox with SMTP', () => {
  it('sends the reset link by SMTP and redacts it from the outbox once sent', async () => {
    const answer = await apiClient(db)('POST', '/api/plataforma/v1/senha/esqueci', { body: { email: 'vendedor@legado.demo' } });
    expect(answer.status).toBe(200);
    await deliverQueued(db); // sent by the job, not within the request
    const sent = smtp.messages.find((m) => m.includes('vendedor@legado.demo') && m.includes('redefinir-senha'));
    const token = /redefinir-senha\?token=([\w-]+)/.exec(sent ?? '')?.[1];
    expect(token, sent).toMatch(/^[\w-]{40,}$/);

    const row = await db
      .selectFrom('emails')
      .selectAll()
      .where('to_address', '=', 'vendedor@legado.demo')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.sent_at).not.toBeNull();
    expect(row.segredos).toBeNull();
    expect(row.text_body).not.toContain(token);
    expect(row.html_body).not.toContain(token);
  });

  it('redacts the first-access code the seed sent, too', async () => {
    await deliverQueued(db);
    const row = await db.selectFrom('emails').selectAll().where('to_address', '=', 'novo.parceiro@parceiro.demo').executeTakeFirstOrThrow();
    expect(row.sent_at).not.toBeNull();
    expect(row.segredos).toBeNull();
    expect(row.text_body).not.toMatch(/Código de validação: \d{6}/);
    expect(smtp.messages.some((m) => /Código de validação: \d{6}/.test(m))).toBe(true);
  });
});
