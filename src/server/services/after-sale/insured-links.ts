import { createHash, randomBytes } from 'node:crypto';
import type { DB } from '../../db';
import { BOLETO_LINK_DAYS, isLinkToken, OPT_OUT_LINK_DAYS, optOutKeys } from '../../../lib/insured-messages';
import { formatIsoDate } from '../../../lib/format';
import { publicUrl } from '../../mail/outbox';
import { contactOf } from './policies';
import { policyNoticeFacts } from './policy-notices';

/*
 * The public links an e-mail to the insured carries (issue 31), modelled on the policy's link
 * (decision 035): the insured has no account, so the token is the credential — 32 random bytes, only
 * its SHA-256 kept, a secret of the message (the outbox clears it once sent) — and an unknown or
 * altered token is the 404 page after one indexed lookup. BOLETO opens one installment's boleto and
 * Pix; LEMBRETES lets the insured stop the reminders (LGPD), by document and e-mail.
 */

const DAY_MS = 86_400_000;
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export type InsuredLinkKind = 'BOLETO' | 'LEMBRETES';

export interface InsuredLinkTarget {
  policyId: number;
  installmentId: number | null;
  documento: string;
  email: string;
}

/** Writes a link (inside the caller's transaction) and answers its absolute URL and expiry. */
export async function createInsuredLink(
  trx: DB,
  kind: InsuredLinkKind,
  target: InsuredLinkTarget,
  now: Date,
): Promise<{ url: string; expiresAt: Date; days: number }> {
  const token = randomBytes(32).toString('base64url');
  const days = kind === 'BOLETO' ? BOLETO_LINK_DAYS : OPT_OUT_LINK_DAYS;
  const expiresAt = new Date(now.getTime() + days * DAY_MS);
  await trx
    .insertInto('insured_links')
    .values({
      tipo: kind,
      token_hash: hashOf(token),
      policy_id: target.policyId,
      installment_id: target.installmentId,
      documento: target.documento,
      email: target.email,
      expira_em: expiresAt,
      created_at: now,
    })
    .execute();
  const path = kind === 'BOLETO' ? '/boleto-digital/' : '/lembretes/';
  return { url: publicUrl(`${path}${token}`), expiresAt, days };
}

export type LinkLookup<T> = { state: 'valid'; link: T } | { state: 'expired' } | { state: 'unknown' };

/** The link of a token: valid, expired (a 410 that says so) or unknown (the 404 page). */
export async function insuredLinkOf(db: DB, kind: InsuredLinkKind, token: string, now: Date) {
  if (!isLinkToken(token)) return { state: 'unknown' } as const;
  const row = await db
    .selectFrom('insured_links as l')
    .innerJoin('policies as a', 'a.id', 'l.policy_id')
    .select(['l.id', 'l.policy_id', 'l.installment_id', 'l.documento', 'l.email', 'l.expira_em', 'a.nr_apolice', 'a.generation'])
    .where('l.token_hash', '=', hashOf(token))
    .where('l.tipo', '=', kind)
    .executeTakeFirst();
  if (!row) return { state: 'unknown' } as const;
  if (row.expira_em <= now) return { state: 'expired' } as const;
  return { state: 'valid', link: row } as const;
}

// ─── Opt-out ─────────────────────────────────────────────────────────────────────────────────────

/** Has the insured (by document or e-mail) stopped the reminders? */
export async function hasOptedOut(db: DB, insured: { documento: string; email: string }): Promise<boolean> {
  const keys = optOutKeys(insured);
  if (keys.length === 0) return false;
  const row = await db.selectFrom('reminder_opt_outs').select('chave').where('chave', 'in', keys).executeTakeFirst();
  return Boolean(row);
}

/** Stops (true) or resumes (false) the reminders of the insured, by document and e-mail alike. */
export async function setOptOut(db: DB, insured: { documento: string; email: string }, optOut: boolean, now: Date): Promise<void> {
  const keys = optOutKeys(insured);
  if (keys.length === 0) return;
  if (optOut)
    await db
      .insertInto('reminder_opt_outs')
      .values(keys.map((chave) => ({ chave, created_at: now })))
      .onConflict((oc) => oc.column('chave').doNothing())
      .execute();
  else await db.deleteFrom('reminder_opt_outs').where('chave', 'in', keys).execute();
}

// ─── What a message to the insured names ─────────────────────────────────────────────────────────

/**
 * The notice facts of a policy (policy-notices.ts) and what the insured's messages add: the document
 * (the opt-out's key), and how to reach the partner — the company's commercial contact, else the
 * seller — with the point of sale it was sold at.
 */
export async function insuredFacts(trx: DB, policyId: number) {
  const facts = await policyNoticeFacts(trx, policyId);
  const row = await trx
    .selectFrom('policies as a')
    .innerJoin('quotes as q', 'q.id', 'a.quote_id')
    .leftJoin('companies as c', 'c.id', 'a.company_id')
    .leftJoin('points_of_sale as p', 'p.id', 'a.point_of_sale_id')
    .select(['a.documento_segurado', 'a.status', 'a.fim_vigencia', 'a.contato', 'q.segurado', 'c.contatos', 'p.nome as ponto'])
    .where('a.id', '=', policyId)
    .executeTakeFirstOrThrow();
  const commercial = (row.contatos as { comercial?: { email?: string; telefone?: string } } | null)?.comercial;
  const email = commercial?.email ?? facts.seller.email;
  const contato = [`e-mail ${email}`, ...(commercial?.telefone ? [`telefone ${commercial.telefone}`] : [])].join(', ');
  const place = row.ponto ? ` (ponto de venda ${row.ponto})` : '';
  const insuredEmail = (row.contato ?? contactOf(row.segurado as Record<string, unknown>)).email.trim().toLowerCase();
  return {
    ...facts,
    insuredEmail,
    documento: row.documento_segurado,
    policyStatus: row.status,
    fimVigencia: formatIsoDate(row.fim_vigencia),
    parceiroComLoja: `${facts.parceiro}${place}`,
    contato,
  };
}
