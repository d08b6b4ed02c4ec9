import { describe, expect, it } from 'vitest';
import {
  ACCESS_EVENTS,
  ACCESS_EVENT_CODES,
  ACCESS_LOG_CSV_COLUMNS,
  accessLogCsvRecord,
  accessLogHref,
  accessLogRow,
  DATA_VIEWS,
  describeFilters,
  eventLabel,
  EVENT_GROUPS,
  MAX_RECORDS_PER_ROW,
  parseAccessLogQuery,
  RECORD_KINDS,
  recordLabel,
  recordsText,
  withoutCpf,
  type AccessLogEntry,
} from './access-log';

const TODAY = '2026-11-20';
const parse = (query: string) => parseAccessLogQuery(new URLSearchParams(query), TODAY);

describe('the events of the log', () => {
  it('each has a pt-BR label of its own and a known group', () => {
    const labels = ACCESS_EVENT_CODES.map((code) => ACCESS_EVENTS[code].label);
    expect(new Set(labels).size).toBe(labels.length);
    for (const code of ACCESS_EVENT_CODES) {
      expect(ACCESS_EVENTS[code].label.length).toBeGreaterThan(3);
      expect(Object.keys(EVENT_GROUPS)).toContain(ACCESS_EVENTS[code].group);
    }
  });

  it('names the issue’s events: sign-in, failed sign-in, sign-out, password, first access, SSO, user and permission changes, data views', () => {
    for (const code of [
      'LOGIN',
      'LOGIN_FALHOU',
      'LOGOUT',
      'SENHA_ALTERADA',
      'PRIMEIRO_ACESSO',
      'SSO',
      'USUARIO_ALTERADO',
      'GRUPO_PERMISSAO_ALTERADO',
    ])
      expect(ACCESS_EVENT_CODES).toContain(code);
    expect(eventLabel('DADOS_SEGURADO_VISUALIZADOS')).toBe('Dados de segurado visualizados');
    // A code an older version wrote, unknown today, still shows.
    expect(eventLabel('EVENTO_ANTIGO')).toBe('EVENTO_ANTIGO');
  });

  it('every view of an insured’s data writes a data event naming a known kind of record', () => {
    for (const view of Object.values(DATA_VIEWS)) {
      expect(ACCESS_EVENTS[view.event].group).toBe('dados');
      expect(Object.keys(RECORD_KINDS)).toContain(view.record);
    }
    // A screen is a view; a file that leaves the portal is an export.
    expect(DATA_VIEWS['apolice.pagina'].event).toBe('DADOS_SEGURADO_VISUALIZADOS');
    expect(DATA_VIEWS['apolice.pdf'].event).toBe('DADOS_SEGURADO_EXPORTADOS');
    expect(DATA_VIEWS['pagamentos.csv'].event).toBe('DADOS_SEGURADO_EXPORTADOS');
  });
});

describe('the filters', () => {
  it('a blank period is the last 30 days, today included', () => {
    expect(parse('')).toEqual({ ok: true, filters: { de: '2026-10-22', ate: TODAY }, page: 1 });
    // Only the end: the 30 days before it; only the start: up to today.
    expect(parse('ate=2026-03-31')).toMatchObject({ ok: true, filters: { de: '2026-03-02', ate: '2026-03-31' } });
    expect(parse('de=2026-11-01')).toMatchObject({ ok: true, filters: { de: '2026-11-01', ate: TODAY } });
  });

  it('reads every filter, trimmed, the event in any case', () => {
    expect(
      parse('usuario=+parceiro@x.demo+&empresa=11.222.333/0001-81&evento=login&registro=1000001&de=2026-01-01&ate=2026-01-31&pagina=3'),
    ).toEqual({
      ok: true,
      filters: {
        usuario: 'parceiro@x.demo',
        empresa: '11.222.333/0001-81',
        evento: 'LOGIN',
        registro: '1000001',
        de: '2026-01-01',
        ate: '2026-01-31',
      },
      page: 3,
    });
  });

  it('refuses a reversed period, one over a year, a bad date, an unknown event, a record that is no number and a bad page — in pt-BR', () => {
    expect(parse('de=2026-02-01&ate=2026-01-31')).toEqual({
      ok: false,
      errors: { ate: ['A data final não pode ser anterior à data inicial.'] },
    });
    expect(parse('de=2025-01-01&ate=2026-01-01')).toEqual({
      ok: false,
      errors: { ate: ['O período pode ter no máximo 1 ano: diminua o intervalo.'] },
    });
    // A whole year, both ends included, is allowed.
    expect(parse('de=2025-01-01&ate=2025-12-31')).toMatchObject({ ok: true });
    expect(parse('de=2026-02-30')).toEqual({ ok: false, errors: { de: ['Informe uma data válida.'] } });
    expect(parse('evento=APAGOU_TUDO')).toEqual({ ok: false, errors: { evento: ['Escolha um evento da lista.'] } });
    expect(parse('registro=1%3B+drop')).toMatchObject({ ok: false, errors: { registro: [expect.stringContaining('só o número')] } });
    expect(parse('pagina=0')).toEqual({ ok: false, errors: { pagina: ['Página inválida.'] } });
    expect(parse(`usuario=${'a'.repeat(121)}`)).toMatchObject({ ok: false, errors: { usuario: [expect.stringContaining('120')] } });
    // Text the database cannot hold is refused here, whatever reached the page (the request pipeline refuses it first).
    expect(parse('empresa=a%00b')).toMatchObject({ ok: false, errors: { empresa: [expect.stringContaining('caractere não permitido')] } });
  });

  it('the address keeps the filters given and leaves blanks and page 1 out', () => {
    expect(accessLogHref({ usuario: 'ana', evento: '', de: '2026-01-01', ate: '2026-01-31' })).toBe(
      '/v2/log-acesso?usuario=ana&de=2026-01-01&ate=2026-01-31',
    );
    expect(accessLogHref({ usuario: ' ' }, 2)).toBe('/v2/log-acesso?pagina=2');
  });

  it('the export’s own row says which filters, never a CPF typed in them', () => {
    const text = describeFilters({ usuario: '529.982.247-25', evento: 'LOGIN', de: '2026-01-01', ate: '2026-01-31' });
    expect(text).toBe('Filtros: período de 01/01/2026 a 31/01/2026; usuário "***"; evento Entrada no portal');
  });
});

describe('records and CPFs', () => {
  it('a row names one record or a few, each once, at most 20', () => {
    expect(recordsText('1000001')).toBe('1000001');
    expect(recordsText(['1000001', '1000002', '1000001'])).toBe('1000001, 1000002');
    expect(recordsText([])).toBeNull();
    expect(recordsText(Array.from({ length: 30 }, (_, i) => String(i)))?.split(', ')).toHaveLength(MAX_RECORDS_PER_ROW);
    expect(recordLabel('APOLICE', '1000001')).toBe('Apólice 1000001');
    expect(recordLabel('PAGAMENTOS', null)).toBe('Pagamentos do período');
    expect(recordLabel(null, null)).toBe('—');
  });

  it('takes out whatever looks like a CPF, with or without its mask, and leaves longer numbers alone', () => {
    expect(withoutCpf('cpf 52998224725 e 529.982.247-25')).toBe('cpf *** e ***');
    expect(withoutCpf('proposta 202600000001')).toBe('proposta 202600000001');
  });
});

const entry = (over: Partial<AccessLogEntry> = {}): AccessLogEntry => ({
  id: 1,
  quando: new Date('2026-01-15T12:00:05Z'),
  evento: 'LOGIN',
  geracao: 'v2',
  email: 'parceiro@parceiro.demo',
  usuarioId: 5,
  usuarioNome: 'Eduarda Lima',
  autorId: null,
  autorNome: null,
  autorEmail: null,
  empresaNome: 'Horizonte Corretora',
  empresaCnpj: '11222333000181',
  ip: '203.0.113.7',
  registroTipo: null,
  registro: null,
  detalhe: null,
  ...over,
});

describe('what a row shows', () => {
  it('when in Brasília with seconds, the event in words, the user, the company with its CNPJ, the IP', () => {
    expect(accessLogRow(entry())).toEqual({
      id: 1,
      quando: '2026-01-15T12:00:05.000Z',
      quandoTexto: '15/01/2026 09:00:05',
      evento: 'LOGIN',
      eventoTexto: 'Entrada no portal',
      geracao: 'Novo portal',
      usuario: 'Eduarda Lima (parceiro@parceiro.demo)',
      autor: null,
      empresa: 'Horizonte Corretora (11.222.333/0001-81)',
      ip: '203.0.113.7',
      registro: '—',
      detalhe: '',
    });
  });

  it('who did it only when it was someone else; a group change shows its author as the user', () => {
    const changed = accessLogRow(
      entry({ evento: 'USUARIO_BLOQUEADO', autorId: 1, autorNome: 'Carla Mendes', autorEmail: 'admin@seguradora.demo' }),
    );
    expect(changed.autor).toBe('Carla Mendes (admin@seguradora.demo)');
    expect(accessLogRow(entry({ autorId: 5, autorNome: 'Eduarda Lima', autorEmail: 'parceiro@parceiro.demo' })).autor).toBeNull();
    const group = accessLogRow(
      entry({
        evento: 'GRUPO_ACESSO_ALTERADO',
        usuarioId: null,
        usuarioNome: null,
        autorId: 1,
        autorNome: 'Ana Ribeiro',
        autorEmail: 'admin@legado.demo',
      }),
    );
    expect([group.usuario, group.autor]).toEqual(['Ana Ribeiro (admin@legado.demo)', null]);
  });

  it('an e-mail typed at a refused sign-in, no company and no address as they are', () => {
    const row = accessLogRow(
      entry({ evento: 'LOGIN_FALHOU', usuarioId: null, usuarioNome: null, email: 'ninguem@x.demo', empresaCnpj: null, ip: null }),
    );
    expect([row.usuario, row.empresa, row.ip]).toEqual(['ninguem@x.demo', null, '—']);
  });

  it('a view of an insured’s data names its record; the CSV has one cell per column', () => {
    const row = accessLogRow(
      entry({ evento: 'DADOS_SEGURADO_EXPORTADOS', registroTipo: 'APOLICE', registro: '1000001', detalhe: 'PDF da apólice' }),
    );
    expect([row.registro, row.detalhe]).toEqual(['Apólice 1000001', 'PDF da apólice']);
    const record = accessLogCsvRecord(row);
    expect(record).toHaveLength(ACCESS_LOG_CSV_COLUMNS.length);
    expect(record).toEqual([
      '15/01/2026 09:00:05',
      'Dados de segurado baixados ou exportados',
      'DADOS_SEGURADO_EXPORTADOS',
      'Novo portal',
      'Eduarda Lima (parceiro@parceiro.demo)',
      '',
      'Horizonte Corretora (11.222.333/0001-81)',
      '203.0.113.7',
      'Apólice 1000001',
      'PDF da apólice',
    ]);
  });
});
