import { describe, expect, it } from 'vitest';
import {
  limitsSummary,
  quotaProblem,
  removalProblem,
  secondsToNextDay,
  UPLOAD_LIMITS,
  usageSummary,
  type UploadUsage,
} from './document-limits';

const MB = 1024 * 1024;
const NOW = new Date('2026-11-27T13:00:00Z'); // 10:00 in Brasília
const FREE: UploadUsage = { portalActive: 0, userActive: 0, userDay: { files: 0, bytes: 0 }, proposal: { files: 0, bytes: 0 } };
const using = (patch: Partial<UploadUsage>): UploadUsage => ({ ...FREE, ...patch });

describe('quotaProblem, the limits as a table', () => {
  it.each<[string, UploadUsage, number, number | undefined, string | undefined]>([
    ['nothing used: a 10 MB file starts', FREE, 10 * MB, undefined, undefined],
    ['one upload under way of two allowed', using({ userActive: 1 }), MB, undefined, undefined],
    ['two under way: the third waits', using({ userActive: 2 }), MB, 429, '2 envios em andamento'],
    ['29 documents on the proposal: the 30th goes', using({ proposal: { files: 29, bytes: MB } }), MB, undefined, undefined],
    ['30 documents: the proposal is full', using({ proposal: { files: 30, bytes: MB } }), MB, 413, '30 documentos, o limite por proposta'],
    ['145 MB on the proposal and 6 MB more', using({ proposal: { files: 20, bytes: 145 * MB } }), 6 * MB, 413, 'passariam de 150 MB'],
    [
      '145 MB on the proposal and 5 MB more: exactly the limit',
      using({ proposal: { files: 20, bytes: 145 * MB } }),
      5 * MB,
      undefined,
      undefined,
    ],
    ['100 files today', using({ userDay: { files: 100, bytes: 0 } }), MB, 429, 'limite de 100 arquivos enviados por dia'],
    ['495 MB today and 10 MB more', using({ userDay: { files: 50, bytes: 495 * MB } }), 10 * MB, 429, 'limite de 500 MB enviados por dia'],
    ['20 uploads under way in the portal', using({ portalActive: 20 }), MB, 503, 'muitos arquivos neste momento'],
  ])('%s', (_, usage, bytes, status, message) => {
    const refusal = quotaProblem(usage, bytes, NOW);
    expect(refusal?.status).toBe(status);
    if (message) expect(refusal?.message).toContain(message);
  });

  it('tells a user over a daily limit to come back at midnight in Brasília', () => {
    expect(quotaProblem(using({ userDay: { files: 100, bytes: 0 } }), 1, NOW)?.retryAfterSeconds).toBe(14 * 3600);
    expect(secondsToNextDay(new Date('2026-11-28T02:59:59Z'))).toBe(1);
    expect(quotaProblem(using({ userActive: 2 }), 1, NOW)?.retryAfterSeconds).toBe(30);
  });

  it('judges the user’s pace before the proposal’s room', () => {
    expect(quotaProblem(using({ userActive: 2, proposal: { files: 30, bytes: 0 } }), 1, NOW)?.status).toBe(429);
  });

  it('states the limits and their use in pt-BR', () => {
    expect(limitsSummary()).toBe(
      'Até 10 MB por arquivo; até 30 documentos (150 MB) por proposta; até 100 arquivos (500 MB) enviados por você por dia.',
    );
    expect(usageSummary({ proposal: { files: 3, bytes: 2.5 * MB }, userDay: { files: 5, bytes: 12 * MB } })).toBe(
      'Esta proposta tem 3 de 30 documentos (2,5 MB); hoje você enviou 5 de 100 arquivos (12 MB de 500 MB).',
    );
    expect(UPLOAD_LIMITS.fileBytes).toBe(10 * MB);
  });
});

describe('removalProblem', () => {
  it.each<[string, number, 'EM_ANALISE' | 'AGUARDANDO_DOCUMENTOS' | 'ACEITA' | 'RECUSADA', 'forbidden' | 'conflict' | undefined]>([
    ['the sender, while in analysis', 7, 'EM_ANALISE', undefined],
    ['the sender, while documents are awaited', 7, 'AGUARDANDO_DOCUMENTOS', undefined],
    ['the sender, once accepted', 7, 'ACEITA', 'conflict'],
    ['the sender, once refused', 7, 'RECUSADA', 'conflict'],
    ['someone else who sees it', 8, 'EM_ANALISE', 'forbidden'],
  ])('%s', (_, viewer, proposalStatus, kind) => {
    expect(removalProblem({ senderId: 7, proposalStatus }, viewer)?.kind).toBe(kind);
  });
});
