import * as z from 'zod/mini';
import { addDays } from './calendar';
import { formatDateTimeSeconds, formatIsoDate } from './format';
import { isoDateField, optionalField, pageField, parseListQuery, type ParsedListQuery } from './list-query';
import { lastDayOfPeriod } from './payments';
import { isStorableText, UNSTORABLE_MESSAGE } from './storable-text';
import { formatCnpj } from './validators';

/*
 * The access log (issue 17, decision 049), pure: the events it records with their pt-BR labels, the
 * records a row may name, the views of an insured's data that write one, the page's filters (one
 * schema for the page, its CSV and GET /api/bff/v1/log-acesso), what a row shows and the CSV's columns.
 */

export const ACCESS_LOG_PATH = '/v2/log-acesso';
export const ACCESS_LOG_EXPORT_PATH = '/v2/log-acesso/exportar.csv';
export const ACCESS_LOG_PAGE_SIZE = 20;
/** A period left blank is the last 30 days, today included. */
export const DEFAULT_PERIOD_DAYS = 30;

export const EVENT_GROUPS = {
  acesso: 'Acesso e sessão',
  administracao: 'Usuários e permissões',
  dados: 'Dados de segurados (LGPD art. 37)',
  log: 'Log de acesso',
} as const;
export type EventGroup = keyof typeof EVENT_GROUPS;

/** Every event the portal writes to access_events, with what the log calls it. */
export const ACCESS_EVENTS = {
  LOGIN: { label: 'Entrada no portal', group: 'acesso' },
  LOGIN_FALHOU: { label: 'Entrada recusada', group: 'acesso' },
  LOGOUT: { label: 'Saída do portal', group: 'acesso' },
  SSO: { label: 'Entrada por sessão única (SSO)', group: 'acesso' },
  SSO_EMITIDO: { label: 'Sessão única (SSO) emitida', group: 'acesso' },
  PRIMEIRO_ACESSO: { label: 'Primeiro acesso concluído', group: 'acesso' },
  SENHA_ALTERADA: { label: 'Senha alterada', group: 'acesso' },
  // Issue 32: the second factor (decision 068).
  SEGUNDO_FATOR: { label: 'Segunda etapa de verificação concluída', group: 'acesso' },
  SEGUNDO_FATOR_FALHOU: { label: 'Segunda etapa de verificação recusada', group: 'acesso' },
  SEGUNDO_FATOR_CADASTRADO: { label: 'Verificação em duas etapas configurada', group: 'acesso' },
  CODIGO_RECUPERACAO_USADO: { label: 'Código de recuperação utilizado', group: 'acesso' },
  SEGUNDO_FATOR_REMOVIDO: { label: 'Fator de verificação removido', group: 'acesso' },
  CODIGOS_RECUPERACAO_GERADOS: { label: 'Novos códigos de recuperação gerados', group: 'acesso' },
  DISPOSITIVOS_ESQUECIDOS: { label: 'Dispositivos lembrados esquecidos', group: 'acesso' },
  // Issue 42 (decision 073): a wrong password or code given to confirm a change of the second factor.
  CONFIRMACAO_RECUSADA: { label: 'Confirmação de identidade recusada', group: 'acesso' },
  SESSAO_ENCERRADA: { label: 'Sessão encerrada pelo próprio usuário', group: 'acesso' },
  SESSOES_ENCERRADAS: { label: 'Outras sessões encerradas pelo próprio usuário', group: 'acesso' },
  SEGUNDO_FATOR_REDEFINIDO: { label: 'Verificação em duas etapas redefinida', group: 'administracao' },
  USUARIO_CRIADO: { label: 'Usuário cadastrado', group: 'administracao' },
  USUARIO_ALTERADO: { label: 'Usuário alterado', group: 'administracao' },
  USUARIO_DESATIVADO: { label: 'Usuário desativado', group: 'administracao' },
  USUARIO_BLOQUEADO: { label: 'Usuário bloqueado', group: 'administracao' },
  USUARIO_REATIVADO: { label: 'Usuário reativado', group: 'administracao' },
  // Decision 060: who confirmed an import, and whether it may update existing accounts.
  USUARIOS_IMPORTADOS: { label: 'Importação de usuários confirmada', group: 'administracao' },
  // Decision 071: an import undone by its author; a grant past its end date removed by the sweep.
  IMPORTACAO_DESFEITA: { label: 'Importação de usuários desfeita', group: 'administracao' },
  ACESSO_EXPIRADO: { label: 'Acesso expirado', group: 'administracao' },
  GRUPO_ACESSO_CRIADO: { label: 'Grupo de acesso criado', group: 'administracao' },
  GRUPO_ACESSO_ALTERADO: { label: 'Grupo de acesso alterado', group: 'administracao' },
  GRUPO_PERMISSAO_CRIADO: { label: 'Grupo de permissões criado', group: 'administracao' },
  GRUPO_PERMISSAO_ALTERADO: { label: 'Grupo de permissões alterado', group: 'administracao' },
  GRUPO_PERMISSAO_EXCLUIDO: { label: 'Grupo de permissões excluído', group: 'administracao' },
  CANAL_CRIADO: { label: 'Canal de venda criado', group: 'administracao' },
  CANAL_ALTERADO: { label: 'Canal de venda alterado', group: 'administracao' },
  PONTO_VENDA_CRIADO: { label: 'Ponto de venda cadastrado', group: 'administracao' },
  PONTO_VENDA_ALTERADO: { label: 'Ponto de venda alterado', group: 'administracao' },
  PONTO_VENDA_DESATIVADO: { label: 'Ponto de venda desativado', group: 'administracao' },
  PONTO_VENDA_REATIVADO: { label: 'Ponto de venda reativado', group: 'administracao' },
  PARCEIRO_CADASTRADO: { label: 'Parceiro cadastrado', group: 'administracao' },
  PARCEIRO_ALTERADO: { label: 'Parceiro alterado', group: 'administracao' },
  PARCEIRO_SUSPENSO: { label: 'Parceiro suspenso', group: 'administracao' },
  PARCEIRO_REATIVADO: { label: 'Parceiro reativado', group: 'administracao' },
  SUBSTABELECIDO_CADASTRADO: { label: 'Substabelecido cadastrado', group: 'administracao' },
  SUBSTABELECIDO_ALTERADO: { label: 'Substabelecido alterado', group: 'administracao' },
  SUBSTABELECIDO_SUSPENSO: { label: 'Substabelecido suspenso', group: 'administracao' },
  SUBSTABELECIDO_REATIVADO: { label: 'Substabelecido reativado', group: 'administracao' },
  // Issue 32 (decision 069): an administrator's actions on a user's page and on the pending invitations.
  CONVITE_REENVIADO: { label: 'Convite de primeiro acesso reenviado', group: 'administracao' },
  CONVITE_CANCELADO: { label: 'Convite de primeiro acesso cancelado', group: 'administracao' },
  SENHA_REDEFINICAO_FORCADA: { label: 'Nova senha exigida pelo administrador', group: 'administracao' },
  SESSAO_ENCERRADA_ADMIN: { label: 'Sessão de usuário encerrada pelo administrador', group: 'administracao' },
  // Issue 32 (decision 070): bulk actions on users — each user's change is its own event as well.
  USUARIOS_ACAO_EM_LOTE: { label: 'Ação em lote de usuários confirmada', group: 'administracao' },
  USUARIOS_EXPORTADOS: { label: 'Lista de usuários exportada', group: 'administracao' },
  DADOS_SEGURADO_VISUALIZADOS: { label: 'Dados de segurado visualizados', group: 'dados' },
  DADOS_SEGURADO_EXPORTADOS: { label: 'Dados de segurado baixados ou exportados', group: 'dados' },
  LOG_ACESSO_EXPORTADO: { label: 'Log de acesso exportado', group: 'log' },
  RESTITUICAO_ALTERADA: { label: 'Restituição paga, devolvida ou reaberta', group: 'dados' },
} as const satisfies Record<string, { label: string; group: EventGroup }>;
export type AccessEventCode = keyof typeof ACCESS_EVENTS;
export const ACCESS_EVENT_CODES = Object.keys(ACCESS_EVENTS) as AccessEventCode[];

export const isAccessEvent = (code: string): code is AccessEventCode => Object.hasOwn(ACCESS_EVENTS, code);
/** An event's label; a code the table does not know (written by an older version) shows as it is. */
export const eventLabel = (code: string): string => (isAccessEvent(code) ? ACCESS_EVENTS[code].label : code);

/** The records a row may name: never a person, always a number of the portal's own. */
export const RECORD_KINDS = {
  APOLICE: 'Apólice',
  COTACAO: 'Cotação',
  PROPOSTA: 'Proposta',
  DOCUMENTO: 'Documento',
  RELATORIO_VENDAS: 'Relatório de vendas',
  PAGAMENTOS: 'Pagamentos do período',
  EXTRATO_COMISSOES: 'Extrato de comissões',
  IMPORTACAO_USUARIOS: 'Importação de usuários',
  ACAO_EM_LOTE_USUARIOS: 'Ação em lote de usuários',
} as const;
export type RecordKind = keyof typeof RECORD_KINDS;

type DataEvent = Extract<AccessEventCode, 'DADOS_SEGURADO_VISUALIZADOS' | 'DADOS_SEGURADO_EXPORTADOS'>;
const VIEWED: DataEvent = 'DADOS_SEGURADO_VISUALIZADOS';
const EXPORTED: DataEvent = 'DADOS_SEGURADO_EXPORTADOS';

/**
 * Every place that shows or hands out an insured's personal data (decision 049): what it writes — a
 * screen is a view, a file that leaves the portal (PDF, download, CSV) an export — which record it
 * names, and the detail in words. One row per request, written by services/identity/access-log.ts
 * recordDataAccess; the place adds the record's number and, where it helps, a few words more.
 */
export const DATA_VIEWS = {
  'apolice.pagina': { event: VIEWED, record: 'APOLICE', detalhe: 'Página da apólice' },
  'apolice.pdf': { event: EXPORTED, record: 'APOLICE', detalhe: 'PDF da apólice' },
  'apolice.link-segurado': { event: EXPORTED, record: 'APOLICE', detalhe: 'PDF da apólice aberto pelo link enviado ao segurado' },
  'apolice.boleto': { event: EXPORTED, record: 'APOLICE', detalhe: 'PDF do boleto' },
  'apolice.endosso-pdf': { event: EXPORTED, record: 'APOLICE', detalhe: 'PDF do endosso' },
  'apolice.endossos': { event: VIEWED, record: 'APOLICE', detalhe: 'Endossos da apólice' },
  'apolice.extrato': { event: EXPORTED, record: 'APOLICE', detalhe: 'Extrato financeiro da apólice (CSV)' },
  'apolice.endosso-contato': { event: VIEWED, record: 'APOLICE', detalhe: 'Endosso de dados cadastrais' },
  'apolice.cancelamento': { event: VIEWED, record: 'APOLICE', detalhe: 'Cancelamento da apólice' },
  'cotacao.pagina': { event: VIEWED, record: 'COTACAO', detalhe: 'Cotação de outro vendedor' },
  'cotacao.pdf': { event: EXPORTED, record: 'COTACAO', detalhe: 'PDF da cotação' },
  'proposta.pdf': { event: EXPORTED, record: 'PROPOSTA', detalhe: 'PDF da proposta' },
  'documento.arquivo': { event: EXPORTED, record: 'DOCUMENTO', detalhe: 'Arquivo do documento' },
  'parcelas.consulta': { event: VIEWED, record: 'APOLICE', detalhe: 'Consulta de parcelas e pagamentos' },
  'parcelas.boleto': { event: VIEWED, record: 'APOLICE', detalhe: 'Busca de 2ª via de boleto' },
  'pagamentos.csv': { event: EXPORTED, record: 'PAGAMENTOS', detalhe: 'CSV do relatório de pagamentos' },
  'comissoes.csv': { event: EXPORTED, record: 'EXTRATO_COMISSOES', detalhe: 'CSV do extrato de comissões' },
  'relatorio-vendas.arquivo': { event: EXPORTED, record: 'RELATORIO_VENDAS', detalhe: 'Arquivo do relatório de vendas' },
  // Issue 31: what the partner sends the insured from the policy page, and the insured's boleto link.
  'apolice.envio-apolice': { event: EXPORTED, record: 'APOLICE', detalhe: 'Apólice enviada por e-mail ao segurado' },
  'apolice.envio-boleto': { event: EXPORTED, record: 'APOLICE', detalhe: 'Boleto e Pix enviados por e-mail ao segurado' },
  'apolice.link-whatsapp': { event: EXPORTED, record: 'APOLICE', detalhe: 'Link para WhatsApp gerado' },
  'boleto.link-segurado': { event: EXPORTED, record: 'APOLICE', detalhe: 'Boleto aberto pelo link enviado ao segurado' },
} as const satisfies Record<string, { event: DataEvent; record: RecordKind; detalhe: string }>;
export type InsuredDataView = keyof typeof DATA_VIEWS;

/** How many record numbers one row names at most (a lookup lists a page of policies). */
export const MAX_RECORDS_PER_ROW = 20;

/** The records a row names: each once, none blank, at most MAX_RECORDS_PER_ROW. */
export const recordList = (records: string | readonly string[]): string[] =>
  [...new Set(typeof records === 'string' ? [records] : records)].filter(Boolean).slice(0, MAX_RECORDS_PER_ROW);

/** The record column of a view of one or several records ('1000001, 1000002'); the filter splits it back. */
export const recordsText = (records: string | readonly string[]): string | null => {
  const list = recordList(records);
  return list.length > 0 ? list.join(', ') : null;
};

/**
 * The records that belong to a sale (issue 42, decision 072): a row naming one is filed under the
 * sale's company, and a user's history shows it only to a viewer whose scope holds the sale.
 */
export const SALE_RECORD_KINDS = ['APOLICE', 'COTACAO', 'PROPOSTA', 'DOCUMENTO'] as const satisfies readonly RecordKind[];
export type SaleRecordKind = (typeof SALE_RECORD_KINDS)[number];
export const isSaleRecord = (kind: RecordKind): kind is SaleRecordKind => (SALE_RECORD_KINDS as readonly string[]).includes(kind);

/**
 * The events that tell of a user's sessions, sign-ins, password and second factor (issue 42): a user's
 * history shows them only to whoever may manage that user (decision 072). Every event of the access
 * group, and what an administrator does to them.
 */
export const SECURITY_EVENTS: readonly AccessEventCode[] = [
  ...ACCESS_EVENT_CODES.filter((code) => ACCESS_EVENTS[code].group === 'acesso'),
  'SEGUNDO_FATOR_REDEFINIDO',
  'SESSAO_ENCERRADA_ADMIN',
  'SENHA_REDEFINICAO_FORCADA',
];

/** 'Apólice 1000001', 'Relatório de vendas 7'; a kind the table does not know shows its code. */
export const recordLabel = (kind: string | null, record: string | null): string => {
  if (!kind) return record ?? '—';
  const name = Object.hasOwn(RECORD_KINDS, kind) ? RECORD_KINDS[kind as RecordKind] : kind;
  return record ? `${name} ${record}` : name;
};

/**
 * A CPF typed where a name was expected stays out of the log: whatever looks like one (11 digits,
 * with or without its mask) is replaced. The log names records by their numbers, never by a person's
 * document (LGPD's necessity principle).
 */
export const withoutCpf = (text: string): string => text.replace(/(?<!\d)\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?!\d)/g, '***');

// ─── The filters ─────────────────────────────────────────────────────────────────────────────────

export const ACCESS_LOG_MESSAGES = {
  usuario: 'Usuário: informe no máximo 120 caracteres do nome ou do e-mail.',
  empresa: 'Empresa: informe no máximo 120 caracteres do nome ou do CNPJ.',
  evento: 'Escolha um evento da lista.',
  registro: 'Registro: informe só o número (da apólice, cotação, proposta, documento ou relatório).',
  date: 'Informe uma data válida.',
  order: 'A data final não pode ser anterior à data inicial.',
  tooLong: 'O período pode ter no máximo 1 ano: diminua o intervalo.',
  page: 'Página inválida.',
  unstorable: UNSTORABLE_MESSAGE,
} as const;

/** The query-string fields of the log, in the order the form shows them. */
export const ACCESS_LOG_FIELDS = ['usuario', 'empresa', 'evento', 'registro', 'de', 'ate'] as const;
export type AccessLogField = (typeof ACCESS_LOG_FIELDS)[number];

/** Free text of a filter: at most `max` characters, none the database cannot hold (a NUL, a lone surrogate). */
const boundedText = (max: number, message: string) =>
  z.string({ error: message }).check(z.maxLength(max, message), z.refine(isStorableText, ACCESS_LOG_MESSAGES.unstorable));

/** The log's query as filters: every text trimmed, a blank one no filter, the period in Brasília days. */
export function accessLogQuerySchema(today: string) {
  return z
    .pipe(
      z.object({
        usuario: optionalField(boundedText(120, ACCESS_LOG_MESSAGES.usuario)),
        empresa: optionalField(boundedText(120, ACCESS_LOG_MESSAGES.empresa)),
        evento: optionalField(
          z.pipe(
            z.pipe(
              boundedText(40, ACCESS_LOG_MESSAGES.evento),
              z.transform((v: string) => v.toUpperCase()),
            ),
            z.enum(ACCESS_EVENT_CODES as [AccessEventCode, ...AccessEventCode[]], { error: ACCESS_LOG_MESSAGES.evento }),
          ),
        ),
        registro: optionalField(
          z.string({ error: ACCESS_LOG_MESSAGES.registro }).check(z.regex(/^[0-9A-Za-z-]{1,30}$/, ACCESS_LOG_MESSAGES.registro)),
        ),
        de: optionalField(isoDateField(ACCESS_LOG_MESSAGES.date)),
        ate: optionalField(isoDateField(ACCESS_LOG_MESSAGES.date)),
        pagina: optionalField(pageField(ACCESS_LOG_MESSAGES.page)),
      }),
      // A blank end is today; a blank start, 30 days before the end.
      z.transform(({ de, ate, pagina, ...rest }) => {
        const end = ate ?? (de && de > today ? de : today);
        return { ...rest, de: de ?? addDays(end, 1 - DEFAULT_PERIOD_DAYS), ate: end, page: pagina };
      }),
    )
    .check(
      z.superRefine((value, ctx) => {
        // ISO days compare as text.
        if (value.ate < value.de) ctx.addIssue({ code: 'custom', input: value, path: ['ate'], message: ACCESS_LOG_MESSAGES.order });
        else if (value.ate > lastDayOfPeriod(value.de))
          ctx.addIssue({ code: 'custom', input: value, path: ['ate'], message: ACCESS_LOG_MESSAGES.tooLong });
      }),
    );
}

export type AccessLogFilters = {
  usuario?: string;
  empresa?: string;
  evento?: AccessEventCode;
  registro?: string;
  /** Brasília days, both included. */
  de: string;
  ate: string;
};

/** The log's address (or a request's query) as filters and a 1-based page, or the messages of each bad field. */
export const parseAccessLogQuery = (input: URLSearchParams | Record<string, unknown>, today: string): ParsedListQuery<AccessLogFilters> =>
  parseListQuery(accessLogQuerySchema(today), input) as ParsedListQuery<AccessLogFilters>;

/** The filters as the form shows them again (the period resolved: the reader sees which days they read). */
export const filterValues = (filters: AccessLogFilters): Record<AccessLogField, string> => ({
  usuario: filters.usuario ?? '',
  empresa: filters.empresa ?? '',
  evento: filters.evento ?? '',
  registro: filters.registro ?? '',
  de: filters.de,
  ate: filters.ate,
});

/**
 * An address of the log (or of its CSV) with these filters and page, and the cursor that reaches the
 * page (lib/keyset-pages.ts); blank filters and page 1 are left out.
 */
export function accessLogHref(
  values: Partial<Record<AccessLogField, string>>,
  page = 1,
  base: string = ACCESS_LOG_PATH,
  cursor?: string,
): string {
  const params = new URLSearchParams();
  for (const field of ACCESS_LOG_FIELDS) {
    const value = values[field]?.trim();
    if (value) params.set(field, value);
  }
  if (page > 1) params.set('pagina', String(page));
  if (page > 1 && cursor) params.set('cursor', cursor);
  const query = params.toString();
  return query ? `${base}?${query}` : base;
}

/** The filters in words, for the export's own row: what was taken out, never a CPF. */
export function describeFilters(filters: AccessLogFilters): string {
  const parts = [`período de ${formatIsoDate(filters.de)} a ${formatIsoDate(filters.ate)}`];
  if (filters.usuario) parts.push(`usuário "${filters.usuario}"`);
  if (filters.empresa) parts.push(`empresa "${filters.empresa}"`);
  if (filters.evento) parts.push(`evento ${eventLabel(filters.evento)}`);
  if (filters.registro) parts.push(`registro ${filters.registro}`);
  return withoutCpf(`Filtros: ${parts.join('; ')}`);
}

// ─── What a row shows ────────────────────────────────────────────────────────────────────────────

/** One row of access_events as the service reads it, with the names it joins. */
export interface AccessLogEntry {
  id: number;
  quando: Date;
  evento: string;
  geracao: string;
  email: string;
  usuarioId: number | null;
  usuarioNome: string | null;
  autorId: number | null;
  autorNome: string | null;
  autorEmail: string | null;
  empresaNome: string | null;
  empresaCnpj: string | null;
  ip: string | null;
  registroTipo: string | null;
  registro: string | null;
  detalhe: string | null;
}

/** A row as the page, the API and the CSV show it. */
export interface AccessLogRow {
  id: number;
  /** ISO instant; `quandoTexto` is Brasília time with seconds. */
  quando: string;
  quandoTexto: string;
  evento: string;
  eventoTexto: string;
  geracao: string;
  usuario: string;
  /** Who did it when it was someone else (an administrator changing a user): null otherwise. */
  autor: string | null;
  empresa: string | null;
  ip: string;
  registro: string;
  detalhe: string;
}

const person = (nome: string | null, email: string) => (nome ? `${nome} (${email})` : email || '—');

export function accessLogRow(entry: AccessLogEntry): AccessLogRow {
  const byAnother = entry.autorId !== null && entry.autorId !== entry.usuarioId;
  return {
    id: entry.id,
    quando: entry.quando.toISOString(),
    quandoTexto: formatDateTimeSeconds(entry.quando),
    evento: entry.evento,
    eventoTexto: eventLabel(entry.evento),
    geracao: entry.geracao === 'v1' ? 'Legado' : 'Novo portal',
    // A change to a group has no subject of its own: its author is the row's user.
    usuario:
      entry.usuarioId === null && entry.autorId !== null
        ? person(entry.autorNome, entry.autorEmail ?? entry.email)
        : person(entry.usuarioNome, entry.email),
    autor: byAnother && entry.usuarioId !== null ? person(entry.autorNome, entry.autorEmail ?? '') : null,
    empresa: entry.empresaCnpj ? `${entry.empresaNome ?? ''} (${formatCnpj(entry.empresaCnpj)})`.trim() : null,
    ip: entry.ip ?? '—',
    registro: recordLabel(entry.registroTipo, entry.registro),
    detalhe: entry.detalhe ?? '',
  };
}

/** The CSV's columns: its pt-BR header and the cell of a row. */
export const ACCESS_LOG_CSV_COLUMNS: readonly [header: string, cell: (row: AccessLogRow) => string][] = [
  ['Data e hora (Brasília)', (r) => r.quandoTexto],
  ['Evento', (r) => r.eventoTexto],
  ['Código do evento', (r) => r.evento],
  ['Geração', (r) => r.geracao],
  ['Usuário', (r) => r.usuario],
  ['Feito por', (r) => r.autor ?? ''],
  ['Empresa', (r) => r.empresa ?? ''],
  ['IP', (r) => r.ip],
  ['Registro', (r) => (r.registro === '—' ? '' : r.registro)],
  ['Detalhe', (r) => r.detalhe],
];

export const accessLogCsvRecord = (row: AccessLogRow): string[] => ACCESS_LOG_CSV_COLUMNS.map(([, cell]) => cell(row));
export const accessLogCsvFileName = ({ de, ate }: AccessLogFilters) => `log-de-acesso-${de}-a-${ate}.csv`;
