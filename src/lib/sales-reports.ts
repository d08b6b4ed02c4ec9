import type { Cents } from './products/types';
import { PRODUCTS } from './products/catalog';
import { isIsoDate } from './offer-schema';
import { daysBetween } from './calendar';
import { formatIsoDate } from './format';
import { csvMoney } from './commissions';
import { normalizeCnpj } from './validators';
import { maskDocument } from './history';
import { PROPOSAL_STATUS_LABELS, type ProposalStatus } from './acceptance';
import { POLICY_STATUS_LABELS, type PolicyStatus } from './policies';
import { PAYMENT_METHODS } from './products/engine';
import { CSV_OPTIONS } from './csv';

/*
 * Sales reports (issue 15, decision 042), pure: what a partner asks for — a period, what was sold
 * (quotes, proposals, policies issued or cancelled), products, company, point of sale, seller and a
 * format —, the checks of that request, and one row's columns as CSV text and as typed XLSX cells.
 */

export const REPORT_KINDS = {
  cotacoes: 'Cotações',
  propostas: 'Propostas',
  apolices: 'Apólices emitidas',
  canceladas: 'Apólices canceladas',
} as const;
export type ReportKind = keyof typeof REPORT_KINDS;

export const REPORT_FORMATS = { csv: 'CSV (planilha em texto)', xlsx: 'Excel (XLSX)' } as const;
export type ReportFormat = keyof typeof REPORT_FORMATS;

export const REPORT_STATUS_LABELS = { NA_FILA: 'Na fila', GERANDO: 'Gerando', PRONTO: 'Pronto', ERRO: 'Erro' } as const;
export type ReportStatus = keyof typeof REPORT_STATUS_LABELS;

/** The longest period one report covers: a year, both ends included. */
export const MAX_SPAN_DAYS = 366;

/** Excel's sheets stop at 1,048,576 rows; a workbook is also built whole in memory (decision 042). */
export const MAX_XLSX_ROWS = 100_000;

/**
 * How many reports one user may have waiting or being made at once (ILLUSTRATIVE, decision 058): one
 * user's 300 requests held everyone else's behind them. With the job serving users in turn, another
 * user's report waits at most for the report under way and one of each other user with work queued.
 */
export const MAX_PENDING_REPORTS_PER_USER = 5;

export const REPORT_MESSAGES = {
  de: 'Informe a data inicial (dd/mm/aaaa).',
  ate: 'Informe a data final (dd/mm/aaaa).',
  reversed: 'A data inicial deve ser anterior ou igual à final.',
  span: 'O período pode ter no máximo 1 ano.',
  future: 'A data final não pode ser depois de hoje.',
  tipo: 'Escolha o que o relatório lista: cotações, propostas, apólices emitidas ou canceladas.',
  produto: (code: string) => `Produto desconhecido: ${code.slice(0, 20)}.`,
  formato: 'Escolha o formato: CSV ou Excel (XLSX).',
  empresa: 'Empresa inválida: escolha uma das suas empresas.',
  pontoVenda: 'Ponto de venda inválido: escolha um da lista.',
  vendedor: 'Vendedor inválido: escolha um da lista.',
  fila: `Você já tem ${MAX_PENDING_REPORTS_PER_USER} relatórios na fila ou sendo gerados, o máximo por usuário. Aguarde um deles ficar pronto para pedir outro.`,
} as const;

export interface ReportRequest {
  de: string;
  ate: string;
  tipo: ReportKind;
  /** Simulator codes; empty: every product. */
  produtos: string[];
  /** CNPJ, point of sale code and seller id, each optional (checked against the scope by the service). */
  empresa?: string;
  pontoVenda?: string;
  vendedor?: number;
  formato: ReportFormat;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: Record<string, string[]> };

/** A request as the form sends it (products may repeat), checked field by field; nothing is guessed. */
export function parseReportRequest(form: URLSearchParams, today: string): Parsed<ReportRequest> {
  const errors: Record<string, string[]> = {};
  const field = (name: string) => form.get(name)?.trim() ?? '';
  const de = field('de');
  const ate = field('ate');
  if (!isIsoDate(de)) errors.de = [REPORT_MESSAGES.de];
  if (!isIsoDate(ate)) errors.ate = [REPORT_MESSAGES.ate];
  else if (ate > today) errors.ate = [REPORT_MESSAGES.future];
  if (!errors.de && !errors.ate) {
    if (de > ate) errors.de = [REPORT_MESSAGES.reversed];
    else if (daysBetween(de, ate) + 1 > MAX_SPAN_DAYS) errors.ate = [REPORT_MESSAGES.span];
  }
  const tipo = field('tipo');
  if (!(tipo in REPORT_KINDS)) errors.tipo = [REPORT_MESSAGES.tipo];
  const produtos = [
    ...new Set(
      form
        .getAll('produtos')
        .map((p) => p.trim().toUpperCase())
        .filter(Boolean),
    ),
  ];
  const unknown = produtos.find((p) => !(p in PRODUCTS));
  if (unknown !== undefined) errors.produtos = [REPORT_MESSAGES.produto(unknown)];
  const formato = field('formato');
  if (!(formato in REPORT_FORMATS)) errors.formato = [REPORT_MESSAGES.formato];
  const empresa = field('empresa') ? normalizeCnpj(field('empresa')) : undefined;
  if (empresa !== undefined && !/^[0-9A-Z]{12}\d{2}$/.test(empresa)) errors.empresa = [REPORT_MESSAGES.empresa];
  const pontoVenda = field('pontoVenda').toUpperCase() || undefined;
  if (pontoVenda !== undefined && !/^[A-Z0-9-]{1,20}$/.test(pontoVenda)) errors.pontoVenda = [REPORT_MESSAGES.pontoVenda];
  const vendedor = field('vendedor') || undefined;
  if (vendedor !== undefined && !/^[1-9]\d{0,9}$/.test(vendedor)) errors.vendedor = [REPORT_MESSAGES.vendedor];
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      de,
      ate,
      tipo: tipo as ReportKind,
      produtos,
      empresa,
      pontoVenda,
      vendedor: vendedor === undefined ? undefined : Number(vendedor),
      formato: formato as ReportFormat,
    },
  };
}

/** The request in words, for the list of reports: 'Apólices emitidas de 01/01/2026 a 31/03/2026 · Residencial'. */
export function describeRequest(request: ReportRequest, names: { empresa?: string; pontoVenda?: string; vendedor?: string } = {}): string {
  const parts = [`${REPORT_KINDS[request.tipo]} de ${formatIsoDate(request.de)} a ${formatIsoDate(request.ate)}`];
  parts.push(request.produtos.length === 0 ? 'todos os produtos' : request.produtos.map((p) => PRODUCTS[p]?.name ?? p).join(', '));
  if (request.empresa) parts.push(names.empresa ?? request.empresa);
  if (request.pontoVenda) parts.push(names.pontoVenda ?? request.pontoVenda);
  if (request.vendedor !== undefined) parts.push(names.vendedor ?? `vendedor ${request.vendedor}`);
  return parts.join(' · ');
}

/* ---------- One row of a report ---------- */

export interface ReportRow {
  numero: string;
  /** When it happened: quote made, proposal sent, policy issued or cancelled (an instant). */
  data: Date;
  produto: string;
  situacao: string;
  segurado: string;
  documento: string;
  empresa: string;
  pontoVenda: string;
  vendedor: string;
  premioLiquido: Cents | null;
  premioTotal: Cents | null;
  formaPagamento: string;
  /** 'YYYY-MM-DD', for cancelled policies. */
  canceladaEm: string | null;
}

const paymentLabel = (value: string | null) => PAYMENT_METHODS.find((m) => m.value === value)?.label ?? '';
const brasiliaDateTime = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Sao_Paulo',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** A row as the database gives it, in words: the situation's label, the document masked (LGPD: minimum needed). */
export function reportRowOf(
  raw: {
    numero: string;
    data: Date;
    simulator_code: string;
    situacao: string;
    nome_segurado: string;
    documento_segurado: string;
    empresa: string | null;
    ponto_venda: string | null;
    vendedor: string;
    premio_liquido: number | null;
    premio_total: number | null;
    forma_pagamento: string | null;
    cancelada_em: string | null;
  },
  tipo: ReportKind,
): ReportRow {
  const situacao =
    tipo === 'cotacoes'
      ? raw.situacao === 'PROPOSTA_EM_ANALISE'
        ? 'Proposta enviada'
        : 'Em elaboração'
      : tipo === 'propostas'
        ? (PROPOSAL_STATUS_LABELS[raw.situacao as ProposalStatus] ?? raw.situacao)
        : (POLICY_STATUS_LABELS[raw.situacao as PolicyStatus] ?? raw.situacao);
  return {
    numero: raw.numero,
    data: raw.data,
    produto: PRODUCTS[raw.simulator_code]?.name ?? raw.simulator_code,
    situacao,
    segurado: raw.nome_segurado,
    documento: maskDocument(raw.documento_segurado),
    empresa: raw.empresa ?? '',
    pontoVenda: raw.ponto_venda ?? '',
    vendedor: raw.vendedor,
    premioLiquido: raw.premio_liquido,
    premioTotal: raw.premio_total,
    formaPagamento: paymentLabel(raw.forma_pagamento),
    canceladaEm: raw.cancelada_em,
  };
}

type XlsxCell = { value: string | number | Date | null; type?: typeof String | typeof Number | typeof Date; format?: string } | null;

const MONEY_FORMAT = '"R$" #,##0.00';
const BRASILIA_OFFSET_MS = 3 * 3_600_000;
const money = (cents: Cents | null): XlsxCell => (cents === null ? null : { value: cents / 100, type: Number, format: MONEY_FORMAT });
const text = (value: string): XlsxCell => ({ value, type: String });

/**
 * What the date column holds, named so in every kind and both formats: a policy's issue date is
 * 'Emitida em' whether the report lists policies issued or cancelled (it was 'Data' in one and
 * 'Emitida em' in the other, so the same column had two names between two files).
 */
export const REPORT_DATE_HEADERS: Record<ReportKind, string> = {
  cotacoes: 'Criada em',
  propostas: 'Enviada em',
  apolices: 'Emitida em',
  canceladas: 'Emitida em',
};

/**
 * The columns of every report, for both formats from this one table: [header, CSV text, XLSX cell].
 * The header names the kind's number and what its date is.
 */
export const reportColumns = (tipo: ReportKind): [string, (r: ReportRow) => string, (r: ReportRow) => XlsxCell][] => [
  [
    { cotacoes: 'Cotação', propostas: 'Proposta', apolices: 'Apólice', canceladas: 'Apólice' }[tipo],
    (r) => r.numero,
    (r) => text(r.numero),
  ],
  [
    REPORT_DATE_HEADERS[tipo],
    (r) => brasiliaDateTime.format(r.data).replace(', ', ' '),
    // A spreadsheet's dates have no time zone: the cell holds Brasília's wall clock (UTC−3 all year since 2019).
    (r) => ({ value: new Date(r.data.getTime() - BRASILIA_OFFSET_MS), type: Date, format: 'dd/mm/yyyy hh:mm' }),
  ],
  ['Produto', (r) => r.produto, (r) => text(r.produto)],
  ['Situação', (r) => r.situacao, (r) => text(r.situacao)],
  ['Segurado', (r) => r.segurado, (r) => text(r.segurado)],
  ['CPF/CNPJ', (r) => r.documento, (r) => text(r.documento)],
  ['Empresa', (r) => r.empresa, (r) => text(r.empresa)],
  ['Ponto de venda', (r) => r.pontoVenda, (r) => text(r.pontoVenda)],
  ['Vendedor', (r) => r.vendedor, (r) => text(r.vendedor)],
  ['Prêmio líquido', (r) => (r.premioLiquido === null ? '' : csvMoney(r.premioLiquido)), (r) => money(r.premioLiquido)],
  ['Prêmio total', (r) => (r.premioTotal === null ? '' : csvMoney(r.premioTotal)), (r) => money(r.premioTotal)],
  ['Forma de pagamento', (r) => r.formaPagamento, (r) => text(r.formaPagamento)],
  [
    'Cancelada em',
    (r) => (r.canceladaEm ? formatIsoDate(r.canceladaEm) : ''),
    (r) => (r.canceladaEm ? { value: new Date(`${r.canceladaEm}T12:00:00Z`), type: Date, format: 'dd/mm/yyyy' } : null),
  ],
];

/** csv-stringify's options: the portal's one set for every CSV (lib/csv.ts). */
export const REPORT_CSV_OPTIONS = CSV_OPTIONS;

export const reportFileName = (id: number, tipo: ReportKind, formato: ReportFormat) => `relatorio-vendas-${id}-${tipo}.${formato}`;
