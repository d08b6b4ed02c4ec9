import { createHash, randomBytes } from 'node:crypto';
import type { DB } from '../../db';
import { formatIsoDate } from '../../../lib/format';
import { publicUrl, queueEmail, secretSlot } from '../../mail/outbox';
import { contactOf } from './policies';

/*
 * Telling the seller and the insured that a policy was issued (issue 13). Written inside the
 * transaction that issues the policy, sent after it by the outbox's delivery job. The insured has no
 * account: the e-mail carries a link to the policy's PDF whose token is a secret of the message
 * (docs/decisions/028-mailbox-and-secrets.md) — the database keeps only its SHA-256.
 */

/** How long the insured's link opens the policy's PDF. */
export const POLICY_LINK_DAYS = 30;
const DAY_MS = 86_400_000;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * What every notice of a policy names — the policy, the product, the insured and where they are
 * reached now (after any contact endorsement), the partner it was sold through, the seller — one
 * query, inside the transaction of the change the notice is about.
 */
export async function policyNoticeFacts(trx: DB, policyId: number) {
  const row = await trx
    .selectFrom('policies as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .innerJoin('quotes as q', 'q.id', 'a.quote_id')
    .innerJoin('simulators as s', 's.code', 'a.simulator_code')
    .leftJoin('companies as c', 'c.id', 'a.company_id')
    .select([
      'a.nr_apolice',
      'a.generation',
      'a.nome_segurado',
      'a.inicio_vigencia',
      'a.fim_vigencia',
      'a.contato',
      'q.segurado',
      's.nome as produto',
      'u.nome as seller',
      'u.email as seller_email',
      'c.razao_social',
    ])
    .where('a.id', '=', policyId)
    .executeTakeFirstOrThrow();
  const contact = row.contato ?? contactOf(row.segurado as Record<string, unknown>);
  return {
    nrApolice: row.nr_apolice,
    produto: row.produto,
    nome: row.nome_segurado,
    vigencia: `${formatIsoDate(row.inicio_vigencia)} a ${formatIsoDate(row.fim_vigencia)}`,
    insuredEmail: contact.email,
    /** Whom the insured knows the sale by: the company, or the seller who sold without one. */
    parceiro: row.razao_social ?? row.seller,
    seller: { nome: row.seller, email: row.seller_email },
    policyPage: publicUrl(`${row.generation === 'v2' ? '/v2' : ''}/apolices/${row.nr_apolice}`),
  };
}

export async function notifyPolicyIssued(trx: DB, policyId: number, now: Date): Promise<void> {
  const facts = await policyNoticeFacts(trx, policyId);
  await queueEmail(trx, facts.seller.email, 'apolice-emitida-vendedor', {
    nome: facts.seller.nome,
    nrApolice: facts.nrApolice,
    produto: facts.produto,
    segurado: facts.nome,
    link: facts.policyPage,
  });

  if (!facts.insuredEmail) return;
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + POLICY_LINK_DAYS * DAY_MS);
  await trx
    .insertInto('policy_links')
    .values({ policy_id: policyId, token_hash: hashOf(token), expira_em: expiresAt, created_at: now })
    .execute();
  await queueEmail(
    trx,
    facts.insuredEmail,
    'apolice-emitida-segurado',
    {
      nome: facts.nome,
      nrApolice: facts.nrApolice,
      produto: facts.produto,
      vigencia: facts.vigencia,
      parceiro: facts.parceiro,
      link: secretSlot('link'),
      validadeDias: POLICY_LINK_DAYS,
    },
    { values: { link: publicUrl(`/apolice-digital/${token}`) }, expiresAt },
  );
}

/** The policy an insured's link opens, while it is valid; undefined otherwise (a 404). */
export async function policyOfLink(db: DB, token: string, now: Date) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  return db
    .selectFrom('policy_links as l')
    .innerJoin('policies as a', 'a.id', 'l.policy_id')
    .select(['a.nr_apolice as nrApolice', 'a.generation'])
    .where('l.token_hash', '=', hashOf(token))
    .where('l.expira_em', '>', now)
    .executeTakeFirst();
}
