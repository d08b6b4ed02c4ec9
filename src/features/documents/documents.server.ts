import * as z from 'zod/mini';
import { notFoundAsUndefined, recordIdOf } from '../controller.server';
import { downloadResponse } from '../../server/api/download';
import { database } from '../../server/boot/database';
import { DOCUMENT_CATEGORIES, DOCUMENT_FIELDS, documentPages, nrPropostaField, parseDocumentQuery } from '../../lib/documents';
import { nrApoliceField } from '../../lib/policies';
import { viewerOf, type PortalSession } from '../../lib/session';
import { pageAccess } from '../../lib/route-guards';
import type { UploadUsage } from '../../lib/document-limits';
import { config } from '../../server/config';
import { now } from '../../server/clock';
import { fileStore } from '../../server/files';
import { documentScopeFor } from '../../server/services/identity/scope';
import { uploadUsage } from '../../server/services/after-sale/document-uploads';
import {
  documentFile,
  documentDownload,
  recordDocumentDownload,
  listDocuments,
  proposalInScope,
  proposalsAwaitingDocuments,
  type DocumentProposal,
  type DocumentRow,
} from '../../server/services/after-sale/documents';
import { withReadablePage } from '../../lib/list-query';
import { pageRequestOf, type KeysetPage } from '../../lib/keyset-pages';

/** What the pages of Documentos need, for both generations: thin pages, this does the work. */
export const CATEGORY_OPTIONS = Object.entries(DOCUMENT_CATEGORIES).map(([value, label]) => ({ value, label }));

async function scopeOf(generation: 'v1' | 'v2', session: PortalSession) {
  // The middleware let only a signed-in viewer of this generation reach the page.
  const db = await database();
  const viewer = viewerOf(session, generation)!;
  return { db, viewer, scope: await documentScopeFor(db, viewer) };
}

export type UploadPageProps =
  | {
      kind: 'search';
      values: { proposta?: string };
      errors?: Record<string, string[]>;
      awaiting: DocumentProposal[];
      /** Consulta, only to whoever its guard lets in (a link to a 403 is no link). */
      consultaHref?: string;
    }
  | {
      kind: 'proposal';
      proposal: DocumentProposal;
      documents: DocumentRow[];
      usage: Pick<UploadUsage, 'userDay' | 'proposal'>;
    };

/**
 * Envio: the proposal of `?proposta=` (or the policy of `?apolice=`) when the viewer's scope holds it,
 * with what was already sent; undefined — the 404 page — when it does not. Without one, the page
 * explains where documents are sent from and lists the proposals waiting for them.
 */
export async function uploadPage(
  generation: 'v1' | 'v2',
  session: PortalSession,
  params: URLSearchParams,
): Promise<UploadPageProps | undefined> {
  const { db, viewer, scope } = await scopeOf(generation, session);
  const proposta = params.get('proposta')?.trim() || undefined;
  const apolice = params.get('apolice')?.trim() || undefined;
  const consulta = documentPages(generation).consulta;
  const consultaHref = pageAccess(consulta, viewer, config().PORTAL_ENV) === 'allowed' ? consulta : undefined;
  if (!proposta && !apolice)
    return { kind: 'search', values: {}, awaiting: await proposalsAwaitingDocuments(db, scope, generation), consultaHref };
  const checked = proposta ? z.safeParse(nrPropostaField, proposta) : z.safeParse(nrApoliceField, apolice);
  if (!checked.success) {
    const message = checked.error.issues[0]?.message ?? 'Número inválido.';
    return {
      kind: 'search',
      values: { proposta: proposta ?? apolice },
      errors: { proposta: [message] },
      awaiting: await proposalsAwaitingDocuments(db, scope, generation),
      consultaHref,
    };
  }
  const proposal = await proposalInScope(db, scope, generation, proposta ? { nrProposta: proposta } : { nrApolice: apolice! });
  if (!proposal) return undefined;
  const userId = viewer.user.idUsuario;
  const [documents, usage] = await Promise.all([
    // A proposal keeps at most UPLOAD_LIMITS.proposal.files documents: one page holds them all.
    listDocuments(db, scope, generation, { nrProposta: proposal.nrProposta }, { page: 1 }, 50, userId),
    uploadUsage(db, userId, proposal.id, now()),
  ]);
  return { kind: 'proposal', proposal, documents: documents.content, usage };
}

export interface ConsultPageProps {
  generation: 'v1' | 'v2';
  values: Record<string, string | undefined>;
  errors?: Record<string, string[]>;
  result?: KeysetPage<DocumentRow>;
}

/** Consulta: the documents the viewer's scope sees, filtered and paged. */
export async function consultPage(generation: 'v1' | 'v2', session: PortalSession, params: URLSearchParams): Promise<ConsultPageProps> {
  const values = Object.fromEntries(DOCUMENT_FIELDS.map((field) => [field, params.get(field) ?? undefined]));
  // A page that is no number shows the first, one past the last the last (lib/list-query.ts); past
  // page 1 a link's cursor says where the page starts (lib/keyset-pages.ts).
  const query = parseDocumentQuery(withReadablePage(params));
  if (!query.ok) return { generation, values, errors: query.errors };
  const { db, scope } = await scopeOf(generation, session);
  const request = pageRequestOf(query.page, params.get('cursor'));
  return { generation, values, result: await listDocuments(db, scope, generation, query.filters, request) };
}

/** A document's download, or undefined (the 404 page) when the viewer's scope does not hold it. */
export async function downloadPage(
  generation: 'v1' | 'v2',
  session: PortalSession,
  id: string | undefined,
  ip: string,
): Promise<Response | undefined> {
  const recordId = recordIdOf(id);
  if (recordId === undefined) return undefined;
  const { db, scope } = await scopeOf(generation, session);
  const file = await documentFile(db, scope, generation, recordId);
  if (!file) return undefined;
  const download = await notFoundAsUndefined(documentDownload(fileStore(), file));
  if (!download) return undefined;
  await recordDocumentDownload(db, viewerOf(session, generation)!, ip, recordId, file);
  return downloadResponse(download);
}
