import { sql } from 'kysely';
import type { DB } from '../db';
import { brasiliaDay } from '../../lib/format';
import { installmentDueDates, policyTerm } from '../../lib/policies';
import { installmentOptions, installmentSchedule, withCoverageShares, type StoredPricing } from '../../lib/products/engine';
import { productFor } from '../../lib/products/catalog';
import type { PaymentMethod } from '../../lib/products/types';
import type { ProductLine } from '../../lib/simulators';

/*
 * Issuing a policy from an accepted proposal (DESIGN §10): the contract, its term and its
 * installments. Runs inside the transaction that accepts the proposal, so a proposal is never
 * accepted without its policy, nor issued twice (policies.proposal_id is unique).
 */

/** SUSEP branch (ramo) of each line, the first digits of a policy number. ILLUSTRATIVE. */
const BRANCHES: Record<ProductLine, string> = {
  residencial: '0114',
  empresarial: '0118',
  'empresarial-individual': '0118',
  'itens-pessoais': '0171',
  maquinas: '0196',
  agricola: '1102',
  vida: '1391',
};

async function nextNumbers(db: DB, line: ProductLine, now: Date) {
  const { rows } = await sql<{ policy: string; contract: number }>`
    select nextval('policy_numbers')::text as policy, nextval('contract_numbers')::int as contract`.execute(db);
  const { policy, contract } = rows[0]!;
  return { nrApolice: `${BRANCHES[line]}${brasiliaDay(now).slice(0, 4)}${policy.padStart(7, '0')}`, idContratacao: contract };
}

interface Contracted {
  formaPagamento: PaymentMethod;
  parcelas: number;
  diaVencimento?: number;
}

/** Issues the policy of an accepted proposal; answers its number. */
export async function issuePolicy(trx: DB, proposalId: number, now: Date): Promise<{ nrApolice: string; idContratacao: number }> {
  const row = await trx
    .selectFrom('proposals as p')
    .innerJoin('quotes as q', 'q.id', 'p.quote_id')
    .select([
      'p.created_at as sent_at',
      'q.id as quote_id',
      'q.user_id',
      'q.company_id',
      'q.simulator_code',
      'q.line',
      'q.generation',
      'q.nome_segurado',
      'q.documento_segurado',
      'q.precificacao',
      'q.contratacao',
    ])
    .where('p.id', '=', proposalId)
    .executeTakeFirstOrThrow();
  const product = productFor(row.simulator_code)!;
  const pricing = withCoverageShares(row.precificacao as unknown as StoredPricing);
  const contracted = row.contratacao as unknown as Contracted;
  // The count was checked when the proposal was made; paying at once is always offered.
  const options = installmentOptions(product, pricing.total, contracted.formaPagamento);
  const option = options.find((o) => o.count === contracted.parcelas) ?? options[0]!;
  const issuedDay = brasiliaDay(now);
  const term = policyTerm(brasiliaDay(row.sent_at));
  const pointOfSale =
    row.company_id === null
      ? undefined
      : await trx.selectFrom('points_of_sale').select('id').where('company_id', '=', row.company_id).orderBy('id').executeTakeFirst();
  const numbers = await nextNumbers(trx, row.line as ProductLine, now);
  const policy = await trx
    .insertInto('policies')
    .values({
      nr_apolice: numbers.nrApolice,
      id_contratacao: numbers.idContratacao,
      proposal_id: proposalId,
      quote_id: row.quote_id,
      user_id: row.user_id,
      company_id: row.company_id,
      point_of_sale_id: pointOfSale?.id ?? null,
      simulator_code: row.simulator_code,
      line: row.line,
      generation: row.generation,
      nome_segurado: row.nome_segurado,
      documento_segurado: row.documento_segurado,
      inicio_vigencia: term.inicio,
      fim_vigencia: term.fim,
      premio_liquido: pricing.netPremium,
      custo_apolice: pricing.policyCost,
      iof: pricing.iof,
      premio_total: option.total,
      forma_pagamento: contracted.formaPagamento,
      emitida_em: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const amounts = installmentSchedule(option);
  const due = installmentDueDates(contracted.diaVencimento, issuedDay, amounts.length);
  await trx
    .insertInto('installments')
    .values(amounts.map((valor, i) => ({ policy_id: policy.id, numero: i + 1, vencimento: due[i]!, valor })))
    .execute();
  return numbers;
}
