import { describe, expect, it, vi } from 'vitest';
import { createRouter, endpoint } from './router';
import type { DB } from '../db';

/**
 * An endpoint that fails unexpectedly answers 500 without its details, and its log line is one JSON
 * object (server/log.ts): the path and the error's message — which may quote what was sent — are
 * fields, with bidi and zero-width characters named (issue 27, decision 061).
 */
describe('the log line of an unexpected failure', () => {
  const router = createRouter('/api', {
    plataforma: [
      endpoint({
        method: 'GET',
        path: '/v1/falha/:nome',
        async handle() {
          throw new Error('valor inválido: "a\u202Eb\u200B"\n[api] GET /api/outra falhou: forjada');
        },
      }),
    ],
    bff: [],
    auth: [],
    gateway: [],
    pagamentos: [],
  });

  it('names the unseen characters and keeps a forged line inside its field', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const response = await router.handle(new Request('http://portal.test/api/plataforma/v1/falha/x%E2%80%AEy'), {
        ip: '10.0.0.1',
        db: async () => ({}) as DB,
      });
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ status: 500, message: 'Ocorreu um erro, tente novamente.' });
      expect(logged).toHaveBeenCalledTimes(1);
      const line = String(logged.mock.calls[0]![0]);
      expect(line).not.toMatch(/[\n\u202E\u200B]/);
      expect(JSON.parse(line)).toEqual({
        evento: 'api-falha',
        metodo: 'GET',
        caminho: '/api/plataforma/v1/falha/x%E2%80%AEy',
        erro: 'valor inválido: "a<U+202E>b<U+200B>"<U+000A>[api] GET /api/outra falhou: forjada',
      });
    } finally {
      logged.mockRestore();
    }
  });
});
