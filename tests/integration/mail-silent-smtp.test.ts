import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient } from '../fixtures/api';
import { fakeSmtpServer } from '../fixtures/smtp';

/**
 * An SMTP server that accepts connections and never answers must not hold the forgot-password
 * request (nor tell, by a 30 s delay, that the e-mail has an account): mail leaves after the answer.
 */
let db: DB;
let close: () => Promise<void>;
let smtp: Awaited<ReturnType<typeof fakeSmtpServer>>;

beforeAll(async () => {
  smtp = await fakeSmtpServer({ silent: true });
  process.env.SMTP_URL = smtp.url;
  ({ db, close } = await freshDatabase());
});
afterAll(async () => {
  await smtp.close();
  await close();
  delete process.env.SMTP_URL;
});

describe('a silent SMTP server', () => {
  it('the answer for a registered e-mail comes as fast as for an unknown one', async () => {
    const call = apiClient(db);
    for (const email of ['vendedor@legado.demo', 'ninguem@exemplo.com.br']) {
      const started = performance.now();
      const answer = await call('POST', '/api/plataforma/v1/senha/esqueci', { body: { email } });
      expect(answer.status).toBe(200);
      expect(performance.now() - started, email).toBeLessThan(2_000);
    }
    const row = await db.selectFrom('emails').selectAll().where('to_address', '=', 'vendedor@legado.demo').executeTakeFirstOrThrow();
    expect(row.sent_at).toBeNull();
  });
});
