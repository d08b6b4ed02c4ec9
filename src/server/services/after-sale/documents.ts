import { startOfBrasiliaDay, startOfNextBrasiliaDay } from '../../../lib/calendar';
import type { Download } from '../../../lib/download';
import { sql } from 'kysely';
import type { DB } from '../../db';
import type { Generation } from '../../db/schema';
import { DomainError, notFound } from '../../errors';
import { isDecided, PROPOSAL_STATUS_LABELS, type ProposalStatus } from '../../../lib/acceptance';
import {
  DOCUMENT_CATEGORIES,
  DOCUMENTS_PAGE_SIZE,
  type DocumentCategory,
  type DocumentFilters,
  type DocumentMime,
} from '../../../lib/documents';
import { removalProblem } from '../../../lib/document-limits';
import { maskDocument } from '../../../lib/history';
import { readKeysetPage, readRankedPage } from '../../db/keyset-page';
import { isNameSearch, NAME_SEARCH_LIMIT } from '../../../lib/insured-search';
import type { KeysetPage, PageRequest } from '../../../lib/keyset-pages';
import type { Scope } from '../../../lib/scope';
import { productFor } from '../../../lib/products/catalog';
import { stepPath } from '../../../lib/quote-flow';
import type { ProductLine } from '../../../lib/simulators';
import { storedDownload, type FileStore } from '../../files';
import { documentRemoved } from './acceptance';
import { insuredMatches, insuredRank, nameMatches } from './policies';
import { soldWithin, soldWithinBranches } from '../identity/scope';
import { recordDataAccess } from '../identity/access-log';
import type { SessionViewer } from '../../../lib/session';

/*
 * Every query here is scoped by the sale (documentScope: like the policy, and the seller's own sales) —
 * a proposal by its quote's company and seller, a document by the same columns it carries (migration
 * 035, kept equal to its quote's by the database) —, so a document of another company's sale is a 404
 * wherever it is asked for: list, upload, download or removal.
 */

/** The proposals (and their quote, and policy once issued) of a generation a scope sees. */
const proposalsInScope = (db: DB, scope: Scope, generation: Generation) =>
  db
    .selectFrom('proposals as p')
    .innerJoin('quotes as q', 'q.id', 'p.quote_id')
    .leftJoin('policies as a', 'a.proposal_id', 'p.id')
    .where((eb) => soldWithin(scope, eb.ref('q.user_id'), eb.ref('q.company_id')))
    .where('q.generation', '=', generation);

/*
 * The documents of a proposal and of the policy it became (issue 14, decision 040), and removing one
 * sent by mistake (issue 27, decision 057). Uploads and their limits: services/after-sale/document-uploads.ts.
 */

/** A proposal as the upload page shows it. */
export interface DocumentProposal {
  id: number;
  nrProposta: string;
  nrCotacao: string;
  nrApolice: string | null;
  status: ProposalStatus;
  statusLabel: string;
  /** The documents the insurer asked for, while it waits for them. */
  motivo: string | null;
  /** The insurer's last request for documents, awaited or answered (only a request writes it before a decision). */
  pedido: string | null;
  nomeSegurado: string;
  productName: string;
  /** The proposal's page in the simulator (its timeline and clock). */
  href: string;
}

const proposalColumns = [
  'p.id',
  'p.nr_proposta',
  'p.status',
  'p.motivo',
  'q.nr_cotacao',
  'q.nome_segurado',
  'q.simulator_code',
  'q.line',
  'q.generation',
  'a.nr_apolice',
] as const;

type ProposalColumns = {
  id: number;
  nr_proposta: string;
  status: ProposalStatus;
  motivo: string | null;
  nr_cotacao: string;
  nome_segurado: string;
  simulator_code: string;
  line: string;
  generation: Generation;
  nr_apolice: string | null;
};

const proposalOf = (row: ProposalColumns): DocumentProposal => {
  const product = productFor(row.simulator_code);
  return {
    id: row.id,
    nrProposta: row.nr_proposta,
    nrCotacao: row.nr_cotacao,
    nrApolice: row.nr_apolice,
    status: row.status,
    statusLabel: PROPOSAL_STATUS_LABELS[row.status],
    motivo: row.status === 'AGUARDANDO_DOCUMENTOS' ? row.motivo : null,
    pedido: isDecided(row.status) ? null : row.motivo,
    nomeSegurado: row.nome_segurado,
    productName: product?.name ?? row.simulator_code,
    href: stepPath(row.generation, row.line as ProductLine, product?.finalStep ?? 'proposta', row.nr_cotacao, {
      action: 'visualizar',
      sent: true,
      pinned: true,
    }),
  };
};

/** The proposal a number names — its own, or its policy's — when the scope sees it; undefined: a 404. */
export async function proposalInScope(
  db: DB,
  scope: Scope,
  generation: Generation,
  ref: { nrProposta: string } | { nrApolice: string },
): Promise<DocumentProposal | undefined> {
  const row = await proposalsInScope(db, scope, generation)
    .select(proposalColumns)
    .$call((qb) => ('nrProposta' in ref ? qb.where('p.nr_proposta', '=', ref.nrProposta) : qb.where('a.nr_apolice', '=', ref.nrApolice)))
    .executeTakeFirst();
  return row ? proposalOf(row) : undefined;
}

/** The proposals of a scope waiting for documents, the oldest request first: where the upload page starts. */
export async function proposalsAwaitingDocuments(db: DB, scope: Scope, generation: Generation): Promise<DocumentProposal[]> {
  const rows = await proposalsInScope(db, scope, generation)
    .select(proposalColumns)
    .where('p.status', '=', 'AGUARDANDO_DOCUMENTOS')
    .orderBy('p.suspensa_desde')
    .limit(20)
    .execute();
  return rows.map(proposalOf);
}

export interface DocumentRow {
  id: number;
  nome: string;
  categoria: DocumentCategory;
  categoriaLabel: string;
  mime: DocumentMime;
  tamanho: number;
  enviadoEm: string;
  enviadoPor: string;
  nrProposta: string;
  nrApolice: string | null;
  nomeSegurado: string;
  /** Masked: a list never shows a whole CPF. */
  documentoSegurado: string;
  /** Whether the one asking may remove it (lib/document-limits.ts removalProblem): who sent it, before the decision. */
  podeRemover: boolean;
}

/**
 * The documents of a scope, removed ones left out, with their proposal and policy: the download's and
 * the removal's query, by the sale's scope the document carries (as the list's branches read it).
 */
const documentsInScope = (db: DB, scope: Scope, generation: Generation) =>
  db
    .selectFrom('documents as d')
    .innerJoin('proposals as p', 'p.id', 'd.proposal_id')
    .leftJoin('policies as a', 'a.proposal_id', 'p.id')
    .where('d.removido_em', 'is', null)
    .where((eb) => soldWithin(scope, eb.ref('d.seller_id'), eb.ref('d.company_id')))
    .where('d.generation', '=', generation);

const documentColumns = [
  'd.id',
  'd.nome',
  'd.categoria',
  'd.mime',
  'd.tamanho',
  'd.created_at',
  'u.nome as sender',
  'p.nr_proposta',
  'a.nr_apolice',
  'q.nome_segurado',
  'q.documento_segurado',
  'd.user_id as sender_id',
  'p.status as proposal_status',
] as const;

export const documentRowOf = (
  row: {
    id: number;
    nome: string;
    categoria: DocumentCategory;
    mime: DocumentMime;
    tamanho: number;
    created_at: Date;
    sender: string;
    nr_proposta: string;
    nr_apolice: string | null;
    nome_segurado: string;
    documento_segurado: string;
    sender_id: number;
    proposal_status: ProposalStatus;
  },
  viewerId?: number,
): DocumentRow => ({
  id: row.id,
  nome: row.nome,
  categoria: row.categoria,
  categoriaLabel: DOCUMENT_CATEGORIES[row.categoria] ?? row.categoria,
  mime: row.mime,
  tamanho: row.tamanho,
  enviadoEm: new Date(row.created_at).toISOString(),
  enviadoPor: row.sender,
  nrProposta: row.nr_proposta,
  nrApolice: row.nr_apolice,
  nomeSegurado: row.nome_segurado,
  documentoSegurado: maskDocument(row.documento_segurado),
  podeRemover: viewerId !== undefined && row.sender_id === viewerId && !isDecided(row.proposal_status),
});

/** One document of the scope, as the list shows it (after an upload, to answer with it). */
export const documentRowQuery = (db: DB) =>
  db
    .selectFrom('documents as d')
    .innerJoin('proposals as p', 'p.id', 'd.proposal_id')
    .innerJoin('quotes as q', 'q.id', 'p.quote_id')
    .leftJoin('policies as a', 'a.proposal_id', 'p.id')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .select(documentColumns);

/**
 * The documents a scope sees, as disjoint branches of it (identity/scope.ts soldWithinBranches) on the
 * sale's scope each document carries (migration 035) — each an index range newest first, on
 * documents_(company|seller)_generation_created, documents_generation_created or, by category,
 * documents_generation_category_created —, filtered (lib/documents.ts parseDocumentQuery). A filter on
 * the proposal, the policy or the insured names the proposals it keeps: the branch stays one table, so
 * its bounded count reads the index alone, and what a row shows is joined for the page's rows only
 * (listDocuments' columns). The insured's name is searched on the document's own copy of it (migration
 * 055), through its trigram index; a CPF/CNPJ on the quotes of the branch's own scope (the same
 * condition on the quote's columns, which the document's equal), so a company's search reads the
 * company's quotes of that document rather than everyone's.
 */
const documentBranches = (db: DB, scope: Scope, generation: Generation, filters: DocumentFilters) => {
  const quotesOfBranch = soldWithinBranches(scope, sql.ref('sq.user_id'), sql.ref('sq.company_id'));
  return soldWithinBranches(scope, sql.ref('d.seller_id'), sql.ref('d.company_id')).map((within, branch) =>
    db
      .selectFrom('documents as d')
      .where('d.removido_em', 'is', null)
      .where(within)
      .where('d.generation', '=', generation)
      .$if(filters.nrProposta !== undefined, (qb) =>
        qb.where('d.proposal_id', 'in', db.selectFrom('proposals').select('id').where('nr_proposta', '=', filters.nrProposta!)),
      )
      .$if(filters.nrApolice !== undefined, (qb) =>
        qb.where('d.proposal_id', 'in', db.selectFrom('policies').select('proposal_id').where('nr_apolice', '=', filters.nrApolice!)),
      )
      .$if(isNameSearch(filters.segurado), (qb) => qb.where((eb) => nameMatches(filters.segurado!, eb.ref('d.nome_busca'))))
      .$if(filters.segurado !== undefined && !isNameSearch(filters.segurado), (qb) =>
        qb.where(
          'd.proposal_id',
          'in',
          db
            .selectFrom('proposals as sp')
            .innerJoin('quotes as sq', 'sq.id', 'sp.quote_id')
            .select('sp.id')
            .where(quotesOfBranch[branch]!)
            .where('sq.generation', '=', generation)
            .where((eb) => insuredMatches(filters.segurado!, eb.ref('sq.nome_busca'), eb.ref('sq.documento_segurado'))),
        ),
      )
      .$if(filters.categoria !== undefined, (qb) => qb.where('d.categoria', '=', filters.categoria!))
      .$if(filters.de !== undefined, (qb) => qb.where('d.created_at', '>=', startOfBrasiliaDay(filters.de!)))
      .$if(filters.ate !== undefined, (qb) => qb.where('d.created_at', '<', startOfNextBrasiliaDay(filters.ate!))),
  );
};

type DocumentBranch = ReturnType<typeof documentBranches>[number];

/**
 * A keyset page (lib/keyset-pages.ts) of the documents a scope sees, newest first by (created_at, id),
 * filtered; counted only up to COUNT_LIMIT. A name search reads a bounded set of its matches, closest
 * name first (readRankedPage, issue 42).
 */
export async function listDocuments(
  db: DB,
  scope: Scope,
  generation: Generation,
  filters: DocumentFilters,
  request: PageRequest,
  pageSize = DOCUMENTS_PAGE_SIZE,
  viewerId?: number,
): Promise<KeysetPage<DocumentRow>> {
  const list = {
    branches: documentBranches(db, scope, generation, filters),
    time: 'd.created_at',
    id: 'd.id',
    columns: (branch: DocumentBranch) =>
      branch
        .innerJoin('proposals as p', 'p.id', 'd.proposal_id')
        .innerJoin('quotes as q', 'q.id', 'p.quote_id')
        .leftJoin('policies as a', 'a.proposal_id', 'p.id')
        .innerJoin('users as u', 'u.id', 'd.user_id')
        .select(documentColumns),
  };
  const read = isNameSearch(filters.segurado)
    ? await readRankedPage(
        db,
        { ...list, rank: insuredRank(filters.segurado, sql.ref('d.nome_busca')) },
        request.page,
        pageSize,
        NAME_SEARCH_LIMIT,
      )
    : await readKeysetPage(db, list, request, pageSize);
  return { ...read, content: read.content.map((row) => documentRowOf(row, viewerId)) };
}

export interface DocumentFile {
  nome: string;
  mime: DocumentMime;
  tamanho: number;
  /** Its bytes' hash: their name in the file store. */
  sha256: string;
  /** The proposal it was sent for, and the policy it became (for the access log's detail). */
  nrProposta: string;
  nrApolice: string | null;
}

const fileColumns = ['d.nome', 'd.mime', 'd.tamanho', 'd.sha256', 'p.nr_proposta', 'a.nr_apolice'] as const;

const fileOf = (row: {
  nome: string;
  mime: DocumentMime;
  tamanho: number;
  sha256: string;
  nr_proposta: string;
  nr_apolice: string | null;
}): DocumentFile => ({
  nome: row.nome,
  mime: row.mime,
  tamanho: row.tamanho,
  sha256: row.sha256,
  nrProposta: row.nr_proposta,
  nrApolice: row.nr_apolice,
});

/** A document of the scope, to be downloaded; undefined when this viewer may not see it (a 404). */
export async function documentFile(db: DB, scope: Scope, generation: Generation, id: number): Promise<DocumentFile | undefined> {
  const row = await documentsInScope(db, scope, generation).select(fileColumns).where('d.id', '=', id).executeTakeFirst();
  return row ? fileOf(row) : undefined;
}

/**
 * A document for the insurer's underwriter, from the analysis queue (decision 057): the queue decides
 * both generations' proposals, so — unlike every partner's page, where a generation sees its own — any
 * document that was not removed. The caller checked that the viewer is the provider's ADMIN.
 */
export async function underwriterDocumentFile(db: DB, id: number): Promise<DocumentFile | undefined> {
  const row = await db
    .selectFrom('documents as d')
    .innerJoin('proposals as p', 'p.id', 'd.proposal_id')
    .leftJoin('policies as a', 'a.proposal_id', 'p.id')
    .select(fileColumns)
    .where('d.id', '=', id)
    .where('d.removido_em', 'is', null)
    .executeTakeFirst();
  return row ? fileOf(row) : undefined;
}

/** A document handed out, for the access log: its id, and the proposal (or policy) it belongs to. */
export const recordDocumentDownload = (db: DB, viewer: SessionViewer, ip: string, id: number | string, file: DocumentFile) =>
  recordDataAccess(
    db,
    viewer,
    ip,
    'documento.arquivo',
    String(id),
    file.nrApolice ? `apólice ${file.nrApolice}` : `proposta ${file.nrProposta}`,
  );

/** The 404 of a proposal or document the viewer may not see — the same whether it exists or not. */
export const documentNotFound = (what: 'proposta' | 'documento') =>
  notFound(what === 'proposta' ? 'Proposta não encontrada.' : 'Documento não encontrado.');

/** A document as a download, saved under its name with the type its content was found to be. */
export const documentDownload = (files: FileStore, file: DocumentFile): Promise<Download> =>
  // Opened before any header: a file the store lost is a 404 that says so, never a cut 200.
  storedDownload(files, file.sha256, { fileName: file.nome, type: file.mime });

export interface RemovedDocument {
  removido: true;
  /** The removal left the insurer's request for documents unanswered: the clock stopped again. */
  suspensa: boolean;
}

/**
 * Removes a document sent by mistake (decision 057): one the scope sees (else 404), by whoever sent
 * it (else 403), while the insurer has not decided its proposal (else 409). The row stays, marked,
 * out of every list and download; the sweeper takes its file once no row points at it. The
 * proposal's timeline records it, and the clock stops again when what answered the insurer goes.
 */
export async function removeDocument(
  db: DB,
  scope: Scope,
  generation: Generation,
  viewerId: number,
  id: number,
  now: Date,
): Promise<RemovedDocument> {
  return db.transaction().execute(async (trx) => {
    const row = await documentsInScope(trx, scope, generation)
      .select(['d.id', 'd.user_id', 'd.nome', 'd.categoria', 'p.nr_proposta', 'p.status'])
      .where('d.id', '=', id)
      .forUpdate('d')
      .executeTakeFirst();
    if (!row) throw documentNotFound('documento');
    const problem = removalProblem({ senderId: row.user_id, proposalStatus: row.status }, viewerId);
    if (problem) throw new DomainError(problem.kind, problem.message);
    await trx.updateTable('documents').set({ removido_em: now, removido_por: viewerId }).where('id', '=', row.id).execute();
    const detalhe = `${DOCUMENT_CATEGORIES[row.categoria]}: ${row.nome}`;
    const suspensa = await documentRemoved(trx, viewerId, row.nr_proposta, detalhe, row.id, now);
    return { removido: true, suspensa };
  });
}
