import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { fakeSmtpServer } from '../fixtures/smtp';
import { sellResidential } from '../fixtures/selling';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import { deliverQueued } from '../../src/server/mail/outbox';
import { useManualClock } from '../../src/server/clock';
import { POLICY_LINK_DAYS, policyOfLink } from '../../src/server/services/after-sale/policy-notices';

/**
 * Issue 13: issuing a policy tells its seller and its insured. The messages are written with the
 * policy (same transaction) and sent afterwards by the delivery job, once however many instances run
 * it; the insured's link opens the policy's PDF for POLICY_LINK_DAYS and the outbox keeps no token.
 */
let db: DB;
let close: () => Promise<void>;
let smtp: Awaited<ReturnType<typeof fakeSmtpServer>>;
let clock: ReturnType<typeof useManualClock>;

beforeAll(async () => {
  smtp = await fakeSmtpServer();
  process.env.SMTP_URL = smtp.url; // read once by the configuration, before the seed writes mail
  ({ db, close } = await freshDatabase());
  await deliverQueued(db); // the demo's notices, out of the way
  // The sale's day, not the calendar's: the insured's link expires POLICY_LINK_DAYS after SOLD_AT, and
  // the outbox sends no message whose link has expired — on the wall clock this file failed from
  // 23/12/2026 on.
  clock = useManualClock(SOLD_AT.getTime() + 3_600_000);
});
afterAll(async () => {
  clock.restore();
  await close();
  await smtp.close();
  delete process.env.SMTP_URL;
});

const SOLD_AT = new Date('2026-11-23T13:00:00-03:00');
const messagesTo = (address: string) =>
  db.selectFrom('emails').selectAll().where('to_address', '=', address).orderBy('id', 'desc').execute();

describe('a policy issued', () => {
  let nrApolice: string;
  let token: string;

  it('queues one notice to the seller and one to the insured, with the policy', async () => {
    const before = (await messagesTo(DEMO_INSURED.residencial.email)).length;
    ({ nrApolice } = (await sellResidential(db, { at: SOLD_AT })) as { nrApolice: string });
    const [insured, ...older] = await messagesTo(DEMO_INSURED.residencial.email);
    expect(older).toHaveLength(before);
    expect(insured).toMatchObject({ template: 'apolice-emitida-segurado', fila: true, sent_at: null });
    expect(insured!.subject).toContain(nrApolice);
    expect(insured!.text_body).toContain(`vale por ${POLICY_LINK_DAYS} dias`);
    const [seller] = await messagesTo('parceiro@parceiro.demo');
    expect(seller).toMatchObject({ template: 'apolice-emitida-vendedor', fila: true });
    expect(seller!.text_body).toContain(`/v2/apolices/${nrApolice}`);
  });

  it('sends them once, even when two instances run the job at the same moment', async () => {
    const counts = await Promise.all([deliverQueued(db), deliverQueued(db)]);
    expect(counts[0]! + counts[1]!).toBe(2);
    expect(await deliverQueued(db)).toBe(0);
    const sent = smtp.messages.filter((m) => m.includes(nrApolice));
    expect(sent).toHaveLength(2);
    const toInsured = sent.find((m) => m.includes(DEMO_INSURED.residencial.email))!;
    token = /apolice-digital\/([\w-]{43})/.exec(toInsured)?.[1] ?? '';
    expect(token).toHaveLength(43);
    const [row] = await messagesTo(DEMO_INSURED.residencial.email);
    expect(row!.sent_at).not.toBeNull();
    expect(row!.segredos).toBeNull();
    expect(`${row!.text_body}${row!.html_body}`).not.toContain(token);
    expect(JSON.stringify(await db.selectFrom('policy_links').selectAll().execute())).not.toContain(token);
  });

  it('the insured’s link opens the policy while it is valid, and nothing else', async () => {
    expect(await policyOfLink(db, token, SOLD_AT)).toMatchObject({ nrApolice });
    const lastDay = new Date(SOLD_AT.getTime() + (POLICY_LINK_DAYS * 24 - 1) * 3_600_000);
    expect(await policyOfLink(db, token, lastDay)).toMatchObject({ nrApolice });
    expect(await policyOfLink(db, token, new Date(SOLD_AT.getTime() + (POLICY_LINK_DAYS + 1) * 86_400_000))).toBeUndefined();
    expect(await policyOfLink(db, `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, SOLD_AT)).toBeUndefined();
    expect(await policyOfLink(db, "' or 1=1 --", SOLD_AT)).toBeUndefined();
  });
});
