import { Readable } from 'node:stream';
import { z } from '../../../lib/zod';
import { endpoint } from '../router';
import { ApiError } from '../errors';
import { downloadResponse } from '../download';
import { userListQuery } from '../../../lib/user-admin';
import { BULK_LIMITS, bulkSelectionSchema, REVIEW_ACTION, type BulkSelectionInput } from '../../../lib/user-bulk';
import { ACCESS_REVIEW_PAGE_SIZE } from '../../../lib/access-reviews';
import { keysetAnswer, lastPlainPage, pageRequestOf } from '../../../lib/keyset-pages';
import { idleTotal, idleUsers } from '../../services/network/access-reviews';
import { actorOf, requireChange, requireList } from '../../services/network/user-admin';
import { bulkJobOf, previewBulk, startBulk } from '../../services/network/user-bulk';
import { exportUsers } from '../../services/network/user-export';
import { parsed } from './users';

/**
 * Bulk actions and export of the users lists (issue 32, decision 070), under each generation's base:
 * the platform API for a legacy session, the BFF for a v2 one — the same services as the pages.
 *
 *   POST /v1/usuarios/lote/previa   { acao, grupo?, alcance: 'selecionados' | 'todos', ids?, email?, nome?, empresa?, status? }
 *                                   → { total, alterar, ignorados: [{ motivo, descricao, quantidade }], amostra }
 *   POST /v1/usuarios/lote          the same body → 202-like { idLote, situacao } (the job runs in the background)
 *   GET  /v1/usuarios/lote/:id      the caller's own job: situação, total, processados, resultados
 *   GET  /v1/usuarios/exportar      ?formato=csv|xlsx and the list's filters → the file
 *   GET  /v1/usuarios/revisao-acessos ?pagina=&cursor= → the access review (decision 071), keyset pages,
 *                                   and `todos`: how many "todos da revisão" takes (decision 076) — the
 *                                   lote endpoints with { acao: 'desativar-ociosos', alcance: 'todos' }
 *                                   deactivate them, each only if still idle at that moment
 *
 * The caller's right to change (or list) users is checked before the body: whoever may not gets 403
 * whatever they send; a body that fails the schema is a 400 with field errors.
 */

const idParam = z.object({ id: z.string() });
const exportQuery = z.object({
  formato: z.enum(['csv', 'xlsx'], { error: 'Formato inválido: csv ou xlsx.' }).default('csv'),
  email: z.string().max(254).optional(),
  nome: z.string().max(200).optional(),
  empresa: z.string().max(200).optional(),
  status: z.string().max(20).optional(),
});

const reviewQuery = z.object({
  pagina: z.coerce
    .number({ error: 'Página inválida' })
    .int('Página inválida')
    .min(1, 'Página inválida')
    .max(lastPlainPage(ACCESS_REVIEW_PAGE_SIZE), `No máximo a página ${lastPlainPage(ACCESS_REVIEW_PAGE_SIZE)} sem cursor`)
    .default(1),
  cursor: z.string().max(120).optional(),
});

async function changer(ctx: { db: Parameters<typeof actorOf>[0]; auth: { user: Parameters<typeof actorOf>[1] } }) {
  const actor = await actorOf(ctx.db, ctx.auth.user);
  requireChange(actor);
  return actor;
}
const selectionOf = (body: unknown) => parsed(bulkSelectionSchema, body) as BulkSelectionInput;

export const userBulkEndpoints = (generation: 'v1' | 'v2') => [
  endpoint({
    method: 'POST',
    path: '/v1/usuarios/lote/previa',
    auth: [generation],
    body: z.unknown(),
    async handle(ctx) {
      const actor = await changer(ctx);
      const preview = await previewBulk(ctx.db, actor, selectionOf(ctx.body));
      return {
        acao: preview.action,
        descricao: preview.actionLabel,
        grupo: preview.groupLabel ?? null,
        total: preview.counts.total,
        alterar: preview.counts.change,
        ignorados: preview.counts.skipped.map((s) => ({ motivo: s.reason, descricao: s.label, quantidade: s.count })),
        amostra: preview.sample,
      };
    },
  }),
  endpoint({
    method: 'POST',
    path: '/v1/usuarios/lote',
    auth: [generation],
    body: z.unknown(),
    async handle(ctx) {
      const actor = await changer(ctx);
      const id = await startBulk(ctx.db, actor, selectionOf(ctx.body), ctx.ip);
      return {
        idLote: id,
        situacao: 'NA_FILA',
        mensagem: 'Ação em lote na fila: acompanhe o andamento em GET /v1/usuarios/lote/{idLote}.',
      };
    },
  }),
  endpoint({
    method: 'GET',
    path: '/v1/usuarios/lote/:id',
    auth: [generation],
    params: idParam,
    async handle(ctx) {
      const actor = await changer(ctx);
      const id = /^[1-9]\d{0,9}$/.test(ctx.params.id) && Number(ctx.params.id) <= 2_000_000_000 ? Number(ctx.params.id) : undefined;
      const job = id === undefined ? undefined : await bulkJobOf(ctx.db, actor, id);
      if (!job) throw new ApiError(404, 'Ação em lote não encontrada.');
      return {
        idLote: job.id,
        acao: job.action,
        grupo: job.grupo,
        situacao: job.status,
        total: job.total,
        processados: job.processed,
        resultados: job.results,
        ignorados: job.skipped.map((s) => ({ motivo: s.reason, quantidade: s.count })),
        erro: job.error,
        criadoEm: job.createdAt.toISOString(),
        concluidoEm: job.finishedAt?.toISOString() ?? null,
      };
    },
  }),
  endpoint({
    method: 'GET',
    path: '/v1/usuarios/exportar',
    auth: [generation],
    query: z.record(z.string(), z.string()),
    async handle(ctx) {
      const actor = await actorOf(ctx.db, ctx.auth.user);
      requireList(actor);
      const query = exportQuery.safeParse(ctx.query);
      if (!query.success) {
        const errors = Object.fromEntries(query.error.issues.map((i) => [String(i.path[0] ?? 'query'), [i.message]]));
        throw new ApiError(400, query.error.issues[0]?.message ?? 'Requisição inválida', errors);
      }
      const filters = parsed(userListQuery, { ...query.data, pagina: '', tamanho: '' });
      const file = await exportUsers(
        ctx.db,
        actor,
        { email: filters.email, nome: filters.nome, empresa: filters.empresa, status: filters.status },
        query.data.formato,
        ctx.ip,
      );
      const body = file.body instanceof Uint8Array ? file.body : (Readable.toWeb(file.body) as ReadableStream<Uint8Array>);
      return downloadResponse({ body, fileName: file.fileName, type: file.type });
    },
  }),
  endpoint({
    method: 'GET',
    path: '/v1/usuarios/revisao-acessos',
    auth: [generation],
    query: z.record(z.string(), z.string()),
    async handle(ctx) {
      const actor = await changer(ctx);
      const query = reviewQuery.safeParse(ctx.query);
      if (!query.success) {
        const errors = Object.fromEntries(query.error.issues.map((i) => [String(i.path[0] ?? 'query'), [i.message]]));
        throw new ApiError(400, query.error.issues[0]?.message ?? 'Requisição inválida', errors);
      }
      const read = await idleUsers(ctx.db, actor, pageRequestOf(query.data.pagina, query.data.cursor));
      const all = await idleTotal(ctx.db, actor, read);
      return {
        ...keysetAnswer({
          ...read,
          content: read.content.map((u) => ({
            idUsuario: u.id,
            nome: u.nome,
            email: u.email,
            status: u.status,
            empresa: u.empresa,
            ultimoAcesso: u.lastAccessAt?.toISOString() ?? null,
            cadastradoEm: u.createdAt.toISOString(),
            diasSemEntrar: u.days,
            podeDesativar: u.manageable,
          })),
        }),
        todos: { acao: REVIEW_ACTION, quantidade: Math.min(all, BULK_LIMITS.filtered), alemDoLimite: all > BULK_LIMITS.filtered },
      };
    },
  }),
];
