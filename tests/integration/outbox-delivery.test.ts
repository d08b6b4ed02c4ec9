import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect, type DB } from '../../src/server/db';
import { openDatabase } from '../../src/server/boot/database';
import { useManualClock } from '../../src/server/clock';
import {
  deliverAfter,
  deliverQueued,
  LEASE_MS,
  MAX_ATTEMPTS,
  onMailQueued,
  queueEmail,
  retryPause,
  sendEmail,
} from '../../src/server/mail/outbox';
import { JOBS, startJobs } from '../../src/server/boot/jobs';
import { freshDatabase } from '../fixtures/db';
import { fakeSmtpServer } from '../fixtures/smtp';

/**
 * Issue 30: every e-mail leaves through the delivery job — claimed with a lease (SKIP LOCKED), tried
 * again after a growing pause, given up after MAX_ATTEMPTS, sent once per message even with two
 * workers, and sent once after a process died between claiming it and sending it.
 */
let db: DB;
let close: () => Promise<void>;
let url: string | undefined;
let smtp: Awaited<ReturnType<typeof fakeSmtpServer>>;
let clock: ReturnType<typeof useManualClock> | undefined;

beforeAll(async () => {
  smtp = await fakeSmtpServer();
  process.env.SMTP_URL = smtp.url; // read once by the configuration, before the seed writes mail
  ({ db, close, url } = await freshDatabase({ afterSaleDemo: false }));
  await deliverQueued(db); // the demo's own messages, out of the way
  smtp.messages.length = 0;
});
afterAll(async () => {
  await close();
  await smtp.close();
  delete process.env.SMTP_URL;
});
/** What a test opened outside the shared database, closed after it. */
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  clock?.restore();
  clock = undefined;
  smtp.failNext = 0;
});

let serial = 0;
/** Writes one message to a new address and answers its row id. */
async function queueOne(handle: DB = db, secrets?: Parameters<typeof sendEmail>[4]): Promise<{ id: number; to: string }> {
  const to = `pessoa${++serial}.${Date.now()}@exemplo.com.br`;
  await queueEmail(handle, to, 'senha-alterada', { nome: 'Pessoa', link: 'https://portal.exemplo/entrar' }, secrets);
  const { id } = await handle.selectFrom('emails').select('id').where('to_address', '=', to).executeTakeFirstOrThrow();
  return { id, to };
}
const rowOf = (id: number) => db.selectFrom('emails').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const copiesTo = (to: string) => smtp.messages.filter((m) => m.includes(`To: ${to}`));

describe('the delivery job', () => {
  it('tries a refused message again after 30 s, then 60 s, and sends it once with a Message-ID of its row', async () => {
    clock = useManualClock();
    const { id, to } = await queueOne();
    smtp.failNext = 2;

    expect(await deliverQueued(db)).toBe(0);
    let row = await rowOf(id);
    expect(row).toMatchObject({ tentativas: 1, sent_at: null, falhou_em: null, reservado_ate: null });
    expect(row.error).toContain('451');
    expect(row.tentar_em.getTime() - Date.now()).toBeGreaterThan(0);
    // Not due before its pause ends: nothing is claimed.
    clock.advance(retryPause(1) - 1_000);
    expect(await deliverQueued(db)).toBe(0);
    expect((await rowOf(id)).tentativas).toBe(1);

    clock.advance(1_000);
    expect(await deliverQueued(db)).toBe(0);
    row = await rowOf(id);
    expect(row.tentativas).toBe(2);
    expect(retryPause(2)).toBe(2 * retryPause(1));

    clock.advance(retryPause(2));
    expect(await deliverQueued(db)).toBe(1);
    row = await rowOf(id);
    expect(row.sent_at).not.toBeNull();
    expect(row).toMatchObject({ tentativas: 3, falhou_em: null, reservado_ate: null });
    expect(copiesTo(to)).toHaveLength(1);
    expect(copiesTo(to)[0]).toMatch(new RegExp(`Message-ID: <portal\\.${id}\\.\\d+@seguradora\\.demo>`, 'i'));
    expect(await deliverQueued(db)).toBe(0);
    expect(copiesTo(to)).toHaveLength(1);
  });

  it(`gives up after ${MAX_ATTEMPTS} refusals: failed, its last error kept, never claimed again`, async () => {
    clock = useManualClock();
    const { id, to } = await queueOne();
    smtp.failNext = 1_000;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect(await deliverQueued(db)).toBe(0);
      expect((await rowOf(id)).tentativas).toBe(attempt);
      clock.advance(retryPause(attempt));
    }
    const row = await rowOf(id);
    expect(row.falhou_em).not.toBeNull();
    expect(row.error).toContain('451');
    smtp.failNext = 0;
    clock.advance(24 * 3_600_000 - 1);
    expect(await deliverQueued(db)).toBe(0);
    expect((await rowOf(id)).tentativas).toBe(MAX_ATTEMPTS);
    expect(copiesTo(to)).toHaveLength(0);
  });

  it('does not send a code that expired while its message waited: given up, its secret gone', async () => {
    clock = useManualClock();
    const to = `codigo.${Date.now()}@exemplo.com.br`;
    await sendEmail(
      db,
      to,
      'senha-alterada',
      { nome: 'Pessoa', link: 'x' },
      { values: { token: 'segredo' }, expiresAt: new Date(Date.now() + 60_000) },
    );
    const { id } = await db.selectFrom('emails').select('id').where('to_address', '=', to).executeTakeFirstOrThrow();
    smtp.failNext = 1;
    expect(await deliverQueued(db)).toBe(0);
    clock.advance(retryPause(1) + 60_000);
    expect(await deliverQueued(db)).toBe(0);
    const row = await rowOf(id);
    expect(row.falhou_em).not.toBeNull();
    expect(row.error).toContain('expirou');
    expect(copiesTo(to)).toHaveLength(0);
  });

  it('a message written outside a transaction wakes the job at once; one queued in a transaction, once it committed', async () => {
    let woken = 0;
    const off = onMailQueued(() => {
      woken += 1;
    });
    try {
      await sendEmail(db, `acorda.${Date.now()}@exemplo.com.br`, 'senha-alterada', { nome: 'Pessoa', link: 'x' });
      expect(woken).toBe(1);
      await deliverAfter(
        db.transaction().execute(async (trx) => {
          await queueOne(trx);
          expect(woken).toBe(1); // not committed yet: nothing to send
        }),
      );
      expect(woken).toBe(2);
    } finally {
      off();
    }
    await deliverQueued(db);
  });

  it('the woken job sends a reset code within moments, not at its next 15 s turn', async () => {
    const delivery = JOBS.find((job) => job.wake)!;
    const stop = startJobs(db, [delivery], 60_000);
    try {
      const to = `rapido.${Date.now()}@exemplo.com.br`;
      const started = Date.now();
      await sendEmail(db, to, 'senha-alterada', { nome: 'Pessoa', link: 'x' });
      expect(copiesTo(to)).toHaveLength(0); // the request does not send
      while (copiesTo(to).length === 0 && Date.now() - started < 5_000) await new Promise((done) => setTimeout(done, 20));
      expect(copiesTo(to)).toHaveLength(1);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await stop();
    }
  });

  it('two workers at once send each message once', async () => {
    // Two handles on PostgreSQL (two pools, as two instances); PGlite has one connection per process.
    const other = url ? await connect({ databaseUrl: url }) : db;
    try {
      const queued = [];
      for (let index = 0; index < 12; index++) queued.push(await queueOne());
      const [a, b] = await Promise.all([deliverQueued(db), deliverQueued(other)]);
      expect(a + b).toBe(12);
      if (url) expect(Math.min(a, b)).toBeGreaterThan(0); // both took part
      for (const { to } of queued) expect(copiesTo(to), to).toHaveLength(1);
      const ids = smtp.messages.map((m) => /Message-ID: (<[^>]+>)/i.exec(m)?.[1]);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      if (other !== db) await other.destroy();
    }
  });
});

const NODE = existsSync(resolve('node_modules/node/bin/node')) ? resolve('node_modules/node/bin/node') : process.execPath;

/** Runs the claiming child (tests/fixtures/outbox-claim-child.mjs) and kills it -9 once it has claimed. */
async function claimAndDie(env: Record<string, string>): Promise<number> {
  const child = spawn(NODE, [resolve('tests/fixtures/outbox-claim-child.mjs')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | number | null>((done) => child.on('exit', (code, signal) => done(signal ?? code)));
  const claimed = await new Promise<number>((done, fail) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /reservado (\d+)/.exec(output);
      if (match) done(Number(match[1]));
    });
    void exited.then((how) => fail(new Error(`the child ended (${how}) without claiming: ${output}`)));
  });
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  return claimed;
}

describe('a process killed between claiming a message and sending it', () => {
  it.skipIf(!process.env.DATABASE_URL)('PostgreSQL: another process sends it once, after the lease', async () => {
    const { id, to } = await queueOne();
    expect(await claimAndDie({ DATABASE_URL: url! })).toBe(id);
    const row = await rowOf(id);
    expect(row).toMatchObject({ tentativas: 1, sent_at: null });
    expect(row.reservado_ate!.getTime()).toBeGreaterThan(Date.now());
    // The lease still holds: nobody sends it yet.
    expect(await deliverQueued(db)).toBe(0);
    clock = useManualClock(Date.now() + LEASE_MS + 1_000);
    expect(await deliverQueued(db)).toBe(1);
    expect(await deliverQueued(db)).toBe(0);
    expect(copiesTo(to)).toHaveLength(1);
    expect(await rowOf(id)).toMatchObject({ tentativas: 2, segredos: null, reservado_ate: null });
  });

  it.skipIf(Boolean(process.env.DATABASE_URL))('PGlite: the restarted process sends it once, after the lease', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-outbox-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const before = await openDatabase({ dataDir: dir, seed: false });
    const { id, to } = await queueOne(before);
    await before.destroy(); // the data dir is one process's at a time
    expect(await claimAndDie({ DATA_DIR: dir })).toBe(id);
    const restarted = await openDatabase({ dataDir: dir, seed: false });
    cleanups.unshift(() => restarted.destroy());
    const row = await restarted.selectFrom('emails').select(['tentativas', 'sent_at']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ tentativas: 1, sent_at: null });
    expect(await deliverQueued(restarted)).toBe(0); // the lease still holds
    clock = useManualClock(Date.now() + LEASE_MS + 1_000);
    expect(await deliverQueued(restarted)).toBe(1);
    expect(await deliverQueued(restarted)).toBe(0);
    expect(copiesTo(to)).toHaveLength(1);
  });
});
