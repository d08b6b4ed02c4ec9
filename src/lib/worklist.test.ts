import { describe, expect, it } from 'vitest';
import {
  bellLabel,
  countText,
  dayPhrase,
  REFUND_DEADLINE,
  groupItems,
  isNewItem,
  itemKey,
  mostUrgent,
  parseItemKey,
  shownOf,
  sortItems,
  windowsOf,
  WORKLIST_KINDS,
  WORKLIST_LINKS,
  type WorklistItem,
  type WorklistKind,
} from './worklist';

const item = (kind: WorklistKind, deadline: string, key = `${kind}:${deadline}`): WorklistItem => ({
  kind,
  key,
  what: kind,
  whose: [],
  deadline,
  deadlineText: '',
  since: '2026-11-01T00:00:00.000Z',
  href: '/',
  action: 'Abrir',
  isNew: true,
});

describe('item keys', () => {
  it('carry the kind, the record and the version, so a changed item is new again', () => {
    const a = itemKey('DOCUMENTOS', 7, new Date('2026-11-20T10:00:00Z'));
    const b = itemKey('DOCUMENTOS', 7, new Date('2026-11-25T10:00:00Z'));
    expect(a).toBe('DOCUMENTOS:7:1795168800000');
    expect(a).not.toBe(b);
  });

  it('are read back only when they are ours', () => {
    expect(parseItemKey('DOCUMENTOS:7:1763632800000')).toBe('DOCUMENTOS:7:1763632800000');
    for (const bad of ['', 'OUTRO:7:1', 'DOCUMENTOS:x:1', 'DOCUMENTOS:7', "DOCUMENTOS:7:1'; drop", 7, undefined])
      expect(parseItemKey(bad)).toBeUndefined();
  });
});

describe('deadlines in words', () => {
  it('counts calendar days from today, either way', () => {
    expect(dayPhrase('2026-11-28', '2026-11-28')).toBe('vence hoje (28/11/2026)');
    expect(dayPhrase('2026-11-29', '2026-11-28')).toBe('vence em 1 dia (29/11/2026)');
    expect(dayPhrase('2026-12-28', '2026-11-28', { future: 'termina', past: 'terminou' })).toBe('termina em 30 dias (28/12/2026)');
    expect(dayPhrase('2026-11-25', '2026-11-28')).toBe('venceu há 3 dias (25/11/2026)');
    // A refund's planned day (issue 42: "prevista para há 240 dias").
    const refund = REFUND_DEADLINE;
    expect(dayPhrase('2026-12-07', '2026-11-28', refund)).toBe('a pagar em 9 dias (07/12/2026)');
    expect(dayPhrase('2026-11-28', '2026-11-28', refund)).toBe('a pagar hoje (28/11/2026)');
    expect(dayPhrase('2026-04-02', '2026-11-28', refund)).toBe('atrasada há 240 dias (02/04/2026)');
  });
});

describe('order and groups', () => {
  it('puts the nearest deadline first within an action kind, the latest first within a notice kind', () => {
    expect(sortItems('RENOVACAO', [item('RENOVACAO', '2026-12-20'), item('RENOVACAO', '2026-12-01')]).map((i) => i.deadline)).toEqual([
      '2026-12-01',
      '2026-12-20',
    ]);
    expect(
      sortItems('RELATORIO', [item('RELATORIO', '2026-11-01T10:00:00.000Z'), item('RELATORIO', '2026-11-20T10:00:00.000Z')]).map(
        (i) => i.deadline,
      ),
    ).toEqual(['2026-11-20T10:00:00.000Z', '2026-11-01T10:00:00.000Z']);
  });

  it('orders the groups by their most urgent item, notices last, and leaves out empty kinds', () => {
    const groups = groupItems([
      item('RELATORIO', '2026-11-27T10:00:00.000Z'),
      item('RENOVACAO', '2026-12-20'),
      item('DOCUMENTOS', '2026-12-10T12:00:00.000Z'),
      item('PARCELA_VENCIDA', '2026-11-10'),
    ]);
    expect(groups.map((g) => g.kind)).toEqual(['PARCELA_VENCIDA', 'DOCUMENTOS', 'RENOVACAO', 'RELATORIO']);
    expect(groups[0]!.title).toBe(WORKLIST_KINDS.PARCELA_VENCIDA.title);
  });

  it('gives the home the most urgent actions, then the newest notices', () => {
    const groups = groupItems([
      item('RELATORIO', '2026-11-27T10:00:00.000Z'),
      item('RENOVACAO', '2026-12-20'),
      item('PARCELA_VENCIDA', '2026-11-10'),
    ]);
    expect(mostUrgent(groups, 2).map((i) => i.kind)).toEqual(['PARCELA_VENCIDA', 'RENOVACAO']);
    expect(mostUrgent(groups, 5).map((i) => i.kind)).toEqual(['PARCELA_VENCIDA', 'RENOVACAO', 'RELATORIO']);
  });
});

describe('new items', () => {
  const since = new Date('2026-11-20T10:00:00Z');
  it('is new until read one by one or marked all read after it happened', () => {
    expect(isNewItem(since, null, new Set(), 'k')).toBe(true);
    expect(isNewItem(since, null, new Set(['k']), 'k')).toBe(false);
    expect(isNewItem(since, new Date('2026-11-21T00:00:00Z'), new Set(), 'k')).toBe(false);
    expect(isNewItem(since, new Date('2026-11-19T00:00:00Z'), new Set(), 'k')).toBe(true);
  });
});

describe('the bell', () => {
  it('says how many are new, up to 99+', () => {
    expect(bellLabel(0)).toBe('Pendências: nenhuma nova');
    expect(bellLabel(1)).toBe('Pendências: 1 nova');
    expect(bellLabel(3)).toBe('Pendências: 3 novas');
    expect(bellLabel(100)).toBe('Pendências: 99+ novas');
    expect(countText(99)).toBe('99');
  });
});

describe('windows and links', () => {
  it('bounds each kind by Brasília days', () => {
    const w = windowsOf(new Date('2026-11-28T02:00:00Z')); // 27/11 23:00 in Brasília
    expect(w.today).toBe('2026-11-27');
    expect(w.renewalUntil).toBe('2027-01-26');
    expect(w.overdueFrom).toBe('2026-09-28');
  });

  it('links each generation to its own pages', () => {
    expect(WORKLIST_LINKS.renewal('v2', '123')).toBe('/v2/renovacoes/123');
    expect(WORKLIST_LINKS.renewal('v1', '123')).toBe('/renovacoes/123');
    expect(WORKLIST_LINKS.refunds('v1')).toBe('/restituicoes');
    expect(WORKLIST_LINKS.refunds('v2', '011420260000007')).toBe('/v2/restituicoes?nrApolice=011420260000007');
    expect(WORKLIST_LINKS.secondCopy('v2', '9')).toBe('/v2/boleto?nrApolice=9');
    expect(WORKLIST_LINKS.secondCopy('v1', '9')).toBe('/consulta-pagamento?nrApolice=9');
  });
});

describe('the whole worklist shows ten of a kind, its own page all', () => {
  const group = (n: number) =>
    groupItems(Array.from({ length: n }, (_, i) => item('DOCUMENTOS', `2026-12-${String(i + 1).padStart(2, '0')}`)))[0]!;
  it('cuts the whole worklist at ten, the soonest first, and says how many more', () => {
    const shown = shownOf(group(23), false);
    expect(shown.items.map((i) => i.deadline)).toEqual(
      group(23)
        .items.slice(0, 10)
        .map((i) => i.deadline),
    );
    expect(shown.more).toBe(13);
    expect(shownOf(group(10), false).more).toBe(0);
  });
  it('shows a kind’s page whole', () => {
    expect(shownOf(group(23), true)).toMatchObject({ more: 0 });
    expect(shownOf(group(23), true).items).toHaveLength(23);
  });
});
