import { describe, expect, it } from 'vitest';
import { UNDO_MESSAGES, undoPreviewLines } from './user-import-undo';

/** What an import's undo says it will do and did (issue 42): pt-BR agreement, and no line about nobody. */
describe('the undo’s counts', () => {
  it('the preview lists only what the undo does to somebody, each in agreement with its number', () => {
    expect(undoPreviewLines({ desativar: 0, restaurar: 1, manter: 0 })).toEqual([
      { action: 'restaurar', count: 1, text: 'usuário atualizado volta aos dados anteriores' },
    ]);
    expect(undoPreviewLines({ desativar: 2, restaurar: 0, manter: 1 }).map((l) => `${l.count} ${l.text}`)).toEqual([
      '2 usuários criados serão desativados',
      '1 usuário fica como está (veja o motivo)',
    ]);
    expect(undoPreviewLines({ desativar: 0, restaurar: 0, manter: 3 }).map((l) => `${l.count} ${l.text}`)).toEqual([
      '3 usuários ficam como estão (veja o motivo)',
    ]);
  });

  it('the notice after the undo and the log’s detail leave the zeros out', () => {
    expect(UNDO_MESSAGES.done('07/12/2026 10:00', 'Ana Ribeiro', { desativar: 0, restaurar: 1, manter: 0 })).toBe(
      'Importação desfeita em 07/12/2026 10:00 por Ana Ribeiro: 1 usuário restaurado.',
    );
    expect(UNDO_MESSAGES.done('07/12/2026 10:00', null, { desativar: 2, restaurar: 1, manter: 1 })).toBe(
      'Importação desfeita em 07/12/2026 10:00: 2 usuários desativados, 1 usuário restaurado e 1 usuário mantido como estava.',
    );
    expect(UNDO_MESSAGES.logDetail({ desativar: 1, restaurar: 0, manter: 2 })).toBe('1 criado desativado; 2 mantidos como estavam');
  });
});
