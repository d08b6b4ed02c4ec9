import { BodyTooLargeError, bodyLimitFor, readBody } from '../../server/request-body';
import { csvResponse } from '../../server/api/download';
import { uploadImport } from '../../server/services/network/user-import';
import { importTemplate } from '../../server/services/network/user-import-template';
import {
  importChanges,
  importOf,
  importProblems,
  recentImports,
  resultCsv,
  type ImportSummary,
} from '../../server/services/network/user-import-reading';
import { confirmImport } from '../../server/services/network/user-import-processing';
import { undoImport, undoPreview, undoStatus, type UndoPlan } from '../../server/services/network/user-import-undo';
import { IMPORT_MESSAGES, type ImportGeneration } from '../../lib/user-import';
import { mayChangeUsers } from '../../lib/user-admin';
import type { PortalSession } from '../../lib/session';
import { adminContext, refusalOf, type Routed } from '../controller.server';

/*
 * The bulk user import's pages (issue 16, decision 048): legacy /importar-usuarios (one address,
 * ?importacao={id} for an import) and v2 /v2/usuario/importacao/{etapa} — upload, validacao,
 * processamento, resultado. Plain forms; while an import is being written the page reloads itself.
 * Importing needs the right to change users; another user's import is the 404 page.
 */

export const IMPORT_STEPS = ['upload', 'validacao', 'processamento', 'resultado'] as const;
export type ImportStep = (typeof IMPORT_STEPS)[number];
export const IMPORT_STEP_LABELS: Record<ImportStep, string> = {
  upload: 'Envio do arquivo',
  validacao: 'Validação',
  processamento: 'Processamento',
  resultado: 'Resultado',
};

export const IMPORT_PAGES = {
  v1: {
    base: '/importar-usuarios',
    template: '/importar-usuarios/modelo.csv',
    result: '/importar-usuarios/resultado',
    users: '/consulta-usuarios',
  },
  v2: {
    base: '/v2/usuario/importacao',
    template: '/v2/usuario/importacao/modelo.csv',
    result: '/v2/usuario/importacao/resultado',
    users: '/v2/usuario/cadastro/consulta',
  },
} as const;

/** The address of an import's step (legacy: one page, the import in the query). */
export function importPath(generation: ImportGeneration, step: ImportStep, id?: number): string {
  const query = id ? `?importacao=${id}` : '';
  return generation === 'v1' ? `${IMPORT_PAGES.v1.base}${query}` : `${IMPORT_PAGES.v2.base}/${step}${query}`;
}

/** Where an import stands. */
export const stepOfImport = (status: ImportSummary['status']): ImportStep =>
  status === 'VALIDADO' ? 'validacao' : status === 'CONCLUIDO' || status === 'ERRO' ? 'resultado' : 'processamento';

export interface ImportPageProps {
  generation: ImportGeneration;
  step: ImportStep;
  summary?: ImportSummary;
  problems: { line: number; email: string; column: string; message: string }[];
  /** Rows that would change an existing account, field by field (the validation step). */
  changes: Awaited<ReturnType<typeof importChanges>>;
  recent: { id: number; file_name: string; status: string; total_rows: number; created_at: Date }[];
  error?: string;
  /** The result step: whether the import may still be undone, or what its undo did (decision 071). */
  undo?: Omit<UndoPlan, 'items'> & { items?: UndoPlan['items'] };
  /** The preview of the undo (?desfazer=1), each account judged. */
  previewUndo: boolean;
}

/** The address of an import's undo preview. */
export const undoPath = (generation: ImportGeneration, id: number) => `${importPath(generation, 'resultado', id)}&desfazer=1`;

const idOf = (value: string | null) => (value && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : undefined);

async function formOf(request: Request): Promise<FormData> {
  const bytes = await readBody(request, bodyLimitFor(new URL(request.url).pathname).bytes);
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    headers: { 'content-type': request.headers.get('content-type') ?? '' },
  }).formData();
}

/**
 * The import page of either generation at `step` (v2's address names it; the legacy page shows the
 * step of its import). A POST uploads a file (step upload) or confirms (acao=confirmar).
 */
export async function importPage(
  generation: ImportGeneration,
  session: PortalSession,
  stepParam: string | undefined,
  url: URL,
  request: Request,
  ip: string,
): Promise<Routed<ImportPageProps>> {
  const { db, actor } = await adminContext(session, generation);
  if (!mayChangeUsers(actor)) return { kind: 'not-found' };
  const asked = generation === 'v2' ? IMPORT_STEPS.find((s) => s === stepParam) : undefined;
  if (generation === 'v2' && !asked) return { kind: 'not-found' };
  const id = idOf(url.searchParams.get('importacao'));
  const summary = id ? await importOf(db, actor, id) : undefined;
  if (url.searchParams.has('importacao') && !summary) return { kind: 'not-found' };
  const step: ImportStep = summary ? stepOfImport(summary.status) : 'upload';
  // A v2 address ahead of (or behind) the import goes to where it stands.
  if (generation === 'v2' && asked !== step) return { kind: 'redirect', to: importPath(generation, step, summary?.id) };
  const base: ImportPageProps = {
    generation,
    step,
    summary,
    problems: summary ? await importProblems(db, summary.id) : [],
    changes: summary && step === 'validacao' ? await importChanges(db, summary.id) : [],
    recent: summary ? [] : await recentImports(db, actor),
    previewUndo: false,
  };
  if (summary && step === 'resultado') {
    const previewUndo = url.searchParams.get('desfazer') === '1';
    const status = await undoStatus(db, actor, summary.id);
    // The accounts are judged (or, once undone, listed) only on the preview and after the undo.
    base.undo = previewUndo || status?.undoneAt ? await undoPreview(db, actor, summary.id) : status;
    base.previewUndo = previewUndo && !base.undo?.refusal;
  }
  if (request.method !== 'POST') return { kind: 'page', status: 200, props: base };

  let form: FormData;
  try {
    form = await formOf(request);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return { kind: 'page', status: 413, props: { ...base, error: IMPORT_MESSAGES.tooBig } };
    return { kind: 'page', status: 400, props: { ...base, error: IMPORT_MESSAGES.notCsv } };
  }
  try {
    if (summary && step === 'resultado') {
      if (form.get('acao') !== 'desfazer') return { kind: 'page', status: 400, props: { ...base, error: 'Ação inválida.' } };
      await undoImport(db, actor, summary.id, ip);
      return { kind: 'redirect', to: importPath(generation, 'resultado', summary.id) };
    }
    if (summary) {
      // The choice travels with the confirmation and nothing else says it: absent is "create only".
      const update = form.get('atualizar');
      if (form.get('acao') !== 'confirmar' || (update !== null && update !== 'sim'))
        return { kind: 'page', status: 400, props: { ...base, error: 'Ação inválida.' } };
      await confirmImport(db, actor, summary.id, { updateExisting: update === 'sim' }, ip);
      return { kind: 'redirect', to: importPath(generation, 'processamento', summary.id) };
    }
    const file = form.get('arquivo');
    if (!(file instanceof File) || file.size === 0) return { kind: 'page', status: 400, props: { ...base, error: IMPORT_MESSAGES.empty } };
    const created = await uploadImport(db, actor, file.name || 'usuarios.csv', new Uint8Array(await file.arrayBuffer()), ip);
    return { kind: 'redirect', to: importPath(generation, 'validacao', created) };
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    const message = refusal.fieldErrors ? Object.values(refusal.fieldErrors).flat().join(' ') : refusal.message;
    return { kind: 'page', status: refusal.status, props: { ...base, error: message } };
  }
}

/** The template of the viewer's file: header and one example line that validates for them (undefined: the 404). */
export async function templateResponse(generation: ImportGeneration, session: PortalSession): Promise<Response | undefined> {
  const { db, actor } = await adminContext(session, generation);
  if (!mayChangeUsers(actor)) return undefined;
  return csvResponse(await importTemplate(db, actor), `modelo-importacao-usuarios-${generation === 'v1' ? 'legado' : 'v2'}.csv`);
}

/** The result file of the actor's own import; undefined (the 404) for any other. */
export async function resultResponse(
  generation: ImportGeneration,
  session: PortalSession,
  idParam: string | undefined,
): Promise<Response | undefined> {
  const { db, actor } = await adminContext(session, generation);
  const id = idOf(idParam ?? null);
  const summary = id && mayChangeUsers(actor) ? await importOf(db, actor, id) : undefined;
  if (!summary) return undefined;
  return csvResponse(await resultCsv(db, summary.id), `importacao-${summary.id}-resultado.csv`);
}
