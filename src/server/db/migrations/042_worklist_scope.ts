import { type Kysely, sql } from 'kysely';

/**
 * Issue 31: proposals and installments carry their sale's scope — company, seller and generation — so
 * each branch of a worklist kind (services/reporting/worklist.ts, identity/scope.ts soldWithinBranches)
 * is an index range in the kind's order, as documents' are since migration 035 and payments' since 033.
 *
 * Before, proposals and installments held only their quote or policy: at 1000× the demo a branch
 * walked every network's proposals waiting for documents (or installments overdue, or proposals
 * decided in the last 30 days) and checked each one's quote or policy until fifty were the viewer's —
 * 5,000 probes for the legacy administrator, whose generation is the book's smaller part, and as many
 * per company for a partner's administrator (the worklist 66–90 ms, its count 70 ms).
 *
 *   proposals      company_id, seller_id, generation — the quote's company_id, user_id, generation.
 *                  `seller_id` is who sold it; `proposals.user_id` stays who sent it.
 *   installments   company_id, seller_id, generation — the policy's company_id, user_id, generation.
 *
 * The database keeps them, whoever writes (the services, the demo seed, the scale generator's bulk
 * copies, an operator's SQL): a row trigger fills them from the parent on insert and on any update
 * that names them or the parent, and a quote or policy given to another company or seller moves its
 * proposals or installments with it (they name their parent again and the row trigger copies anew —
 * one place says what the scope is).
 */
const INDEXES: [string, string][] = [
  // Proposals waiting for the partner's documents, the nearest deadline first.
  ['proposals_waiting_company', "proposals (company_id, generation, aceite_ate) where status = 'AGUARDANDO_DOCUMENTOS'"],
  ['proposals_waiting_seller', "proposals (seller_id, generation, aceite_ate) where status = 'AGUARDANDO_DOCUMENTOS'"],
  ['proposals_waiting_generation', "proposals (generation, aceite_ate) where status = 'AGUARDANDO_DOCUMENTOS'"],
  // The acceptance queue (the insurer's staff), the nearest deadline first: migration 007's index holds the
  // proposals waiting for documents too, as many again at 1000× the demo, read and thrown away.
  ['proposals_analysis_deadline', "proposals (aceite_ate, id) where status = 'EM_ANALISE'"],
  // Proposals decided lately (the partner's notices), the latest first.
  ['proposals_decided_company', "proposals (company_id, generation, decidida_em) where status in ('ACEITA', 'RECUSADA')"],
  ['proposals_decided_seller', "proposals (seller_id, generation, decidida_em) where status in ('ACEITA', 'RECUSADA')"],
  ['proposals_decided_generation', "proposals (generation, decidida_em) where status in ('ACEITA', 'RECUSADA')"],
  // Open installments by due day (the overdue ones, the 2ª via), the longest overdue first.
  ['installments_open_company', "installments (company_id, generation, vencimento) where status = 'ABERTA'"],
  ['installments_open_seller', "installments (seller_id, generation, vencimento) where status = 'ABERTA'"],
  ['installments_open_generation', "installments (generation, vencimento) where status = 'ABERTA'"],
  // Refunds to pay of one generation (the legacy administrators'), the earliest planned first.
  ['refunds_owed_generation', "refunds (generation, prevista_para, id) where status = 'DEVIDA'"],
];
/** Migration 037's, which the branches above replace (they read no generation nor company). */
const REPLACED: [string, string][] = [
  ['proposals_waiting_user', "proposals (user_id, aceite_ate) where status = 'AGUARDANDO_DOCUMENTOS'"],
  ['proposals_decided', "proposals (decidida_em) where status in ('ACEITA', 'RECUSADA')"],
  ['proposals_decided_user', "proposals (user_id, decidida_em) where status in ('ACEITA', 'RECUSADA')"],
];

/** A child table that carries its parent's scope: the parent, the column naming it, and the parent's columns. */
const CHILDREN = [
  { table: 'proposals', parent: 'quotes', via: 'quote_id' },
  { table: 'installments', parent: 'policies', via: 'policy_id' },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const { table, parent, via } of CHILDREN) {
    const [t, p, v] = [sql.raw(table), sql.raw(parent), sql.raw(via)];
    await sql`alter table ${t} add column company_id integer, add column seller_id integer, add column generation text`.execute(db);
    await sql`update ${t} c set company_id = s.company_id, seller_id = s.user_id, generation = s.generation
      from ${p} s where s.id = c.${v}`.execute(db);
    await sql`alter table ${t} alter column seller_id set not null, alter column generation set not null`.execute(db);

    await sql`create function ${sql.raw(`${table}_sale_scope_trigger`)}() returns trigger language plpgsql as ${sql.raw(`$$
      begin
        select s.company_id, s.user_id, s.generation into new.company_id, new.seller_id, new.generation
          from ${parent} s where s.id = new.${via};
        return new;
      end $$`)}`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_sale_scope`)}
      before insert or update of ${v}, company_id, seller_id, generation on ${t}
      for each row execute function ${sql.raw(`${table}_sale_scope_trigger`)}()`.execute(db);

    await sql`create function ${sql.raw(`${parent}_${table}_scope_trigger`)}() returns trigger language plpgsql as ${sql.raw(`$$
      begin
        update ${table} set ${via} = ${via} where ${via} = new.id;
        return null;
      end $$`)}`.execute(db);
    await sql`create trigger ${sql.raw(`${parent}_${table}_scope`)} after update of company_id, user_id, generation on ${p}
      for each row when (old.company_id is distinct from new.company_id or old.user_id is distinct from new.user_id
        or old.generation is distinct from new.generation)
      execute function ${sql.raw(`${parent}_${table}_scope_trigger`)}()`.execute(db);
  }
  for (const [name, definition] of INDEXES) await sql`create index ${sql.id(name)} on ${sql.raw(definition)}`.execute(db);
  for (const [name] of REPLACED) await sql`drop index if exists ${sql.id(name)}`.execute(db);
  // The planner sees the new columns at once (PGlite has no autovacuum; PostgreSQL's comes later).
  await sql`analyze proposals`.execute(db);
  await sql`analyze installments`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name, definition] of REPLACED) await sql`create index if not exists ${sql.id(name)} on ${sql.raw(definition)}`.execute(db);
  for (const [name] of INDEXES) await sql`drop index if exists ${sql.id(name)}`.execute(db);
  for (const { table, parent } of CHILDREN) {
    await sql`drop trigger if exists ${sql.raw(`${parent}_${table}_scope`)} on ${sql.raw(parent)}`.execute(db);
    await sql`drop function if exists ${sql.raw(`${parent}_${table}_scope_trigger`)}()`.execute(db);
    await sql`drop trigger if exists ${sql.raw(`${table}_sale_scope`)} on ${sql.raw(table)}`.execute(db);
    await sql`drop function if exists ${sql.raw(`${table}_sale_scope_trigger`)}()`.execute(db);
    await sql`alter table ${sql.raw(table)} drop column if exists company_id, drop column if exists seller_id,
      drop column if exists generation`.execute(db);
  }
}
