import { describe, expect, it } from 'vitest';
import { HISTORY_MESSAGES, historyPageHref, maskDocument, parseHistoryQuery, withLegacyLine } from './history';

describe('parseHistoryQuery', () => {
  it('treats the blank fields an HTML form sends as no filter, on page 1', () => {
    const form = new URLSearchParams('de=&ate=&simulador=&status=&documento=&numero=');
    expect(parseHistoryQuery(form)).toEqual({ ok: true, filters: {}, page: 1 });
  });

  it('normalizes what the partner typed: code and status in any case, a masked CPF or CNPJ unmasked', () => {
    const parsed = parseHistoryQuery(
      new URLSearchParams({
        de: '2026-11-01',
        ate: '2026-11-30',
        simulador: 'res',
        status: 'vencida',
        documento: ' 111.444.777-35 ',
        numero: '2026000001',
        linha: 'VIDA',
        page: '3',
      }),
    );
    expect(parsed).toEqual({
      ok: true,
      page: 3,
      filters: {
        de: '2026-11-01',
        ate: '2026-11-30',
        simulador: ['RES'],
        status: 'VENCIDA',
        documento: '11144477735',
        numero: '2026000001',
        linha: 'vida',
      },
    });
    expect(parseHistoryQuery({ documento: '11.222.333/0001-81' })).toMatchObject({ ok: true, filters: { documento: '11222333000181' } });
  });

  it('accepts the same day as start and end', () => {
    expect(parseHistoryQuery({ de: '2026-11-22', ate: '2026-11-22' })).toMatchObject({ ok: true });
  });

  it('takes the embedded issuance apps’ codes (EMP, IP, VE), which the consultation filters by (decision 054)', () => {
    for (const code of ['emp', 'IP', 'VE']) {
      expect(parseHistoryQuery({ simulador: code })).toMatchObject({ ok: true, filters: { simulador: [code.toUpperCase()] } });
    }
  });

  it('takes several products separated by commas, once each (the consultation asks for EMP,IP,VE)', () => {
    expect(parseHistoryQuery({ simulador: 'emp, ip,VE,EMP' })).toMatchObject({ ok: true, filters: { simulador: ['EMP', 'IP', 'VE'] } });
    expect(parseHistoryQuery({ simulador: 'EMP,XYZ' })).toEqual({ ok: false, errors: { simulador: [HISTORY_MESSAGES.product] } });
    expect(parseHistoryQuery({ simulador: 'EMP,' })).toEqual({ ok: false, errors: { simulador: [HISTORY_MESSAGES.product] } });
  });

  it.each([
    [{ de: '2026-02-30' }, 'de', HISTORY_MESSAGES.date],
    [{ ate: '22/11/2026' }, 'ate', HISTORY_MESSAGES.date],
    [{ de: '2026-11-30', ate: '2026-11-01' }, 'ate', HISTORY_MESSAGES.order],
    [{ simulador: 'AFS' }, 'simulador', HISTORY_MESSAGES.product], // the old agricultural simulator is not sold in v2
    [{ simulador: 'XYZ' }, 'simulador', HISTORY_MESSAGES.product],
    [{ linha: 'automovel' }, 'linha', HISTORY_MESSAGES.line],
    [{ status: 'APROVADA' }, 'status', HISTORY_MESSAGES.status],
    [{ documento: '111.444.777-36' }, 'documento', HISTORY_MESSAGES.document],
    [{ documento: '1114447' }, 'documento', HISTORY_MESSAGES.document],
    [{ numero: '2026-01' }, 'numero', HISTORY_MESSAGES.number],
    [{ page: '0' }, 'page', HISTORY_MESSAGES.page],
    [{ page: 'dois' }, 'page', HISTORY_MESSAGES.page],
  ])('%j → a pt-BR message on %s', (query, field, message) => {
    const parsed = parseHistoryQuery(query);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? undefined : parsed.errors[field]).toEqual([message]);
  });
});

describe('historyPageHref', () => {
  it('keeps the filled filters and the page, and leaves out blanks and page 1', () => {
    expect(historyPageHref({})).toBe('/v2/historico');
    expect(historyPageHref({ simulador: 'RES', status: '', documento: '111.444.777-35' }, 1)).toBe(
      '/v2/historico?simulador=RES&documento=111.444.777-35',
    );
    expect(historyPageHref({ de: '2026-11-01', numero: ' 12 ' }, 2)).toBe('/v2/historico?de=2026-11-01&numero=12&page=2');
  });
});

describe('maskDocument', () => {
  it.each([
    ['11144477735', '***.444.777-**'],
    ['111.444.777-35', '***.444.777-**'],
    ['11222333000181', '**.222.333/****-**'],
    ['12ABC34501DE35', '**.ABC.345/****-**'],
    ['123', '***'],
  ])('%s → %s', (document, masked) => expect(maskDocument(document)).toBe(masked));

  it('never shows the check digits or the first digits of a CPF', () => {
    const masked = maskDocument('52998224725');
    expect(masked).not.toContain('529');
    expect(masked).not.toContain('25');
  });
});

describe('legacy history links', () => {
  it("reads the header's funcionalidade as the line filter, unless linha is given", () => {
    expect(withLegacyLine({ funcionalidade: 'vida' })).toEqual({ linha: 'vida' });
    expect(withLegacyLine({ funcionalidade: 'vida', linha: 'residencial' })).toEqual({ linha: 'residencial' });
    expect(parseHistoryQuery(withLegacyLine({ funcionalidade: 'maquinas' }))).toMatchObject({ ok: true, filters: { linha: 'maquinas' } });
    expect(parseHistoryQuery(withLegacyLine({ funcionalidade: 'nada' }))).toMatchObject({ ok: false });
  });
  it('pages the legacy history at /historico', () => {
    expect(historyPageHref({ linha: 'vida' }, 2, 'v1')).toBe('/historico?linha=vida&page=2');
    expect(historyPageHref({}, 1, 'v1')).toBe('/historico');
  });
});
