import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, demoTokens } from '../fixtures/api';
import { hostileText } from '../fixtures/hostile-text';
import { standInOneWindow } from '../fixtures/clock';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';

/**
 * The server side of the embedded issuance apps (issue 18, decision 054): the legacy session starts
 * the EMP, IP and VE simulators (the nrOferta the apps wait for), sells them through the same quote
 * calls, and reports a broken app to the log through a small, validated, rate-limited endpoint.
 */
let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;
let as: ReturnType<typeof demoTokens>;
beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  call = apiClient(db);
  as = demoTokens(call);
});
afterAll(() => close());

const P = '/api/plataforma/v1';

describe('POST /v1/simuladores/iniciar under the legacy session', () => {
  it.each([
    ['EMP', '0118'],
    ['IP', '0171'],
    ['VE', '1391'],
  ])('starts %s (group %s) for the legacy seller with an nrOferta', async (cdTipoSimulador, nrGrupoProduto) => {
    const { status, json } = await call('POST', `${P}/simuladores/iniciar`, {
      headers: await as('vendedor@legado.demo'),
      body: { cdTipoSimulador, nrGrupoProduto },
    });
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.resultado.nrOferta).toBeGreaterThan(0);
  });

  it('refuses a product the user may not sell (403) and a product group that is not the simulator’s (404)', async () => {
    const refused = await call('POST', `${P}/simuladores/iniciar`, {
      headers: await as('consultor@legado.demo'),
      body: { cdTipoSimulador: 'VE' },
    });
    expect(refused.status).toBe(403);
    const wrongGroup = await call('POST', `${P}/simuladores/iniciar`, {
      headers: await as('vendedor@legado.demo'),
      body: { cdTipoSimulador: 'VE', nrGrupoProduto: '0118' },
    });
    expect(wrongGroup.status).toBe(404);
    expect(wrongGroup.json.message).toMatch(/oferta/i);
  });

  it('the started offer sells through the legacy quote calls', async () => {
    const headers = await as('vendedor@legado.demo');
    const start = await call('POST', `${P}/simuladores/iniciar`, { headers, body: { cdTipoSimulador: 'VE', nrGrupoProduto: '1391' } });
    const created = await call('POST', `${P}/cotacoes`, {
      headers,
      body: {
        nrOferta: start.json.resultado.nrOferta,
        segurado: DEMO_INSURED.vida,
        respostas: { profissao: 'administrativa', fumante: false },
      },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    expect(created.json.resultado.cotacao).toMatchObject({ code: 'VE', generation: 'v1', etapa: 'planos' });
    const history = await call('GET', `${P}/cotacoes?numero=${created.json.resultado.cotacao.nrCotacao}`, { headers });
    expect(history.json.resultado.content[0].href).toMatch(/^\/emissao\/cotacao\/vida\/cotacao\/\d+\/planos\/editar$/);
  });
});

describe('POST /v1/aplicacoes/erros', () => {
  /** The report's log lines: one JSON object per line (server/log.ts, decision 061). */
  async function reportLines(mensagem: string) {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { status, json } = await call('POST', `${P}/aplicacoes/erros`, {
        headers: await as('admin@legado.demo'),
        body: { app: 'emissao-vida', status: 'SKIP_BECAUSE_BROKEN', mensagem },
      });
      expect(status).toBe(200);
      expect(json.resultado).toEqual({ registrado: true });
      return logged.mock.calls.map((args) => args.join(' ')).filter((line) => line.includes('aplicacao-embarcada'));
    } finally {
      logged.mockRestore();
    }
  }

  it('logs the app and message as one JSON line, answering only a receipt', async () => {
    const lines = await reportLines('falha\nlinha\u2028forjada\r');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({
      evento: 'aplicacao-embarcada',
      app: 'emissao-vida',
      status: 'SKIP_BECAUSE_BROKEN',
      usuario: expect.any(Number),
      mensagem: 'falha<U+000A>linha<U+2028>forjada', // trimmed: the ending CR goes
    });
  });

  // Issue 27 (14): U+202E reversed what a terminal showed, U+200B hid inside words, and a message could
  // take the shape of another report's line ("…: x [aplicacao-embarcada] app=… usuario=1: …").
  it('neither bidi controls nor zero-width characters reach the log, and a message never looks like a line', async () => {
    const forged = 'ok\u202Eatad\u200B [aplicacao-embarcada] app=emissao-cotacao status=MOUNTED usuario=1: "} {"evento":"login"}';
    const lines = await reportLines(forged);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/[\u202E\u200B\p{Cc}\p{Cf}]/u);
    const record = JSON.parse(lines[0]!);
    expect(Object.keys(record)).toEqual(['evento', 'app', 'status', 'usuario', 'mensagem']);
    expect(record.evento).toBe('aplicacao-embarcada');
    expect(record.mensagem).toBe(
      'ok<U+202E>atad<U+200B> [aplicacao-embarcada] app=emissao-cotacao status=MOUNTED usuario=1: "} {"evento":"login"}',
    );
  });

  it.each([
    [{ app: 'outra-app', mensagem: 'x' }, 'app'],
    [{ app: 'emissao-vida', mensagem: '' }, 'mensagem'],
    [{ app: 'emissao-vida', mensagem: 'x'.repeat(501) }, 'mensagem'],
    [{ app: 'emissao-vida' }, 'mensagem'],
    // Only single-spa's statuses: free text here would forge log lines.
    [{ app: 'emissao-vida', status: 'X\nFAKE usuario=1', mensagem: 'm' }, 'status'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const { status, json } = await call('POST', `${P}/aplicacoes/erros`, { headers: await as('admin@legado.demo'), body });
    expect(status).toBe(400);
    expect(Object.keys(json.erros).join()).toContain(field);
  });

  it('is the legacy session’s only (401 for v2 and anonymous)', async () => {
    const body = { app: 'emissao-vida', mensagem: 'x' };
    expect((await call('POST', `${P}/aplicacoes/erros`, { body })).status).toBe(401);
    expect((await call('POST', `${P}/aplicacoes/erros`, { headers: await as('parceiro@parceiro.demo'), body })).status).toBe(401);
  });

  it('never answers 5xx to random bodies, and stops a flood with 429', async () => {
    standInOneWindow(5 * 60_000);
    const headers = await as('suporte@legado.demo');
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({
            app: fc.constantFrom('emissao-vida', 'emissao-cotacao', 'x'),
            mensagem: hostileText(),
            status: fc.option(hostileText(), { nil: undefined }),
          }),
          fc.anything(),
        ),
        async (body) => {
          const { status } = await call('POST', `${P}/aplicacoes/erros`, { headers, rawBody: JSON.stringify(body) ?? '' });
          statuses.add(status);
          expect(status).toBeLessThan(500);
        },
      ),
      { numRuns: 120 },
    );
    // Only a valid report is logged and counted: 30 in five minutes per user, then 429.
    const answers: number[] = [];
    for (let i = 0; i < 31; i += 1) {
      answers.push((await call('POST', `${P}/aplicacoes/erros`, { headers, body: { app: 'emissao-vida', mensagem: `erro ${i}` } })).status);
    }
    expect(answers.at(-1)).toBe(429);
    expect(statuses.has(500)).toBe(false);
  }, 60_000);
});
