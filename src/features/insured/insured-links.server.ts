import { database } from '../../server/boot/database';
import { now } from '../../server/clock';
import { brasiliaDay } from '../../lib/format';
import type { BoletoGone } from '../../lib/payments';
import { findPolicy } from '../../server/services/after-sale/policies';
import { chargeForInsured } from '../../server/services/after-sale/charges';
import { hasOptedOut, insuredFacts, insuredLinkOf, setOptOut } from '../../server/services/after-sale/insured-links';
import { boletoDocument } from '../../server/services/after-sale/policy-document';
import { recordInsuredLinkAccess } from '../../server/services/identity/access-log';
import { boletoPdfFileName, renderBoletoPdf } from '../../server/pdf/boleto-pdf';
import { pdfResponse } from '../../server/api/download';
import { qrSvg } from '../../server/qr';
import { readForm } from '../controller.server';

/*
 * The insured's public links (issue 31): /boleto-digital/{token} (the boleto and Pix of one
 * installment, and its PDF) and /lembretes/{token} (stop or resume the reminders). The token is the
 * credential, as for the policy's link (decision 035): no viewer scope applies. An unknown or altered
 * token is the 404 page; an expired one, or a boleto with nothing to pay any more, the 410 page
 * saying why.
 */

const ASK_PARTNER = 'Peça um novo envio ao parceiro que vendeu o seu seguro ou fale com a central de atendimento da seguradora.';

export const LINK_EXPIRED: BoletoGone = {
  title: 'Link expirado',
  heading: 'Este link expirou.',
  detail: `Os links enviados ao segurado valem por tempo limitado. ${ASK_PARTNER}`,
};

const gone = (heading: string, detail: string): BoletoGone => ({ title: heading, heading, detail });

export type Outcome<P> = { kind: 'page'; props: P } | { kind: 'gone'; gone: BoletoGone } | { kind: 'not-found' };

export interface BoletoLinkProps {
  nrApolice: string;
  produto: string;
  nome: string;
  numero: number;
  vencimento: string;
  valor: number;
  multa: number;
  juros: number;
  total: number;
  linhaDigitavel: string;
  pixCopiaECola: string;
  qr: string;
  pdfHref: string;
  parceiro: string;
}

/** The installment of a valid boleto link, with its charge payable today; or why not. */
async function boletoOf(token: string) {
  const db = await database();
  const at = now();
  const found = await insuredLinkOf(db, 'BOLETO', token, at);
  if (found.state === 'unknown') return { kind: 'not-found' } as const;
  if (found.state === 'expired') return { kind: 'gone', gone: LINK_EXPIRED } as const;
  const { link } = found;
  const today = brasiliaDay(at);
  const installment = await db
    .selectFrom('installments')
    .select(['id', 'numero', 'status'])
    .where('id', '=', link.installment_id!)
    .executeTakeFirstOrThrow();
  const which = `A ${installment.numero}ª parcela da apólice ${link.nr_apolice}`;
  if (installment.status === 'PAGA')
    return { kind: 'gone', gone: gone('Parcela paga', `${which} já foi paga: não há boleto a pagar.`) } as const;
  if (installment.status === 'CANCELADA')
    return { kind: 'gone', gone: gone('Parcela cancelada', `${which} foi cancelada: não há boleto a pagar.`) } as const;
  const charge = await db.transaction().execute((trx) => chargeForInsured(trx, installment.id, today));
  if (!charge) return { kind: 'gone', gone: gone('Boleto vencido', `O boleto d${which.slice(1)} venceu. ${ASK_PARTNER}`) } as const;
  return { kind: 'found', db, at, link, installment, charge } as const;
}

export async function boletoLinkPage(token: string, ip: string): Promise<Outcome<BoletoLinkProps>> {
  const found = await boletoOf(token);
  if (found.kind !== 'found') return found;
  const { db, link, installment, charge } = found;
  const facts = await insuredFacts(db, link.policy_id);
  await recordInsuredLinkAccess(db, link.generation, link.nr_apolice, ip, 'boleto.link-segurado', `parcela ${installment.numero}`);
  return {
    kind: 'page',
    props: {
      nrApolice: link.nr_apolice,
      produto: facts.produto,
      nome: facts.nome,
      numero: installment.numero,
      vencimento: charge.vencimento,
      valor: charge.valor,
      multa: charge.multa,
      juros: charge.juros,
      total: charge.total,
      linhaDigitavel: charge.linhaDigitavel,
      pixCopiaECola: charge.pixCopiaECola,
      qr: await qrSvg(charge.pixCopiaECola, `QR code Pix da ${installment.numero}ª parcela`),
      pdfHref: `/boleto-digital/${token}/boleto.pdf`,
      parceiro: facts.parceiro,
    },
  };
}

/** The boleto's PDF through the same link. */
export async function boletoLinkPdf(token: string, ip: string): Promise<Response | Exclude<Outcome<never>, { kind: 'page' }>> {
  const found = await boletoOf(token);
  if (found.kind !== 'found') return found;
  const { db, at, link, installment, charge } = found;
  const policy = await findPolicy(db, { kind: 'all' }, link.generation, link.nr_apolice, brasiliaDay(at));
  if (!policy) return { kind: 'not-found' };
  const pdf = await renderBoletoPdf(await boletoDocument(db, link.generation, policy, installment.numero, charge, at));
  await recordInsuredLinkAccess(db, link.generation, link.nr_apolice, ip, 'boleto.link-segurado', `PDF da parcela ${installment.numero}`);
  return pdfResponse(pdf, boletoPdfFileName(link.nr_apolice, installment.numero));
}

// ─── Opt-out ─────────────────────────────────────────────────────────────────────────────────────

export interface OptOutProps {
  nome: string;
  /** Whether the reminders are stopped now. */
  optedOut: boolean;
  /** What was just done, after a POST: the confirmation. */
  done?: 'parou' | 'voltou';
  status: number;
}

/**
 * /lembretes/{token}: GET shows where the insured stands and the one button; POST (acao=parar or
 * acao=voltar) changes it and confirms. The choice holds for the insured's document and e-mail.
 */
export async function optOutPage(token: string, request: Request): Promise<Outcome<OptOutProps>> {
  const db = await database();
  const at = now();
  const found = await insuredLinkOf(db, 'LEMBRETES', token, at);
  if (found.state === 'unknown') return { kind: 'not-found' };
  if (found.state === 'expired') return { kind: 'gone', gone: LINK_EXPIRED };
  const insured = { documento: found.link.documento, email: found.link.email };
  const facts = await insuredFacts(db, found.link.policy_id);
  const nome = facts.nome.split(' ')[0] ?? facts.nome;
  if (request.method !== 'POST') return { kind: 'page', props: { nome, optedOut: await hasOptedOut(db, insured), status: 200 } };
  const acao = (await readForm(request)).get('acao');
  if (acao !== 'parar' && acao !== 'voltar')
    return { kind: 'page', props: { nome, optedOut: await hasOptedOut(db, insured), status: 400 } };
  await setOptOut(db, insured, acao === 'parar', at);
  return { kind: 'page', props: { nome, optedOut: acao === 'parar', done: acao === 'parar' ? 'parou' : 'voltou', status: 200 } };
}
