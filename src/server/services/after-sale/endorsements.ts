import { sql } from 'kysely';
import type { RefundStatus } from '../../../lib/refund-status';
import type { DB } from '../../db';
import type { EndorsementKind, Generation } from '../../db/schema';
import { brasiliaDay } from '../../../lib/format';
import { reasonText } from '../../../lib/endorsements';
import type { Requester } from '../../../lib/refund';
import type { Scope } from '../../../lib/scope';
import { policiesInScope } from './policies';

/*
 * Endorsements (issue 14; DESIGN §10): the numbered changes of a policy. Every endorsement is
 * written by recordEndorsement inside the transaction that changes the policy, so a policy never
 * changes without its endorsement; every read goes through the policies' one scope condition.
 */

/** The next endorsement number: the year and a sequence shared by every policy ('202600000012'). */
async function nextEndorsementNumber(trx: DB, now: Date): Promise<string> {
  const { rows } = await sql<{ n: string }>`select nextval('endorsement_numbers')::text as n`.execute(trx);
  return `${brasiliaDay(now).slice(0, 4)}${rows[0]!.n.padStart(8, '0')}`;
}

export interface NewEndorsement {
  policyId: number;
  tipo: EndorsementKind;
  solicitante?: Requester;
  motivo?: string;
  efetivaEm: string;
  dados: Record<string, unknown>;
  premioAnterior: number;
  premioNovo: number;
  userId: number;
  /** The draft a cancellation was confirmed from (unique: confirmed once). */
  rascunho?: string;
}

/** Writes an endorsement; answers its id and number. Call inside the transaction that makes the change. */
export async function recordEndorsement(trx: DB, input: NewEndorsement, now: Date): Promise<{ id: number; nrEndosso: string }> {
  const nrEndosso = await nextEndorsementNumber(trx, now);
  const row = await trx
    .insertInto('endorsements')
    .values({
      nr_endosso: nrEndosso,
      policy_id: input.policyId,
      tipo: input.tipo,
      solicitante: input.solicitante ?? null,
      motivo: input.motivo ?? null,
      efetiva_em: input.efetivaEm,
      dados: JSON.stringify(input.dados),
      premio_anterior: input.premioAnterior,
      premio_novo: input.premioNovo,
      user_id: input.userId,
      rascunho: input.rascunho ?? null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, nrEndosso };
}

export interface EndorsementSummary {
  nrEndosso: string;
  tipo: EndorsementKind;
  efetivaEm: string;
  createdAt: string;
  by: string;
  /** A cancellation's reason in words (reasonText), with what the requester added; null for a change of contact. */
  motivo: string | null;
  premioAnterior: number;
  premioNovo: number;
  /** What a cancellation gives back; null for a change with no refund. */
  restituicao: number | null;
  /** The refund's state and the day it is due to be paid (null with no refund). */
  restituicaoStatus: RefundStatus | null;
  restituicaoPrevista: string | null;
}

/** A policy's endorsements, oldest first (the endorsement home's history). */
export async function endorsementHistory(db: DB, policyId: number): Promise<EndorsementSummary[]> {
  const rows = await db
    .selectFrom('endorsements as e')
    .innerJoin('users as u', 'u.id', 'e.user_id')
    .leftJoin('refunds as r', 'r.endorsement_id', 'e.id')
    .select([
      'e.nr_endosso',
      'e.tipo',
      'e.efetiva_em',
      'e.created_at',
      'u.nome',
      'e.solicitante',
      'e.motivo',
      'e.premio_anterior',
      'e.premio_novo',
      'r.valor',
      'r.status',
      'r.prevista_para',
    ])
    .where('e.policy_id', '=', policyId)
    .orderBy('e.id')
    .execute();
  return rows.map((r) => ({
    nrEndosso: r.nr_endosso,
    tipo: r.tipo,
    efetivaEm: r.efetiva_em,
    createdAt: new Date(r.created_at).toISOString(),
    by: r.nome,
    motivo: r.motivo === null ? null : reasonText(r.solicitante ?? 'SEGURADO', r.motivo),
    premioAnterior: r.premio_anterior,
    premioNovo: r.premio_novo,
    restituicao: r.valor,
    restituicaoStatus: r.status,
    restituicaoPrevista: r.prevista_para,
  }));
}

/**
 * An endorsement of a policy the scope sees, with its policy's number and contract; undefined
 * otherwise (a 404, whether it exists or not).
 */
export async function endorsementInScope(db: DB, scope: Scope, generation: Generation, nrEndosso: string) {
  return policiesInScope(db, scope, generation)
    .innerJoin('endorsements as e', 'e.policy_id', 'a.id')
    .leftJoin('refunds as r', 'r.endorsement_id', 'e.id')
    .innerJoin('users as u', 'u.id', 'e.user_id')
    .select([
      'e.id',
      'e.nr_endosso',
      'e.tipo',
      'e.solicitante',
      'e.motivo',
      'e.efetiva_em',
      'e.dados',
      'e.premio_anterior',
      'e.premio_novo',
      'e.created_at',
      'u.nome as by',
      'a.nr_apolice',
      'a.id_contratacao',
      'r.valor as restituicao',
      'r.estorno_comissao',
      'r.prevista_para',
      'r.destino',
      'r.status as restituicao_status',
    ])
    .where('e.nr_endosso', '=', nrEndosso)
    .executeTakeFirst();
}
export type ScopedEndorsement = NonNullable<Awaited<ReturnType<typeof endorsementInScope>>>;
