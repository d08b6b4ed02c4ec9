import { describe, expect, it } from 'vitest';
import { DRAFT_MAX_AGE_MS, dropDraft, keepDraft, takeDraft, type DraftStorage } from './step-drafts';

const memory = (): DraftStorage & { items: Map<string, string> } => {
  const items = new Map<string, string>();
  return { items, getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v), removeItem: (k) => void items.delete(k) };
};

const ADDRESS = '/v2/simulador-residencial/cadastro/iniciar/1/3';

describe('step drafts', () => {
  it('restores the values kept at an address once, then forgets them', () => {
    const storage = memory();
    keepDraft(storage, ADDRESS, { nome: 'Maria da Silva', uf: 'SP' }, 1_000);
    expect(takeDraft(storage, '/v2/simulador-residencial/cadastro/202600001/editar', 1_000)).toBeUndefined();
    expect(takeDraft(storage, ADDRESS, 2_000)).toEqual({ nome: 'Maria da Silva', uf: 'SP' });
    expect(takeDraft(storage, ADDRESS, 2_000)).toBeUndefined();
    expect(storage.items.size).toBe(0);
  });

  it('drops a draft on request, and one too old to be the page the user just left', () => {
    const storage = memory();
    keepDraft(storage, ADDRESS, { nome: 'A' }, 0);
    dropDraft(storage, ADDRESS);
    expect(takeDraft(storage, ADDRESS, 0)).toBeUndefined();
    keepDraft(storage, ADDRESS, { nome: 'A' }, 0);
    expect(takeDraft(storage, ADDRESS, DRAFT_MAX_AGE_MS + 1)).toBeUndefined();
    expect(storage.items.size).toBe(0);
  });

  it('never writes a password, token or card field, at any depth', () => {
    const storage = memory();
    keepDraft(
      storage,
      ADDRESS,
      { nome: 'A', senha: 'Portal@2026', extra: [{ password: 'x', cartao: '4111', cvv: '1', ok: 1 }], token: 't' },
      0,
    );
    const written = [...storage.items.values()].join();
    expect(written).not.toMatch(/Portal@2026|4111|"t"/);
    expect(takeDraft(storage, ADDRESS, 0)).toEqual({ nome: 'A', extra: [{ ok: 1 }] });
  });

  it('survives a storage that refuses or holds garbage', () => {
    const refusing: DraftStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('full');
      },
      removeItem: () => undefined,
    };
    expect(() => keepDraft(refusing, ADDRESS, { a: 1 })).not.toThrow();
    expect(takeDraft(refusing, ADDRESS)).toBeUndefined();
    const storage = memory();
    storage.setItem(`portal:rascunho:${ADDRESS}`, '{not json');
    expect(takeDraft(storage, ADDRESS)).toBeUndefined();
  });
});
