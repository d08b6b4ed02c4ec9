import { createHash, randomBytes } from 'node:crypto';
import type { DB } from '../db';
import { formatIsoDate } from '../../lib/format';
import { publicUrl, queueEmail, secretSlot } from '../mail/outbox';

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

export async function notifyPolicyIssued(trx: DB, policyId: number, now: Date): Promise<void> {
  const policy = await trx
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
      'u.nome as seller',
      'u.email as seller_email',
      'q.segurado',
      's.nome as produto',
      'c.razao_social',
    ])
    .where('a.id', '=', policyId)
    .executeTakeFirstOrThrow();
  const nrApolice = policy.nr_apolice;
  const policyPage = policy.generation === 'v2' ? `/v2/apolices/${nrApolice}` : `/apolices/${nrApolice}`;
  await queueEmail(trx, policy.seller_email, 'apolice-emitida-vendedor', {
    nome: policy.seller,
    nrApolice,
    produto: policy.produto,
    segurado: policy.nome_segurado,
    link: publicUrl(policyPage),
  });

  const insuredEmail = (policy.segurado as { email?: unknown } | null)?.email;
  if (typeof insuredEmail !== 'string' || insuredEmail === '') return;
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + POLICY_LINK_DAYS * DAY_MS);
  await trx
    .insertInto('policy_links')
    .values({ policy_id: policyId, token_hash: hashOf(token), expira_em: expiresAt, created_at: now })
    .execute();
  await queueEmail(
    trx,
    insuredEmail,
    'apolice-emitida-segurado',
    {
      nome: policy.nome_segurado,
      nrApolice,
      produto: policy.produto,
      vigencia: `${formatIsoDate(policy.inicio_vigencia)} a ${formatIsoDate(policy.fim_vigencia)}`,
      parceiro: policy.razao_social ?? 'seu parceiro',
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
