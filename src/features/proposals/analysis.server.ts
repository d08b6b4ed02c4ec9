import * as z from 'zod/mini';
import { downloadResponse } from '../../server/api/download';
import { database } from '../../server/boot/database';
import { now } from '../../server/clock';
import { fieldErrorsOf } from '../../server/errors';
import { notFoundAsUndefined, refusalOf, recordIdOf } from '../controller.server';
import { fileStore } from '../../server/files';
import { analysisQueue, decideProposal, decisionOutcome, type QueuedProposal } from '../../server/services/after-sale/acceptance';
import { documentDownload, recordDocumentDownload, underwriterDocumentFile } from '../../server/services/after-sale/documents';
import { DECISION_KINDS, decisionSchema, type DecisionKind } from '../../lib/proposal-decision';
import { viewerOf, type PortalSession } from '../../lib/session';
import { pageRequestOf, type KeysetPage } from '../../lib/keyset-pages';
import { withReadablePage } from '../../lib/list-query';

/**
 * /v2/propostas/analise, the provider ADMIN's analysis queue (issues 13 and 27). Its decisions work as
 * plain HTML first: choosing one is a GET (?decidir={nrProposta}&acao=…) that opens that proposal's
 * form, and confirming it a POST to this page — so a click before the island's script has arrived is
 * never lost; once hydrated, the island does the same without leaving the page (decision 057).
 */
export interface ChosenDecision {
  nrProposta: string;
  mode: DecisionKind;
  reason?: string;
  error?: string;
  failure?: string;
}

export interface AnalysisPageProps {
  status: number;
  /** A keyset page of the queue (issue 29): `?pagina=N&cursor=…`, as its links give. */
  queue: KeysetPage<QueuedProposal>;
  /** What the decision just made came to (after ?decidida=). */
  outcome?: string;
  /** A decision chosen without the island's help: its form opens already chosen. */
  chosen?: ChosenDecision;
}

const NR_PROPOSTA = /^\d{1,20}$/;
/** The page an address asks for, read as every list reads it (lib/list-query.ts withReadablePage): not a number is the first. */
const pageOf = (params: URLSearchParams) => Number(withReadablePage(params, 'pagina').get('pagina') ?? 1);
const modeOf = (value: unknown): DecisionKind | undefined => DECISION_KINDS.find((kind) => kind === value);

export async function analysisPage(session: PortalSession, request: Request, url: URL): Promise<AnalysisPageProps | { redirect: string }> {
  const db = await database();
  let chosen: ChosenDecision | undefined;
  let status = 200;
  if (request.method === 'POST') {
    // The menu guard let only the provider's ADMIN reach this page.
    const admin = viewerOf(session, 'v2')!;
    const form = Object.fromEntries([...(await request.formData())].map(([k, v]) => [k, typeof v === 'string' ? v : '']));
    const nrProposta = NR_PROPOSTA.test(form.nrProposta ?? '') ? form.nrProposta! : undefined;
    const mode = modeOf(form.decisao);
    const parsed = z.safeParse(decisionSchema, { decisao: form.decisao, motivo: form.motivo });
    if (nrProposta && mode && parsed.success) {
      try {
        await decideProposal(db, admin.user.idUsuario, nrProposta, parsed.data, now());
        return { redirect: `${url.pathname}?decidida=${nrProposta}` };
      } catch (error) {
        const refusal = refusalOf(error);
        if (!refusal) throw error;
        status = refusal.status;
        chosen = { nrProposta, mode, reason: form.motivo, failure: refusal.message };
      }
    } else {
      status = 400;
      const errors = parsed.success ? {} : fieldErrorsOf(parsed.error);
      if (nrProposta && mode)
        chosen = { nrProposta, mode, reason: form.motivo, error: errors.motivo?.[0] ?? 'Escolha aceitar, recusar ou pedir documentos.' };
    }
  } else {
    const nrProposta = url.searchParams.get('decidir') ?? '';
    const mode = modeOf(url.searchParams.get('acao'));
    if (NR_PROPOSTA.test(nrProposta) && mode) chosen = { nrProposta, mode };
  }
  const decided = url.searchParams.get('decidida');
  const [queue, outcome] = await Promise.all([
    analysisQueue(db, now(), pageRequestOf(pageOf(url.searchParams), url.searchParams.get('cursor'))),
    decided && NR_PROPOSTA.test(decided) ? decisionOutcome(db, decided) : undefined,
  ]);
  return { status, queue, outcome, chosen };
}

/**
 * A document from the queue (/v2/propostas/analise/documentos/{id}): the menu guard lets only the
 * provider's ADMIN reach it, who sees both generations' proposals there. Logged like any download.
 */
export async function underwriterDownload(session: PortalSession, id: string | undefined, ip: string): Promise<Response | undefined> {
  const viewer = viewerOf(session, 'v2');
  if (viewer?.user.profile !== 'ADMIN') return undefined;
  const recordId = recordIdOf(id);
  if (recordId === undefined) return undefined;
  const db = await database();
  const file = await underwriterDocumentFile(db, recordId);
  if (!file) return undefined;
  const download = await notFoundAsUndefined(documentDownload(fileStore(), file));
  if (!download) return undefined;
  await recordDocumentDownload(db, viewer, ip, recordId, file);
  return downloadResponse(download);
}
