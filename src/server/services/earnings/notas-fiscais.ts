import { fileTypeFromBuffer } from 'file-type';
import type { DB } from '../../db';
import { DomainError, invalid, forbidden, notFound, conflict } from '../../errors';
import { isClosedMonth, monthLabel, nextMonth } from '../../../lib/commissions';
import type { Download } from '../../../lib/download';
import { formatIsoDate } from '../../../lib/format';
import {
  NOTA_MESSAGES,
  NOTA_STATUS_LABELS,
  NOTA_TRANSITIONS,
  notaAmountProblem,
  notaFileName,
  notaFileProblem,
  notaXmlProblem,
  readNotaXml,
  type NotaDecision,
  type NotaMime,
  type NotaStatus,
  type NotaUpload,
} from '../../../lib/nota-fiscal';
import type { BeneficiaryScope } from '../../../lib/scope';
import { pagedOf, type Paged } from '../../../lib/list-query';
import { storedDownload, type FileStore } from '../../files';
import { balanceOf, beneficiaryMonths, type Beneficiary } from './commissions';

/*
 * The nota fiscal of a closed month's commissions (issue 15; decision 041): sent once per company and
 * month (again only after a refusal), its amount equal to the month's statement total, its file a PDF
 * (by magic bytes) or the XML of an NF-e/NFS-e (read as text: lib/nota-fiscal.ts readNotaXml); then
 * approved or refused by the insurer's ADMIN, and paid. Every check runs before the file is written,
 * and a row that cannot be inserted takes its file away with it: a refused nota leaves nothing behind.
 */

export interface NotaRow {
  id: number;
  empresa: { cnpj: string; nome: string };
  competencia: string;
  numero: string;
  valor: number;
  nome: string;
  mime: NotaMime;
  tamanho: number;
  status: NotaStatus;
  statusLabel: string;
  motivo: string | null;
  enviadaEm: string;
  enviadaPor: string;
  decididaEm: string | null;
  pagaEm: string | null;
}

const notasInScope = (db: DB, scope: BeneficiaryScope) =>
  db
    .selectFrom('notas_fiscais as n')
    .innerJoin('companies as c', 'c.id', 'n.company_id')
    .innerJoin('users as u', 'u.id', 'n.user_id')
    .$if(scope.kind === 'some', (qb) => {
      const ids = (scope as { companyIds: number[] }).companyIds;
      return ids.length === 0 ? qb.where('n.id', '<', 0) : qb.where('n.company_id', 'in', ids);
    });

const notaColumns = [
  'n.id',
  'n.competencia',
  'n.numero',
  'n.valor',
  'n.nome',
  'n.mime',
  'n.tamanho',
  'n.status',
  'n.motivo',
  'n.created_at',
  'n.decidida_em',
  'n.paga_em',
  'n.sha256',
  'c.cnpj',
  'c.razao_social',
  'u.nome as sender',
] as const;

type NotaColumns = {
  id: number;
  competencia: string;
  numero: string;
  valor: number;
  nome: string;
  mime: NotaMime;
  tamanho: number;
  status: NotaStatus;
  motivo: string | null;
  created_at: Date;
  decidida_em: Date | null;
  paga_em: Date | null;
  cnpj: string;
  razao_social: string;
  sender: string;
};

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

const notaOf = (row: NotaColumns): NotaRow => ({
  id: row.id,
  empresa: { cnpj: row.cnpj, nome: row.razao_social },
  competencia: row.competencia,
  numero: row.numero,
  valor: row.valor,
  nome: row.nome,
  mime: row.mime,
  tamanho: row.tamanho,
  status: row.status,
  statusLabel: NOTA_STATUS_LABELS[row.status],
  motivo: row.motivo,
  enviadaEm: new Date(row.created_at).toISOString(),
  enviadaPor: row.sender,
  decididaEm: iso(row.decidida_em),
  pagaEm: iso(row.paga_em),
});

/** The notas of one company, newest first: one a month at most, so all of them (what may be sent next reads them). */
export async function notasOfCompany(db: DB, scope: BeneficiaryScope, companyId: number) {
  const rows = await notasInScope(db, scope)
    .select(notaColumns)
    .where('n.company_id', '=', companyId)
    .orderBy('n.created_at', 'desc')
    .orderBy('n.id', 'desc')
    .execute();
  return rows.map(notaOf);
}

/** Notas per page of the list: an ADMIN's list holds every partner's months. */
export const NOTAS_PAGE_SIZE = 20;

/** A page of the notas a scope sees, filtered, newest first. */
export async function pageOfNotas(
  db: DB,
  scope: BeneficiaryScope,
  filters: { companyId?: number; status?: NotaStatus },
  page: number,
): Promise<Paged<ReturnType<typeof notaOf>>> {
  const filtered = notasInScope(db, scope)
    .$if(filters.companyId !== undefined, (qb) => qb.where('n.company_id', '=', filters.companyId!))
    .$if(filters.status !== undefined, (qb) => qb.where('n.status', '=', filters.status!));
  const [rows, { total }] = await Promise.all([
    filtered
      .select(notaColumns)
      .orderBy('n.created_at', 'desc')
      .orderBy('n.id', 'desc')
      .limit(NOTAS_PAGE_SIZE)
      .offset((page - 1) * NOTAS_PAGE_SIZE)
      .execute(),
    filtered.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return pagedOf(rows.map(notaOf), total, page, NOTAS_PAGE_SIZE);
}

/** A company's nota of a month that stands (not refused), if any. */
export async function standingNota(db: DB, companyId: number, month: string): Promise<NotaRow | undefined> {
  const row = await notasInScope(db, { kind: 'all' })
    .select(notaColumns)
    .where('n.company_id', '=', companyId)
    .where('n.competencia', '=', month)
    .where('n.status', '<>', 'RECUSADA')
    .executeTakeFirst();
  return row ? notaOf(row) : undefined;
}

const MESSAGES = {
  open: (month: string) =>
    `A competência ${monthLabel(month)} ainda não foi fechada: a nota pode ser enviada a partir de ${formatIsoDate(`${nextMonth(month)}-01`)}.`,
  twice: (month: string, status: NotaStatus) =>
    `Já existe uma nota fiscal desta empresa para ${monthLabel(month)} (situação: ${NOTA_STATUS_LABELS[status].toLowerCase()}). Só uma nota recusada pode ser enviada de novo.`,
  issuer: 'A nota fiscal é emitida pelo parceiro: o administrador da seguradora não a envia.',
  notFound: 'Nota fiscal não encontrada.',
  transition: (decision: NotaDecision, status: NotaStatus) =>
    `Uma nota ${NOTA_STATUS_LABELS[status].toLowerCase()} não pode ser ${decision === 'APROVAR' ? 'aprovada' : decision === 'RECUSAR' ? 'recusada' : 'marcada como paga'}.`,
} as const;

/** The first byte after a UTF-8 BOM and whitespace is '<'. */
function startsLikeXml(bytes: Uint8Array): boolean {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i += 1;
  return bytes[i] === 0x3c;
}

const fileError = (kind: 'invalid' | 'too-large', message: string) => new DomainError(kind, message, { arquivo: [message] });

/** What the bytes are: a PDF by its magic bytes, or the XML of a nota read as text; a 400 otherwise. */
export async function checkNotaFile(
  name: string,
  bytes: Uint8Array,
  upload: Pick<NotaUpload, 'valor'> & { cnpj: string },
): Promise<{ mime: NotaMime; nome: string }> {
  const problem = notaFileProblem(name, bytes.byteLength);
  if (problem) throw fileError(bytes.byteLength > 0 && problem === NOTA_MESSAGES.tooLarge ? 'too-large' : 'invalid', problem);
  const detected = await fileTypeFromBuffer(bytes);
  if (detected?.mime === 'application/pdf') return { mime: 'application/pdf', nome: notaFileName(name, 'application/pdf') };
  // XML has no magic bytes: file-type answers undefined (or 'application/xml' for some prologs); what
  // does not even open with '<' (after a BOM and blanks) is no XML at all — an unknown binary, a text.
  if (detected && detected.mime !== 'application/xml') throw fileError('invalid', NOTA_MESSAGES.type);
  if (!startsLikeXml(bytes)) throw fileError('invalid', NOTA_MESSAGES.type);
  const xml = readNotaXml(bytes);
  if (!xml.ok) throw fileError('invalid', xml.message);
  const mismatch = notaXmlProblem(xml, { valor: upload.valor, cnpj: upload.cnpj });
  if (mismatch) throw fileError('invalid', mismatch);
  return { mime: 'application/xml', nome: notaFileName(name, 'application/xml') };
}

/**
 * Whether a company may send the nota of a month now: the month closed, no nota standing, something
 * owed and the amount equal to it. Each refusal is a pt-BR message under its field.
 */
export async function checkNotaMonth(db: DB, company: Beneficiary, upload: Pick<NotaUpload, 'competencia' | 'valor'>, today: string) {
  const month = upload.competencia;
  if (!isClosedMonth(month, today)) throw invalid(MESSAGES.open(month), { competencia: [MESSAGES.open(month)] });
  const standing = await standingNota(db, company.id, month);
  if (standing) throw conflict(MESSAGES.twice(month, standing.status), { competencia: [MESSAGES.twice(month, standing.status)] });
  const { payable } = balanceOf(await beneficiaryMonths(db, company), month);
  const wrong = notaAmountProblem(upload.valor, payable, month);
  if (wrong) throw invalid(wrong, { valor: [wrong] });
  return payable;
}

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

/** Deletes a file no row points to any more (a nota that could not be inserted). */
async function dropIfUnreferenced(db: DB, files: FileStore, sha256: string) {
  const [document, nota] = await Promise.all([
    db.selectFrom('documents').select('id').where('sha256', '=', sha256).executeTakeFirst(),
    db.selectFrom('notas_fiscais').select('id').where('sha256', '=', sha256).executeTakeFirst(),
  ]);
  if (!document && !nota) await files.remove(sha256);
}

/**
 * Stores a checked nota: the file by its hash, then its row — checked again against the month inside
 * the transaction that inserts it, and held to one standing nota per month by the unique index.
 */
export async function storeNota(
  db: DB,
  files: FileStore,
  input: { company: Beneficiary; userId: number; upload: NotaUpload; file: { mime: NotaMime; nome: string }; bytes: Uint8Array },
  now: Date,
  today: string,
): Promise<NotaRow> {
  const sha256 = await files.storeBytes(input.bytes);
  try {
    const id = await db.transaction().execute(async (trx) => {
      await checkNotaMonth(trx, input.company, input.upload, today);
      const row = await trx
        .insertInto('notas_fiscais')
        .values({
          company_id: input.company.id,
          competencia: input.upload.competencia,
          numero: input.upload.numero,
          valor: input.upload.valor,
          nome: input.file.nome,
          mime: input.file.mime,
          tamanho: input.bytes.byteLength,
          sha256,
          user_id: input.userId,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
    return (await findNota(db, { kind: 'all' }, id))!;
  } catch (error) {
    await dropIfUnreferenced(db, files, sha256);
    if (isUniqueViolation(error)) {
      const standing = await standingNota(db, input.company.id, input.upload.competencia);
      const message = MESSAGES.twice(input.upload.competencia, standing?.status ?? 'ENVIADA');
      throw conflict(message, { competencia: [message] });
    }
    throw error;
  }
}

export async function findNota(db: DB, scope: BeneficiaryScope, id: number): Promise<NotaRow | undefined> {
  const row = await notasInScope(db, scope).select(notaColumns).where('n.id', '=', id).executeTakeFirst();
  return row ? notaOf(row) : undefined;
}

/** The ADMIN's decision on a nota: approve, refuse with a reason, or record it paid — by the table of transitions. */
export async function decideNota(
  db: DB,
  adminId: number,
  id: number,
  decision: { decisao: NotaDecision; motivo?: string },
  now: Date,
): Promise<NotaRow> {
  await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('notas_fiscais').select(['status']).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!row) throw notFound(MESSAGES.notFound);
    const transition = NOTA_TRANSITIONS[decision.decisao];
    if (!transition.from.includes(row.status)) throw conflict(MESSAGES.transition(decision.decisao, row.status));
    await trx
      .updateTable('notas_fiscais')
      .set({
        status: transition.to,
        ...(decision.decisao === 'PAGAR'
          ? { paga_em: now }
          : { decidida_por: adminId, decidida_em: now, motivo: decision.decisao === 'RECUSAR' ? decision.motivo!.trim() : null }),
      })
      .where('id', '=', id)
      .execute();
  });
  return (await findNota(db, { kind: 'all' }, id))!;
}

export const notaNotFound = () => notFound(MESSAGES.notFound);
export const adminDoesNotIssue = () => forbidden(MESSAGES.issuer);

/** A nota's file as a download, with the type it was found to be; undefined outside the scope. */
export async function notaFile(db: DB, files: FileStore, scope: BeneficiaryScope, id: number): Promise<Download | undefined> {
  const row = await notasInScope(db, scope).select(['n.nome', 'n.mime', 'n.sha256']).where('n.id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  return storedDownload(files, row.sha256, { fileName: row.nome, type: row.mime });
}
