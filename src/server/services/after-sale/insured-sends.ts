import { createHash, randomBytes } from 'node:crypto';
import type { DB } from '../../db';
import type { Generation } from '../../db/schema';
import type { Scope } from '../../../lib/scope';
import type { SessionViewer } from '../../../lib/session';
import { brasiliaDay, formatIsoDate } from '../../../lib/format';
import { addDays } from '../../../lib/calendar';
import { OVERDUE_SECOND_COPY_DAYS, SEND_LIMITS, SEND_MESSAGES, whatsappHref, type InsuredSend } from '../../../lib/insured-messages';
import { formatBRL } from '../../../lib/products/money';
import { conflict, invalid, notFound } from '../../errors';
import { deliverAfter, publicUrl, queueEmail, secretSlot } from '../../mail/outbox';
import { oneFinalDot } from '../../mail/templates';
import { countAttempt } from '../identity/rate-limit';
import { recordDataAccess } from '../identity/access-log';
import { chargeForInsured } from './charges';
import { createInsuredLink, insuredFacts } from './insured-links';
import { policyIdInScope } from './policies';
import { POLICY_LINK_DAYS } from './policy-notices';

/*
 * What the partner sends the insured from the policy page (issue 31): the policy, or the boleto and
 * Pix of an open installment — an overdue one with nothing payable goes with a 2ª via issued with the
 * message, once (issue 42 item 16) — by e-mail (to the address on file or another typed) or as a
 * WhatsApp share link; each carries an expiring public link. The policy goes through the APOLICES scope, a
 * boleto through BOLETOS (who may charge it): outside them, the same 404. Each send is limited per
 * user and per policy (lib/insured-messages.ts SEND_LIMITS) and written to the access log.
 */

const DAY_MS = 86_400_000;
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const NOT_FOUND = 'Apólice não encontrada.';

export interface SendContext {
  db: DB;
  viewer: SessionViewer;
  scopes: { policy: Scope; charge: Scope };
  generation: Generation;
  nrApolice: string;
  ip: string;
  now: Date;
}

/** A policy link (decision 035's table): the insured's PDF for POLICY_LINK_DAYS. */
async function policyLink(trx: DB, policyId: number, now: Date) {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + POLICY_LINK_DAYS * DAY_MS);
  await trx
    .insertInto('policy_links')
    .values({ policy_id: policyId, token_hash: hashOf(token), expira_em: expiresAt, created_at: now })
    .execute();
  return { url: publicUrl(`/apolice-digital/${token}`), expiresAt, days: POLICY_LINK_DAYS };
}

/** The policy (and installment) a send is about, within the scope that may send it; 404 otherwise. */
async function targetOf(ctx: SendContext, tipo: 'apolice' | 'boleto', numero: number | undefined) {
  const scope = tipo === 'boleto' ? ctx.scopes.charge : ctx.scopes.policy;
  const policyId = await policyIdInScope(ctx.db, scope, ctx.generation, ctx.nrApolice);
  if (policyId === undefined) throw notFound(NOT_FOUND);
  if (tipo === 'apolice') return { policyId, installment: undefined };
  if (numero === undefined) throw invalid(SEND_MESSAGES.numero, { numero: [SEND_MESSAGES.numero] });
  const installment = await ctx.db
    .selectFrom('installments')
    .select(['id', 'numero', 'status'])
    .where('policy_id', '=', policyId)
    .where('numero', '=', numero)
    .executeTakeFirst();
  if (!installment) throw notFound('Parcela não encontrada.');
  return { policyId, installment };
}

/** The link (and what its message says) of what is sent, written in the caller's transaction. */
async function linkFor(
  trx: DB,
  ctx: SendContext,
  target: Awaited<ReturnType<typeof targetOf>>,
  facts: Awaited<ReturnType<typeof insuredFacts>>,
) {
  if (!target.installment) return { link: await policyLink(trx, target.policyId, ctx.now), charge: undefined };
  // An overdue installment with nothing payable goes with a 2ª via asked for by the sender, as the overdue notice does.
  const today = brasiliaDay(ctx.now);
  const charge = await chargeForInsured(
    trx,
    target.installment.id,
    today,
    addDays(today, OVERDUE_SECOND_COPY_DAYS),
    ctx.viewer.user.idUsuario,
  );
  if (!charge) throw conflict(SEND_MESSAGES.notCharged);
  const link = await createInsuredLink(
    trx,
    'BOLETO',
    { policyId: target.policyId, installmentId: target.installment.id, documento: facts.documento, email: facts.insuredEmail },
    ctx.now,
  );
  return { link, charge };
}

/** The access log's words for what was sent: the installment, and the 2ª via the send issued (due `issued`), if any. */
const sentText = (numero: number, issued: string | undefined) =>
  `parcela ${numero}${issued ? `, 2ª via emitida com vencimento em ${formatIsoDate(issued)}` : ''}`;

const limit = (ctx: SendContext, policyId: number) =>
  countAttempt(
    ctx.db,
    [
      [SEND_LIMITS.perUser, String(ctx.viewer.user.idUsuario)],
      [SEND_LIMITS.perPolicy, String(policyId)],
    ],
    ctx.now,
  );

/** Sends the policy or an installment's boleto and Pix by e-mail; answers the address it went to. */
export async function sendToInsured(ctx: SendContext, input: InsuredSend): Promise<{ para: string }> {
  const target = await targetOf(ctx, input.tipo, input.numero);
  await limit(ctx, target.policyId);
  let issued: string | undefined;
  const to = await deliverAfter(
    ctx.db.transaction().execute(async (trx) => {
      const facts = await insuredFacts(trx, target.policyId);
      const to = input.email ?? facts.insuredEmail;
      if (!to) throw invalid(SEND_MESSAGES.noEmail, { email: [SEND_MESSAGES.noEmail] });
      const { link, charge } = await linkFor(trx, ctx, target, facts);
      if (charge?.issued) issued = charge.vencimento;
      const secrets = { values: { link: link.url }, expiresAt: link.expiresAt };
      const common = {
        nome: facts.nome,
        nrApolice: facts.nrApolice,
        produto: facts.produto,
        parceiro: facts.parceiro,
        link: secretSlot('link'),
        validadeDias: link.days,
      };
      if (charge)
        await queueEmail(
          trx,
          to,
          'boleto-segurado',
          { ...common, numero: target.installment!.numero, vencimento: formatIsoDate(charge.vencimento), valor: formatBRL(charge.total) },
          secrets,
        );
      else await queueEmail(trx, to, 'apolice-segurado', { ...common, vigencia: facts.vigencia }, secrets);
      return to;
    }),
  );
  const what = target.installment ? `${sentText(target.installment.numero, issued)}, ` : '';
  await recordDataAccess(
    ctx.db,
    ctx.viewer,
    ctx.ip,
    target.installment ? 'apolice.envio-boleto' : 'apolice.envio-apolice',
    ctx.nrApolice,
    `${what}para ${to}`,
  );
  return { para: to };
}

/** A WhatsApp share link whose text carries an expiring public link to the policy or the boleto. */
export async function whatsappLink(
  ctx: SendContext,
  input: Pick<InsuredSend, 'tipo' | 'numero'>,
): Promise<{ link: string; texto: string }> {
  const target = await targetOf(ctx, input.tipo, input.numero);
  await limit(ctx, target.policyId);
  let issued: string | undefined;
  const texto = await ctx.db.transaction().execute(async (trx) => {
    const facts = await insuredFacts(trx, target.policyId);
    const { link, charge } = await linkFor(trx, ctx, target, facts);
    if (charge?.issued) issued = charge.vencimento;
    return oneFinalDot(
      charge
        ? `Olá, ${facts.nome}. Segue o boleto e o Pix da ${target.installment!.numero}ª parcela do seu seguro ${facts.produto} (apólice ${facts.nrApolice}): ${formatBRL(charge.total)}, vencimento em ${formatIsoDate(charge.vencimento)}. O link vale por ${link.days} dias: ${link.url}`
        : `Olá, ${facts.nome}. Segue a sua apólice de seguro ${facts.produto} nº ${facts.nrApolice}. O link vale por ${link.days} dias: ${link.url}`,
    );
  });
  const what = target.installment ? sentText(target.installment.numero, issued) : 'apólice';
  await recordDataAccess(ctx.db, ctx.viewer, ctx.ip, 'apolice.link-whatsapp', ctx.nrApolice, what);
  return { link: whatsappHref(texto), texto };
}
