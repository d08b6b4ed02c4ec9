import type { DB } from '../../db';
import type { Generation } from '../../db/schema';
import { invalid, conflict } from '../../errors';
import { brasiliaDay } from '../../../lib/format';
import { policyStatus } from '../../../lib/policies';
import { ENDORSEMENT_CLOSED } from '../../../lib/endorsement-home';
import { CONTACT_MESSAGES, sameContact } from '../../../lib/endorsement-contact';
import type { InsuredContact } from '../../../lib/endorsements';
import type { Scope } from '../../../lib/scope';
import { contactOf, lockPolicyByContract } from './policies';
import { notifyContactChanged } from './endorsement-notices';
import { recordEndorsement } from './endorsements';

/*
 * The contact endorsement (issue 14): the insured's e-mail, phone and address change from today,
 * with no premium effect. The policy row is locked while it changes, so two endorsements of one
 * policy never read the same "before", and the new contact and its endorsement are written together.
 */

export async function endorseContact(
  db: DB,
  scope: Scope,
  generation: Generation,
  idContratacao: number,
  contact: InsuredContact,
  userId: number,
  now: Date,
): Promise<{ nrEndosso: string; nrApolice: string }> {
  const today = brasiliaDay(now);
  return db.transaction().execute(async (trx) => {
    const id = await lockPolicyByContract(trx, scope, generation, idContratacao);
    const policy = await trx
      .selectFrom('policies')
      .select(['id', 'nr_apolice', 'status', 'inicio_vigencia', 'fim_vigencia', 'premio_total', 'contato', 'quote_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const closed = ENDORSEMENT_CLOSED[policyStatus(policy.status, { inicio: policy.inicio_vigencia, fim: policy.fim_vigencia }, today)];
    if (closed) throw conflict(closed);
    const before =
      policy.contato ??
      contactOf((await trx.selectFrom('quotes').select('segurado').where('id', '=', policy.quote_id).executeTakeFirstOrThrow()).segurado);
    if (sameContact(before, contact)) throw invalid(CONTACT_MESSAGES.unchanged);
    await trx
      .updateTable('policies')
      .set({ contato: JSON.stringify(contact) })
      .where('id', '=', policy.id)
      .execute();
    const { nrEndosso } = await recordEndorsement(
      trx,
      {
        policyId: policy.id,
        tipo: 'CONTATO',
        efetivaEm: today,
        dados: { antes: before, depois: contact },
        premioAnterior: policy.premio_total,
        premioNovo: policy.premio_total,
        userId,
      },
      now,
    );
    await notifyContactChanged(trx, policy.id, before, contact, now);
    return { nrEndosso, nrApolice: policy.nr_apolice };
  });
}
