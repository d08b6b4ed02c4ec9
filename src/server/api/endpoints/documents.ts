import { z } from '../../../lib/zod';
import { downloadResponse } from '../download';
import { endpoint, type Context } from '../router';
import { ApiError, HTTP_STATUS } from '../errors';
import type { Generation } from '../../../lib/quote-flow';
import { pageRequestOf } from '../../../lib/keyset-pages';
import { keysetAnswer } from '../../../lib/keyset-answer';
import {
  categoryField,
  DOCUMENT_MESSAGES,
  DOCUMENT_MAX_BYTES,
  DOCUMENT_NAME_HEADER,
  nameProblem,
  parseDocumentQuery,
  type DocumentCategory,
} from '../../../lib/documents';
import type { SessionViewer } from '../../../lib/session';
import { now } from '../../clock';
import { config } from '../../config';
import { fileStore, type ReceivedFile } from '../../files';
import { BODY_TOO_LARGE_HEADERS, BodyTooLargeError } from '../../request-body';
import { loadV1User, loadV2User } from '../../services/identity/principals';
import { documentScopeFor } from '../../services/identity/scope';
import {
  documentFile,
  documentNotFound,
  documentDownload,
  recordDocumentDownload,
  listDocuments,
  proposalInScope,
  removeDocument,
} from '../../services/after-sale/documents';
import {
  admitUpload,
  checkReceived,
  diskRoomProblem,
  enterUpload,
  releaseUpload,
  storeDocument,
} from '../../services/after-sale/document-uploads';

/**
 * The documents of a proposal and its policy (issue 14, decision 040), both generations (the BFF with
 * the v2 session, the platform API with the legacy one): the upload, the list and the download. The
 * upload is the file's raw bytes (up to 10 MB, the route's own body limit — server/request-body.ts),
 * its name percent-encoded in the `x-nome-arquivo` header and its kind in `?categoria=`. Who may see
 * which documents: lib/scope.ts documentScope; anything else is a 404.
 */
const proposalParams = z.object({ nrProposta: z.string().regex(/^\d{1,20}$/, 'Número de proposta inválido.') });
const documentParams = z.object({
  id: z.coerce
    .number('Documento inválido.')
    .int('Documento inválido.')
    .min(1, 'Documento inválido.')
    .max(2_000_000_000, 'Documento inválido.'),
});

async function viewerOf(ctx: Context, generation: Generation): Promise<SessionViewer> {
  return generation === 'v2'
    ? { generation, user: await loadV2User(ctx.db, ctx.auth.user, { fullyAuthenticated: false }) }
    : { generation, user: await loadV1User(ctx.db, ctx.auth.user) };
}

const fileError = (status: number, message: string, headers?: Record<string, string>) =>
  new ApiError(status, message, { arquivo: [message] }, headers);

/** The file's name from its header: percent-encoded UTF-8, so any name travels in an ASCII header. */
function nameOf(request: Request): string {
  const encoded = request.headers.get(DOCUMENT_NAME_HEADER);
  if (!encoded) throw fileError(400, DOCUMENT_MESSAGES.noFile);
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw fileError(400, DOCUMENT_MESSAGES.missingName);
  }
}

/** The body streamed to disk within the upload's 10 MB, or its 413 (the rest of the body is never read). */
async function receive(request: Request): Promise<ReceivedFile> {
  try {
    return await fileStore().receive(request.body, DOCUMENT_MAX_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw fileError(413, DOCUMENT_MESSAGES.tooLarge, BODY_TOO_LARGE_HEADERS);
    throw error;
  }
}

/**
 * The size the client declared (a browser always does), which the limits count before the body is
 * read; a body sent in chunks without one counts as the largest a file may be.
 */
function declaredSize(request: Request): number {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  return Number.isSafeInteger(declared) && declared > 0 ? Math.min(declared, DOCUMENT_MAX_BYTES) : DOCUMENT_MAX_BYTES;
}

/**
 * A refusal answered before the body was read: the connection is closed after it (its unread body
 * cannot be followed by another request), and a limit says when to try again.
 */
const refusedUnread = (status: number, message: string, retryAfterSeconds?: number) =>
  fileError(status, message, {
    ...BODY_TOO_LARGE_HEADERS,
    ...(retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) }),
  });

/**
 * An upload let in by this instance, in the order of decisions 040 and 057: after the sign-in, the kind
 * (400) and this instance's uploads of the user (429), the proposal in the viewer's scope (404), the
 * name (400), the disk's room (507), the limits counted in the database (429/413/503) — all before a
 * byte of the body is read —, then the body (413) and what it is (400), then the store.
 */
async function upload(ctx: Context<unknown, { categoria: DocumentCategory }, { nrProposta: string }>, generation: Generation) {
  const viewer = await viewerOf(ctx, generation);
  const scope = await documentScopeFor(ctx.db, viewer);
  const proposal = await proposalInScope(ctx.db, scope, generation, { nrProposta: ctx.params.nrProposta });
  if (!proposal) throw documentNotFound('proposta');
  const name = nameOf(ctx.request);
  const badName = nameProblem(name);
  if (badName) throw refusedUnread(400, badName);
  const bytes = declaredSize(ctx.request);
  if (ctx.request.headers.get('content-length') === '0') throw refusedUnread(400, DOCUMENT_MESSAGES.empty);
  const at = now();
  const noRoom = await diskRoomProblem(fileStore(), bytes, config().UPLOADS_MIN_FREE_MB * 1024 * 1024, at);
  if (noRoom) throw refusedUnread(HTTP_STATUS[noRoom.kind], noRoom.message);
  const userId = viewer.user.idUsuario;
  const admitted = await admitUpload(ctx.db, { userId, proposalId: proposal.id, bytes }, at);
  if (!admitted.ok) throw refusedUnread(admitted.refusal.status, admitted.refusal.message, admitted.refusal.retryAfterSeconds);
  try {
    const received = await receive(ctx.request);
    const checked = await checkReceived(name, received);
    if (!checked.ok) {
      await fileStore().discardReceived(received);
      throw new ApiError(checked.status, checked.message, checked.errors);
    }
    const upload = { proposal, userId, ticket: admitted.ticket, categoria: ctx.query.categoria, nome: checked.nome, mime: checked.mime };
    return await storeDocument(ctx.db, fileStore(), { ...upload, received }, now());
  } finally {
    // Stored: its reservation went with the row; anything else frees it here.
    await releaseUpload(ctx.db, admitted.ticket);
  }
}

export function documentEndpoints(generation: Generation) {
  const auth: ('v1' | 'v2' | 'simulador')[] = generation === 'v2' ? ['v2', 'simulador'] : ['v1'];
  return [
    endpoint({
      method: 'POST',
      path: '/v1/propostas/:nrProposta/documentos',
      auth,
      params: proposalParams,
      query: z.object({ categoria: categoryField }),
      async handle(ctx) {
        // A user already sending as many files as allowed on this very instance: refused before any query.
        const slot = enterUpload(ctx.auth.user.id, now());
        if (!slot.ok) throw refusedUnread(slot.refusal.status, slot.refusal.message, slot.refusal.retryAfterSeconds);
        try {
          return await upload(ctx, generation);
        } finally {
          slot.leave();
        }
      },
    }),
    endpoint({
      method: 'GET',
      path: '/v1/documentos',
      auth,
      async handle(ctx) {
        const query = parseDocumentQuery(ctx.url.searchParams);
        if (!query.ok) throw new ApiError(400, Object.values(query.errors)[0]?.[0] ?? 'Filtros inválidos.', query.errors);
        const viewer = await viewerOf(ctx, generation);
        const scope = await documentScopeFor(ctx.db, viewer);
        // Keyset pages (issue 29): `page` and the `cursor` of an answer's `next`/`previous` (lib/keyset-answer.ts).
        const request = pageRequestOf(query.page, ctx.url.searchParams.get('cursor'));
        return keysetAnswer(await listDocuments(ctx.db, scope, generation, query.filters, request, undefined, viewer.user.idUsuario));
      },
    }),
    endpoint({
      method: 'GET',
      path: '/v1/documentos/:id/arquivo',
      auth,
      params: documentParams,
      async handle(ctx) {
        const viewer = await viewerOf(ctx, generation);
        const scope = await documentScopeFor(ctx.db, viewer);
        const file = await documentFile(ctx.db, scope, generation, ctx.params.id);
        if (!file) throw documentNotFound('documento');
        // Opened first: a file missing from the store is a 404 (and no access is logged for it).
        const download = await documentDownload(fileStore(), file);
        await recordDocumentDownload(ctx.db, viewer, ctx.ip, ctx.params.id, file);
        return downloadResponse(download);
      },
    }),
    // A document sent by mistake, removed by whoever sent it while the proposal is undecided (decision 057).
    endpoint({
      method: 'DELETE',
      path: '/v1/documentos/:id',
      auth,
      params: documentParams,
      async handle(ctx) {
        const viewer = await viewerOf(ctx, generation);
        const scope = await documentScopeFor(ctx.db, viewer);
        return removeDocument(ctx.db, scope, generation, viewer.user.idUsuario, ctx.params.id, now());
      },
    }),
  ];
}
