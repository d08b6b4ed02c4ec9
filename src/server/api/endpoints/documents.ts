import { z } from '../../../lib/zod';
import { endpoint, type Context } from '../router';
import { ApiError } from '../errors';
import type { Generation } from '../../../lib/quote-flow';
import { categoryField, DOCUMENT_MESSAGES, DOCUMENT_MAX_BYTES, DOCUMENT_NAME_HEADER, parseDocumentQuery } from '../../../lib/documents';
import type { SessionViewer } from '../../../lib/session';
import { now } from '../../clock';
import { filesDir } from '../../files';
import { BODY_TOO_LARGE_HEADERS, BodyTooLargeError, readBody } from '../../request-body';
import { loadV1User, loadV2User } from '../../services/principals';
import { documentScopeFor } from '../../services/scope';
import {
  checkUpload,
  documentFile,
  documentNotFound,
  documentResponse,
  recordDocumentDownload,
  listDocuments,
  proposalInScope,
  storeDocument,
} from '../../services/documents';

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

/** The body within the upload's 10 MB, or its 413 (the rest of the body is never read). */
async function bytesOf(request: Request): Promise<Uint8Array> {
  try {
    return await readBody(request, DOCUMENT_MAX_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw fileError(413, DOCUMENT_MESSAGES.tooLarge, BODY_TOO_LARGE_HEADERS);
    throw error;
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
        const viewer = await viewerOf(ctx, generation);
        const scope = await documentScopeFor(ctx.db, viewer);
        const proposal = await proposalInScope(ctx.db, scope, generation, { nrProposta: ctx.params.nrProposta });
        if (!proposal) throw documentNotFound('proposta');
        const name = nameOf(ctx.request);
        const bytes = await bytesOf(ctx.request);
        const checked = await checkUpload(name, bytes);
        if (!checked.ok) throw new ApiError(checked.status, checked.message, checked.errors);
        const upload = {
          proposal,
          userId: viewer.user.idUsuario,
          categoria: ctx.query.categoria,
          nome: checked.nome,
          mime: checked.mime,
          bytes,
        };
        return storeDocument(ctx.db, filesDir(), upload, now());
      },
    }),
    endpoint({
      method: 'GET',
      path: '/v1/documentos',
      auth,
      async handle(ctx) {
        const query = parseDocumentQuery(ctx.url.searchParams);
        if (!query.ok) throw new ApiError(400, Object.values(query.errors)[0]?.[0] ?? 'Filtros inválidos.', query.errors);
        const scope = await documentScopeFor(ctx.db, await viewerOf(ctx, generation));
        return listDocuments(ctx.db, scope, generation, query.filters, query.page);
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
        const file = await documentFile(ctx.db, filesDir(), scope, generation, ctx.params.id);
        if (!file) throw documentNotFound('documento');
        await recordDocumentDownload(ctx.db, viewer, ctx.ip, ctx.params.id, file);
        return documentResponse(file);
      },
    }),
  ];
}
