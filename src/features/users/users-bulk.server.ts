import { Readable } from 'node:stream';
import { adminContext, asFieldErrors, readForm, recordIdOf, refusalOf, type Routed } from '../controller.server';
import { downloadResponse } from '../../server/api/download';
import {
  bulkJobOf,
  bulkJobProblems,
  previewBulk,
  startBulk,
  type BulkJobSummary,
  type BulkPreview,
} from '../../server/services/network/user-bulk';
import { exportUsers, type ExportFormat } from '../../server/services/network/user-export';
import { formErrors, formValues, mayChangeUsers, userListHref, userListQuery, type FieldErrors } from '../../lib/user-admin';
import {
  BULK_PATHS,
  bulkJobPath,
  bulkSelectionSchema,
  isReviewAction,
  selectionFields,
  type BulkSelectionInput,
} from '../../lib/user-bulk';
import { ACCESS_REVIEW_PAGES } from '../../lib/access-reviews';
import type { PortalSession } from '../../lib/session';
import * as z from 'zod/mini';

/*
 * The bulk actions' pages (issue 32, decision 070), both generations, without JavaScript: the list's
 * bulk form posts the selection here; the preview says what the action will do to how many and why
 * the others are left alone, with Confirmar (the same fields posted again with `confirmar`) and
 * Cancelar (back to the list as it was); the confirmation queues the job and sends the author to its
 * page, which reloads itself until the job is done and then shows the summary.
 */

export interface BulkPreviewProps {
  generation: 'v1' | 'v2';
  preview?: BulkPreview;
  errors?: FieldErrors;
  /** The selection's fields, posted again by Confirmar. */
  fields: [string, string][];
  action: string;
  /** The list as the author left it (the access review, for its action). */
  back: BackLink;
}

export interface BackLink {
  href: string;
  /** '← Usuários' */
  label: string;
  /** 'Voltar aos usuários' */
  button: string;
}

/** Back to the users list (`listHref`) — or to the access review, whose action it was (decision 076). */
const backLink = (generation: 'v1' | 'v2', action: string, listHref: string): BackLink =>
  isReviewAction(action)
    ? { href: ACCESS_REVIEW_PAGES[generation], label: 'Revisão de acessos', button: 'Voltar à revisão de acessos' }
    : { href: listHref, label: 'Usuários', button: 'Voltar aos usuários' };

const LIST_VALUES = ['email', 'nome', 'empresa', 'status', 'tamanho'] as const;
/** The list as the author left it. */
const backTo = (generation: 'v1' | 'v2', values: Record<string, unknown>): BackLink =>
  backLink(
    generation,
    typeof values.acao === 'string' ? values.acao.trim().toLowerCase() : '',
    userListHref(
      BULK_PATHS[generation].list,
      Object.fromEntries(LIST_VALUES.map((k) => [k, typeof values[k] === 'string' ? (values[k] as string) : ''])),
    ),
  );

/** POST /consulta-usuarios/lote and /v2/usuario/cadastro/lote: the preview, or (with `confirmar`) the start. */
export async function bulkPreviewPage(
  generation: 'v1' | 'v2',
  session: PortalSession,
  request: Request,
  ip: string,
): Promise<Routed<BulkPreviewProps, 'redirect' | 'forbidden'>> {
  if (request.method !== 'POST') return { kind: 'redirect', to: BULK_PATHS[generation].list };
  const { db, actor } = await adminContext(session, generation);
  if (!mayChangeUsers(actor)) return { kind: 'forbidden' };
  const values = formValues(await readForm(request), ['ids']);
  const base = { generation, action: BULK_PATHS[generation].lote, back: backTo(generation, values) };
  const parsed = z.safeParse(bulkSelectionSchema, values);
  if (!parsed.success) return { kind: 'page', status: 400, props: { ...base, fields: [], errors: formErrors(parsed.error.issues) } };
  const selection = parsed.data as BulkSelectionInput;
  const fields = selectionFields(selection);
  try {
    if (values.confirmar) {
      const id = await startBulk(db, actor, selection, ip);
      return { kind: 'redirect', to: bulkJobPath(generation, id) };
    }
    return { kind: 'page', status: 200, props: { ...base, fields, preview: await previewBulk(db, actor, selection) } };
  } catch (error) {
    const failed = asFieldErrors(error);
    if (!failed) throw error;
    return { kind: 'page', status: failed.status, props: { ...base, fields, errors: failed.errors } };
  }
}

export interface BulkJobProps {
  generation: 'v1' | 'v2';
  job: BulkJobSummary;
  problems: Awaited<ReturnType<typeof bulkJobProblems>>;
  back: BackLink;
}

/** /consulta-usuarios/lote/{id} and its v2 twin: the author's own job (anyone else's is the 404). */
export async function bulkJobPage(
  generation: 'v1' | 'v2',
  session: PortalSession,
  rawId: string | undefined,
): Promise<Routed<BulkJobProps, 'not-found'>> {
  const id = recordIdOf(rawId);
  if (id === undefined) return { kind: 'not-found' };
  const { db, actor } = await adminContext(session, generation);
  const job = await bulkJobOf(db, actor, id);
  if (!job) return { kind: 'not-found' };
  const problems = job.status === 'CONCLUIDO' || job.status === 'ERRO' ? await bulkJobProblems(db, id) : [];
  return {
    kind: 'page',
    status: 200,
    props: { generation, job, problems, back: backLink(generation, job.action, BULK_PATHS[generation].list) },
  };
}

const TEXT = { 'content-type': 'text/plain; charset=utf-8' };

/** /consulta-usuarios/exportar.{csv,xlsx} and their v2 twins: the list's filters as a file. */
export async function userExportResponse(
  generation: 'v1' | 'v2',
  session: PortalSession,
  url: URL,
  format: ExportFormat,
  ip: string,
): Promise<Response> {
  const { db, actor } = await adminContext(session, generation);
  const raw = Object.fromEntries(['email', 'nome', 'empresa', 'status'].map((k) => [k, url.searchParams.get(k) ?? '']));
  const parsed = z.safeParse(userListQuery, { ...raw, pagina: '', tamanho: '' });
  if (!parsed.success)
    return new Response(`Filtros inválidos: ${Object.values(formErrors(parsed.error.issues)).flat().join(' ')}`, {
      status: 400,
      headers: TEXT,
    });
  const { email, nome, empresa, status } = parsed.data;
  try {
    const file = await exportUsers(db, actor, { email, nome, empresa, status }, format, ip);
    const body = file.body instanceof Uint8Array ? file.body : (Readable.toWeb(file.body) as ReadableStream<Uint8Array>);
    return downloadResponse({ body, fileName: file.fileName, type: file.type });
  } catch (error) {
    // 403 for a viewer who may not list users, 413 for an XLSX past its bound.
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    return new Response(refusal.message, { status: refusal.status, headers: TEXT });
  }
}
