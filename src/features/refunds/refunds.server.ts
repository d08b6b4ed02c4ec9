import { database } from '../../server/boot/database';
import { viewerOf, type PortalSession } from '../../lib/session';
import { now } from '../../server/clock';
import { brasiliaDay } from '../../lib/format';
import { demoBankEnabled } from '../../server/config';
import { refusalOf } from '../controller.server';
import { deliverAfter } from '../../server/mail/outbox';
import { scopeFor } from '../../server/services/identity/scope';
import { listRefundQueue, payRefund, reopenRefund, returnRefund, type RefundQueueRow } from '../../server/services/after-sale/refunds';
import { refundDueDay } from '../../lib/cancellation';
import { pageRequestOf, type KeysetPage } from '../../lib/keyset-pages';
import { withReadablePage } from '../../lib/list-query';
import { QUEUE_TABS, refundsQueuePath, tabOf, type RefundAction, type RefundStatus } from '../../lib/refund-status';

/*
 * /restituicoes (legacy) and /v2/restituicoes (issue 31): the refunds queue of the insurer's staff.
 * The route guards (lib/route-guards.ts) let in only the legacy administrators' group and the v2
 * ADMIN; the list and every action go through the viewer's APOLICES scope (all of the generation's
 * sales for them). Plain HTML first, as the analysis queue (decision 057): a GET opens a row's form
 * (?devolver=<id>, ?corrigir=<id>), a POST to the page does the action and answers 303 back to the
 * list, so a double click or a reload never repeats it (and the service would answer "already").
 */

export interface RefundsQueuePageProps {
  generation: 'v1' | 'v2';
  status: RefundStatus;
  nrApolice: string;
  queue: KeysetPage<RefundQueueRow>;
  demoBank: boolean;
  /** A form opened for a row: which one, which action, what was typed and what was wrong. */
  open?: { id: number; action: RefundAction; values: Record<string, string>; errors?: Record<string, string[]>; failure?: string };
  /** What the action just done came to (after ?feito=). */
  done?: { action: RefundAction; nrApolice: string; repeated: boolean };
  errors?: Record<string, string[]>;
}

const ID = /^\d{1,9}$/;
const NR_APOLICE = /^\d{1,20}$/;
const ACTIONS: Record<string, RefundAction> = { pagar: 'pagar', devolver: 'devolver', reabrir: 'reabrir' };
const tabParam = (status: RefundStatus) => QUEUE_TABS.find((t) => t.value === status)!.param;

export const queuePath = refundsQueuePath;

export async function refundsQueuePage(
  generation: 'v1' | 'v2',
  session: PortalSession,
  request: Request,
  url: URL,
  ip: string,
): Promise<{ redirect: string } | { status: number; props: RefundsQueuePageProps }> {
  const db = await database();
  // The route guard let in only the generation's staff (lib/route-guards.ts).
  const viewer = viewerOf(session, generation)!;
  const scope = await scopeFor(db, viewer, 'APOLICES');
  const demoBank = demoBankEnabled();
  const params = url.searchParams;
  let status = 200;
  let open: RefundsQueuePageProps['open'];
  const tab = tabOf(params.get('situacao'));
  if (request.method === 'POST') {
    const form = Object.fromEntries([...(await request.formData())].map(([k, v]) => [k, typeof v === 'string' ? v : '']));
    const action = ACTIONS[form.acao ?? ''];
    const id = ID.test(form.id ?? '') ? Number(form.id) : undefined;
    if (!action || id === undefined) {
      status = 400;
    } else {
      const actor = { userId: viewer.user.idUsuario, email: viewer.user.email, generation, ip };
      const at = now();
      try {
        const outcome =
          action === 'pagar'
            ? await deliverAfter(payRefund(db, scope, actor, id, { comprovante: form.comprovante }, { demoBank }, at))
            : action === 'devolver'
              ? await returnRefund(db, scope, actor, id, { motivo: form.motivo, detalhe: form.detalhe || undefined }, at)
              : await reopenRefund(db, scope, actor, id, accountOf(form), refundDueDay(brasiliaDay(at)), at);
        const back = new URLSearchParams({ situacao: tabParam(outcome.status), feito: action, apolice: outcome.nrApolice });
        if (outcome.repeated) back.set('repetido', '1');
        return { redirect: `${queuePath(generation)}?${back}` };
      } catch (error) {
        const refusal = refusalOf(error);
        if (!refusal) throw error;
        status = refusal.status;
        open = { id, action, values: form, errors: refusal.fieldErrors, failure: refusal.fieldErrors ? undefined : refusal.message };
      }
    }
  } else {
    for (const [param, action] of [
      ['devolver', 'devolver'],
      ['corrigir', 'reabrir'],
    ] as const) {
      const id = params.get(param);
      if (id && ID.test(id)) open = { id: Number(id), action, values: {} };
    }
  }
  const typed = (params.get('nrApolice') ?? '').trim();
  const errors = typed && !NR_APOLICE.test(typed) ? { nrApolice: ['Informe o número da apólice, só dígitos.'] } : undefined;
  if (errors && status === 200) status = 400;
  const page = Number(withReadablePage(params).get('page') ?? 1);
  const queue = await listRefundQueue(
    db,
    scope,
    generation,
    { status: tab, nrApolice: typed && !errors ? typed : undefined },
    pageRequestOf(page, params.get('cursor')),
  );
  const doneAction = ACTIONS[params.get('feito') ?? ''];
  const doneApolice = params.get('apolice') ?? '';
  const done =
    doneAction && NR_APOLICE.test(doneApolice)
      ? { action: doneAction, nrApolice: doneApolice, repeated: params.has('repetido') }
      : undefined;
  return { status, props: { generation, status: tab, nrApolice: typed, queue, demoBank, open, done, errors } };
}

/** The destination typed in the correction form, as lib/refund-account.ts reads it. */
function accountOf(form: Record<string, string>): unknown {
  if (form.tipo === 'PIX') return { tipo: 'PIX', chave: form.chave ?? '' };
  if (form.tipo === 'CONTA')
    return { tipo: 'CONTA', banco: form.banco, agencia: form.agencia, conta: form.conta, tipoConta: form.tipoConta, titular: form.titular };
  return { tipo: form.tipo };
}
