import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/server/api';
import { openStreams } from '../../src/server/api/live-worklist';
import { changesSettled, type DB } from '../../src/server/db';
import { config } from '../../src/server/config';
import { freshDatabase } from '../fixtures/db';
import { apiClient, demoTokens } from '../fixtures/api';

/**
 * Issue 42 item 4: the live worklist's per-user cap at its default (LIVE_MAX_PER_USER = 5). A negative
 * `slice` made it 3 — a fourth page of the same user ended two others. Five streams of one user live
 * together; a sixth ends exactly the oldest, told why. Through the real router and database.
 */
delete process.env.LIVE_MAX_PER_USER;

const BFF = '/api/bff/v1/pendencias/eventos';
let db: DB;
let close: () => Promise<void>;
let as: ReturnType<typeof demoTokens>;

beforeAll(async () => {
  ({ db, close } = await freshDatabase({ afterSaleDemo: false }));
  as = demoTokens(apiClient(db));
}, 120_000);
afterAll(() => close());

/** A stream opened through the router: its first count, the named events it was sent and whether it ended. */
async function open(headers: Record<string, string>) {
  await changesSettled(db);
  const abort = new AbortController();
  const response = await api.handle(new Request(`http://portal.test${BFF}`, { headers, signal: abort.signal }), {
    ip: '10.0.0.1',
    db: async () => db,
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const state = { text: '', done: false };
  const pump = (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) {
        state.done = true;
        return;
      }
      state.text += decoder.decode(chunk.value, { stream: true });
    }
  })();
  const until = async (ready: () => boolean) => {
    const end = Date.now() + 4_000;
    while (!ready() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    return ready();
  };
  // Admitted and counted: its first `{ novos }` came.
  expect(await until(() => state.text.includes('data: {"novos"'))).toBe(true);
  return {
    get done() {
      return state.done;
    },
    named: () => [...state.text.matchAll(/^event: (.+)$/gm)].map((m) => m[1]),
    ended: () => until(() => state.done),
    async close() {
      abort.abort();
      await reader.cancel().catch(() => {});
      await pump;
    },
  };
}

describe('the live worklist’s streams per user', () => {
  it('five live together; a sixth ends exactly the oldest, told why', async () => {
    expect(config().LIVE_MAX_PER_USER).toBe(5);
    const headers = await as('parceiro@parceiro.demo');
    const before = openStreams();
    const streams: Awaited<ReturnType<typeof open>>[] = [];
    try {
      for (let i = 0; i < 5; i++) {
        streams.push(await open(headers));
        // A short moment for an ending the new stream might have caused to arrive.
        await new Promise((r) => setTimeout(r, 100));
        expect(streams.map((s) => s.done)).toEqual(streams.map(() => false));
        expect(openStreams()).toBe(before + i + 1);
      }
      const sixth = await open(headers);
      streams.push(sixth);
      expect(await streams[0]!.ended()).toBe(true);
      expect(streams[0]!.named()).toEqual(['substituida']);
      await new Promise((r) => setTimeout(r, 100));
      for (const alive of streams.slice(1)) {
        expect(alive.done).toBe(false);
        expect(alive.named()).toEqual([]);
      }
      expect(openStreams()).toBe(before + 5);
    } finally {
      for (const stream of streams) await stream.close();
    }
    expect(openStreams()).toBe(before);
  });
});
