import * as z from 'zod/mini';
import { isoDateField, oneOf, optionalField, pageField, parseListQuery, type ParsedListQuery } from './list-query';
import { nrApoliceField, seguradoField } from './policies';

/*
 * The documents of a proposal or policy (issue 14, DESIGN §10): what may be sent, the checks a file's
 * name and size pass before its content is looked at (server/document-content.ts), and the filters of
 * the list. Pure: the upload island pre-checks with it, and the server decides with it again.
 */

/** What a document is, as the partner picks it. Data: a new kind is a new row. */
export const DOCUMENT_CATEGORIES = {
  IDENTIFICACAO: 'Documento de identificação (RG/CNH)',
  COMPROVANTE_RESIDENCIA: 'Comprovante de residência',
  LAUDO_VISTORIA: 'Laudo de vistoria',
  NOTA_FISCAL: 'Nota fiscal do bem',
  DECLARACAO_SAUDE: 'Declaração de saúde',
  OUTRO: 'Outro',
} as const;
export type DocumentCategory = keyof typeof DOCUMENT_CATEGORIES;

/** The types accepted, by the MIME type their magic bytes give (never the extension nor the browser's word). */
export const DOCUMENT_TYPES = {
  'application/pdf': { extension: 'pdf', label: 'PDF' },
  'image/jpeg': { extension: 'jpg', label: 'JPEG' },
  'image/png': { extension: 'png', label: 'PNG' },
} as const;
export type DocumentMime = keyof typeof DOCUMENT_TYPES;

/** What the file input offers; the server still judges by content. */
export const DOCUMENT_ACCEPT = '.pdf,.jpg,.jpeg,.png';

/** At most 10 MB a file: the upload route's own body limit (server/request-body.ts, decision 040). */
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
export const DOCUMENT_NAME_MAX = 150;

export const DOCUMENT_MESSAGES = {
  empty: 'O arquivo está vazio (0 bytes): escolha outro.',
  tooLarge: 'O arquivo excede o limite de 10 MB.',
  type: 'Tipo de arquivo não permitido: envie um PDF, JPEG ou PNG.',
  missingName: 'Informe o nome do arquivo.',
  longName: `O nome do arquivo tem mais de ${DOCUMENT_NAME_MAX} caracteres: renomeie-o.`,
  path: 'O nome do arquivo não pode conter um caminho (/, \\ ou unidade como C:).',
  control: 'O nome do arquivo contém caracteres de controle: renomeie-o.',
  category: 'Escolha o tipo do documento.',
  noFile: 'Escolha um arquivo.',
} as const;

/** The header the upload carries the file's name in, percent-encoded (decision 040: a raw body). */
export const DOCUMENT_NAME_HEADER = 'x-nome-arquivo';

// C0 and C1 controls, and the bidirectional overrides that make 'fdp.exe' read as 'exe.pdf'.
const CONTROL = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const PATH = /[/\\]|^[a-z]:/i;

/** Why a file's name is refused, in the order a user would fix it; undefined when it may be stored. */
export function nameProblem(name: string): string | undefined {
  if (name.trim() === '') return DOCUMENT_MESSAGES.missingName;
  if (CONTROL.test(name)) return DOCUMENT_MESSAGES.control;
  if (PATH.test(name) || name.trim() === '.' || name.trim() === '..') return DOCUMENT_MESSAGES.path;
  if (name.length > DOCUMENT_NAME_MAX) return DOCUMENT_MESSAGES.longName;
  return undefined;
}

/** Why a size is refused; undefined when it is within 1 byte and 10 MB. */
export const sizeProblem = (bytes: number): string | undefined =>
  bytes === 0 ? DOCUMENT_MESSAGES.empty : bytes > DOCUMENT_MAX_BYTES ? DOCUMENT_MESSAGES.tooLarge : undefined;

/**
 * The name shown and sent back on download: the one given, trimmed and in NFC, with the extension of
 * what the content is — a PDF called 'foto.png' downloads as 'foto.pdf', one without extension gets it.
 */
export function displayName(name: string, mime: DocumentMime): string {
  const { extension } = DOCUMENT_TYPES[mime];
  const clean = name.normalize('NFC').trim();
  const dot = clean.lastIndexOf('.');
  const stem = dot > 0 ? clean.slice(0, dot) : clean;
  const current = dot > 0 ? clean.slice(dot + 1).toLowerCase() : '';
  const same = current === extension || (extension === 'jpg' && current === 'jpeg');
  return same ? clean : `${stem}.${extension}`;
}

/** A file size as people read it: '850 KB', '2,4 MB'. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} MB`;
}

/** A proposal number, as its digits. */
const NR_PROPOSTA_MESSAGE = 'Número de proposta inválido: use só os dígitos.';
export const nrPropostaField = z.string({ error: NR_PROPOSTA_MESSAGE }).check(z.regex(/^\d{1,20}$/, NR_PROPOSTA_MESSAGE));

export const categoryField = oneOf(Object.keys(DOCUMENT_CATEGORIES) as DocumentCategory[], DOCUMENT_MESSAGES.category, (v) =>
  v.toUpperCase(),
);

export const DOCUMENTS_PAGE_SIZE = 10;
export const DOCUMENT_FIELDS = ['nrProposta', 'nrApolice', 'segurado', 'categoria', 'de', 'ate'] as const;

const FILTER_MESSAGES = {
  categoria: 'Tipo de documento inválido.',
  de: 'Data inicial inválida.',
  ate: 'Data final inválida.',
  periodo: 'A data final não pode ser anterior à inicial.',
  page: 'Página inválida.',
} as const;

const documentQuerySchema = z
  .object({
    nrProposta: optionalField(nrPropostaField),
    nrApolice: optionalField(nrApoliceField),
    segurado: optionalField(seguradoField),
    categoria: optionalField(
      oneOf(Object.keys(DOCUMENT_CATEGORIES) as DocumentCategory[], FILTER_MESSAGES.categoria, (v) => v.toUpperCase()),
    ),
    /** Sent on or after this day, and on or before `ate` (Brasília calendar days). */
    de: optionalField(isoDateField(FILTER_MESSAGES.de)),
    ate: optionalField(isoDateField(FILTER_MESSAGES.ate)),
    page: optionalField(pageField(FILTER_MESSAGES.page)),
  })
  .check(z.refine((q) => !q.de || !q.ate || q.de <= q.ate, { message: FILTER_MESSAGES.periodo, path: ['ate'] }));

export type DocumentFilters = Omit<z.output<typeof documentQuerySchema>, 'page'>;

/** Reads the list's filters from an address; every bad value is a field error in pt-BR. */
export const parseDocumentQuery = (query: URLSearchParams | Record<string, unknown>): ParsedListQuery<DocumentFilters> =>
  parseListQuery(documentQuerySchema, query);

/** The addresses of the documents' pages, per generation. */
const DOCUMENT_PAGES = {
  v1: { envio: '/documentos/envio', consulta: '/documentos/consulta', arquivo: '/documentos/arquivo' },
  v2: { envio: '/v2/documentos/envio', consulta: '/v2/documentos/consulta', arquivo: '/v2/documentos/arquivo' },
} as const;

export const documentPages = (generation: 'v1' | 'v2') => DOCUMENT_PAGES[generation];

/** The upload page of a proposal, or of a policy's proposal. */
export const uploadHref = (generation: 'v1' | 'v2', ref: { proposta: string } | { apolice: string }) =>
  `${DOCUMENT_PAGES[generation].envio}?${new URLSearchParams(ref)}`;

/** A document's download: a page route, so a foreign one is the portal's 404 page. */
export const downloadHref = (generation: 'v1' | 'v2', id: number) => `${DOCUMENT_PAGES[generation].arquivo}/${id}`;

/**
 * A document's download from the underwriter's queue (/v2/propostas/analise, the insurer's ADMIN):
 * the queue holds both generations' proposals, so its downloads do too (decision 057).
 */
export const underwriterDownloadHref = (id: number) => `/v2/propostas/analise/documentos/${id}`;
