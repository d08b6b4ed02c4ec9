import * as z from 'zod/mini';
import type { Cents } from './products/types';
import { formatBRL } from './products/money';
import { cnpjField, monthField, monthLabel } from './commissions';
import { nameProblem } from './documents';

/*
 * The nota fiscal a partner issues to the insurer for a closed month's commissions (issue 15;
 * decision 041): what may be sent (a PDF, by its magic bytes, or the XML of an NF-e/NFS-e, which has
 * none and is read as text here), how its amount is checked against the statement, and its states.
 * Pure: the island pre-checks with it, the server decides with it again.
 */

export type NotaStatus = 'ENVIADA' | 'APROVADA' | 'RECUSADA' | 'PAGA';

export const NOTA_STATUS_LABELS: Record<NotaStatus, string> = {
  ENVIADA: 'Enviada',
  APROVADA: 'Aprovada',
  RECUSADA: 'Recusada',
  PAGA: 'Paga',
};

export type NotaDecision = 'APROVAR' | 'RECUSAR' | 'PAGAR';

/** What the insurer's ADMIN may do to a nota in each state: a table, tested as one. */
export const NOTA_TRANSITIONS: Record<NotaDecision, { from: readonly NotaStatus[]; to: NotaStatus; label: string }> = {
  APROVAR: { from: ['ENVIADA'], to: 'APROVADA', label: 'Aprovar' },
  RECUSAR: { from: ['ENVIADA', 'APROVADA'], to: 'RECUSADA', label: 'Recusar' },
  PAGAR: { from: ['APROVADA'], to: 'PAGA', label: 'Registrar pagamento' },
};

/** The decisions a nota in this state still takes. */
export const decisionsFor = (status: NotaStatus): NotaDecision[] =>
  (Object.keys(NOTA_TRANSITIONS) as NotaDecision[]).filter((d) => NOTA_TRANSITIONS[d].from.includes(status));

/** The types accepted, by what the content is. */
export const NOTA_TYPES = {
  'application/pdf': { extension: 'pdf', label: 'PDF' },
  'application/xml': { extension: 'xml', label: 'XML' },
} as const;
export type NotaMime = keyof typeof NOTA_TYPES;

export const NOTA_ACCEPT = '.pdf,.xml';
/** A nota's PDF or XML is small: 5 MB is generous, and the route's own body limit (server/request-body.ts). */
export const NOTA_MAX_BYTES = 5 * 1024 * 1024;
export const NOTA_REASON_MAX = 500;

export const NOTA_MESSAGES = {
  noFile: 'Escolha o arquivo da nota fiscal (PDF ou XML).',
  empty: 'O arquivo está vazio (0 bytes): escolha outro.',
  tooLarge: 'O arquivo excede o limite de 5 MB.',
  type: 'Tipo de arquivo não permitido: envie o PDF ou o XML da nota fiscal.',
  numero: 'Informe o número da nota fiscal (só dígitos, até 15).',
  valor: 'Informe o valor da nota em reais, por exemplo 1.234,56.',
  competencia: 'Escolha a competência (mês) da nota.',
  reason: 'Informe o motivo da recusa.',
  reasonLong: `O motivo tem mais de ${NOTA_REASON_MAX} caracteres.`,
  decision: 'Decisão inválida.',
} as const;

/** Why a file is refused before its content is read (name, size); undefined when it may be sent. */
export function notaFileProblem(name: string, size: number): string | undefined {
  const badName = nameProblem(name);
  if (badName) return badName;
  if (size === 0) return NOTA_MESSAGES.empty;
  if (size > NOTA_MAX_BYTES) return NOTA_MESSAGES.tooLarge;
  if (!/\.(pdf|xml)$/i.test(name.trim())) return NOTA_MESSAGES.type;
  return undefined;
}

/** The name shown and downloaded: the given one with the extension of what the content is. */
export function notaFileName(name: string, mime: NotaMime): string {
  const { extension } = NOTA_TYPES[mime];
  const clean = name.normalize('NFC').trim();
  const dot = clean.lastIndexOf('.');
  const stem = dot > 0 ? clean.slice(0, dot) : clean;
  return clean.slice(dot + 1).toLowerCase() === extension && dot > 0 ? clean : `${stem}.${extension}`;
}

/** The upload's query: whose nota, of which month, its number and its amount in cents. */
export const notaUploadQuerySchema = z.object({
  empresa: cnpjField(),
  competencia: monthField(NOTA_MESSAGES.competencia),
  numero: z.string({ error: NOTA_MESSAGES.numero }).check(z.regex(/^\d{1,15}$/, NOTA_MESSAGES.numero)),
  valor: z.pipe(z.string({ error: NOTA_MESSAGES.valor }).check(z.regex(/^[1-9]\d{0,10}$/, NOTA_MESSAGES.valor)), z.transform(Number)),
});
export type NotaUpload = z.output<typeof notaUploadQuerySchema>;

export const notaDecisionSchema = z
  .object({
    decisao: z.enum(['APROVAR', 'RECUSAR', 'PAGAR'], { error: NOTA_MESSAGES.decision }),
    motivo: z.optional(z.string({ error: NOTA_MESSAGES.reason }).check(z.maxLength(NOTA_REASON_MAX, NOTA_MESSAGES.reasonLong))),
  })
  .check(
    z.refine((d) => d.decisao !== 'RECUSAR' || (d.motivo?.trim().length ?? 0) >= 3, {
      message: NOTA_MESSAGES.reason,
      path: ['motivo'],
    }),
  );

/** Why a nota's amount is refused against what the statement says is owed for its month; undefined when equal. */
export function notaAmountProblem(amount: Cents, payable: Cents, month: string): string | undefined {
  if (payable <= 0) return `Não há comissões a faturar em ${monthLabel(month)}: o saldo do mês é zero ou negativo.`;
  if (amount !== payable)
    return `O valor da nota (${formatBRL(amount)}) difere do total do extrato de ${monthLabel(month)} (${formatBRL(payable)}).`;
  return undefined;
}

/* ---------- The XML of an NF-e or NFS-e ---------- */

export type NotaXml =
  | { ok: true; kind: 'NF-e' | 'NFS-e'; amount?: Cents; issuerCnpj?: string; number?: string }
  | { ok: false; message: string };

/** Root elements of the layouts a partner's city or state gives them (local names, any prefix). */
const NFE_ROOTS = new Set(['nfeProc', 'NFe']);
const NFSE_ROOTS = new Set([
  'CompNfse',
  'Nfse',
  'NFSe',
  'ConsultarNfseResposta',
  'ConsultarNfseRpsResposta',
  'ConsultarNfseFaixaResposta',
  'GerarNfseResposta',
  'EnviarLoteRpsSincronoResposta',
]);
/** Elements holding the amount, by preference: the services' value (NFS-e ABRASF, national), then the NF-e's total. */
const AMOUNT_ELEMENTS = ['ValorServicos', 'vServ', 'vNF'] as const;
const NUMBER_ELEMENTS = ['nNFSe', 'Numero', 'nNF'] as const;
/** The issuer's CNPJ sits under one of these (NF-e and national NFS-e: emit; ABRASF: Prestador…). */
const ISSUER_PARENTS = new Set(['emit', 'Prestador', 'PrestadorServico', 'IdentificacaoPrestador']);

const XML_MESSAGES = {
  text: 'O arquivo XML não é um texto UTF-8 válido.',
  malformed: 'O arquivo XML está malformado: confira se é o XML da nota como a prefeitura ou a SEFAZ o emitiu.',
  dtd: 'XML com DTD ou entidades declaradas não é aceito.',
  notNota: 'O XML não é de uma NF-e nem de uma NFS-e.',
} as const;

const NAME = /^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?/;
const ENTITY = /^&(?:amp|lt|gt|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6});/;
const localName = (qualified: string) => qualified.slice(qualified.indexOf(':') + 1);

/**
 * Reads the XML of a nota: well-formed enough to be what a SEFAZ or a city issued (one root, every
 * tag closed in order, attributes quoted, entities known), without a DTD (no entity expansion, no
 * external fetch — there is no parser to trick: this scanner resolves nothing), with an NF-e or
 * NFS-e root; and what it says: the amount, the issuer's CNPJ, the number.
 */
export function readNotaXml(bytes: Uint8Array): NotaXml {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, message: XML_MESSAGES.text };
  }
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return { ok: false, message: XML_MESSAGES.dtd };
  const malformed = { ok: false, message: XML_MESSAGES.malformed } as const;
  const stack: string[] = [];
  let root: string | undefined;
  let closedRoot = false;
  const found: Record<string, string> = {};
  let issuerCnpj: string | undefined;
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let textStart = pos;

  const textRun = (from: number, to: number) => {
    const run = text.slice(from, to);
    if (stack.length === 0) return run.trim() === '';
    for (let i = run.indexOf('&'); i !== -1; i = run.indexOf('&', i + 1)) if (!ENTITY.test(run.slice(i))) return false;
    const current = stack.at(-1)!;
    const value = run.trim();
    if (value && found[current] === undefined) found[current] = value;
    if (
      value &&
      (current === 'CNPJ' || current === 'Cnpj') &&
      issuerCnpj === undefined &&
      stack.slice(0, -1).some((p) => ISSUER_PARENTS.has(p))
    )
      issuerCnpj = value;
    return true;
  };

  while (pos < text.length) {
    const open = text.indexOf('<', pos);
    if (open === -1) {
      if (!textRun(textStart, text.length)) return malformed;
      break;
    }
    if (!textRun(textStart, open)) return malformed;
    const rest = text.slice(open, open + 9);
    let end: number;
    if (rest.startsWith('<?')) {
      end = text.indexOf('?>', open + 2);
      if (end === -1) return malformed;
      end += 2;
    } else if (rest.startsWith('<!--')) {
      end = text.indexOf('-->', open + 4);
      if (end === -1) return malformed;
      end += 3;
    } else if (rest.startsWith('<![CDATA[')) {
      if (stack.length === 0) return malformed;
      end = text.indexOf(']]>', open + 9);
      if (end === -1) return malformed;
      const current = stack.at(-1)!;
      const value = text.slice(open + 9, end).trim();
      if (value && found[current] === undefined) found[current] = value;
      end += 3;
    } else if (rest.startsWith('</')) {
      const name = NAME.exec(text.slice(open + 2, open + 202))?.[0];
      if (!name) return malformed;
      end = text.indexOf('>', open + 2 + name.length);
      if (end === -1 || text.slice(open + 2 + name.length, end).trim() !== '') return malformed;
      if (stack.pop() !== localName(name)) return malformed;
      if (stack.length === 0) closedRoot = true;
      end += 1;
    } else {
      const name = NAME.exec(text.slice(open + 1, open + 201))?.[0];
      if (!name || closedRoot) return malformed;
      // Attributes: name="value" or name='value', until '>' or '/>'.
      let at = open + 1 + name.length;
      let selfClosing = false;
      for (;;) {
        while (/\s/.test(text[at] ?? '')) at += 1;
        if (text[at] === '>') break;
        if (text.startsWith('/>', at)) {
          selfClosing = true;
          at += 1;
          break;
        }
        const attribute = NAME.exec(text.slice(at, at + 200))?.[0];
        if (!attribute || at === open + 1 + name.length || !/\s/.test(text[at - 1] ?? '')) return malformed;
        at += attribute.length;
        while (/\s/.test(text[at] ?? '')) at += 1;
        if (text[at] !== '=') return malformed;
        at += 1;
        while (/\s/.test(text[at] ?? '')) at += 1;
        const quote = text[at];
        if (quote !== '"' && quote !== "'") return malformed;
        const close = text.indexOf(quote, at + 1);
        if (close === -1 || text.slice(at + 1, close).includes('<')) return malformed;
        at = close + 1;
      }
      if (at >= text.length) return malformed;
      const local = localName(name);
      if (stack.length === 0) root = local;
      if (selfClosing) {
        if (stack.length === 0) closedRoot = true;
      } else stack.push(local);
      end = at + 1;
    }
    pos = end;
    textStart = end;
  }
  if (!root || stack.length > 0 || !closedRoot) return malformed;
  const kind = NFE_ROOTS.has(root) ? 'NF-e' : NFSE_ROOTS.has(root) ? 'NFS-e' : undefined;
  if (!kind) return { ok: false, message: XML_MESSAGES.notNota };
  const amountText = AMOUNT_ELEMENTS.map((e) => found[e]).find((v) => v !== undefined);
  const amountMatch = amountText ? /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(amountText) : null;
  const number = NUMBER_ELEMENTS.map((e) => found[e]).find((v) => v !== undefined && /^\d{1,15}$/.test(v));
  return {
    ok: true,
    kind,
    ...(amountMatch ? { amount: Number(amountMatch[1]) * 100 + Number((amountMatch[2] ?? '0').padEnd(2, '0')) } : {}),
    ...(issuerCnpj && /^[0-9A-Z]{12}\d{2}$/.test(issuerCnpj) ? { issuerCnpj } : {}),
    ...(number ? { number } : {}),
  };
}

/** Why the XML's own figures are refused against what was typed and whose nota it is; undefined when they agree. */
export function notaXmlProblem(xml: Extract<NotaXml, { ok: true }>, typed: { valor: Cents; cnpj: string }): string | undefined {
  if (xml.amount === undefined) return 'O XML não traz o valor da nota (ValorServicos, vServ ou vNF).';
  if (xml.amount !== typed.valor) return `O valor do XML (${formatBRL(xml.amount)}) difere do valor informado (${formatBRL(typed.valor)}).`;
  if (xml.issuerCnpj && xml.issuerCnpj !== typed.cnpj) return 'O CNPJ do emitente do XML não é o da empresa da nota.';
  return undefined;
}
