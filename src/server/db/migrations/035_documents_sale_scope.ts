import { type Kysely, sql } from 'kysely';

/**
 * Issue 29: a document carries its sale's scope — the quote's company, seller and generation — so the
 * documents consult reads each branch of a scope (identity/scope.ts soldWithinBranches) through an
 * index on the documents themselves, in the page's order.
 *
 * Before, documents held only their proposal: a branch walked documents_created (created_at, id) and
 * checked each document's quote through its proposal, so a partner admin's page read the documents of
 * every network until ten were theirs, and its bounded count probed proposals and quotes once per
 * document (the legacy consult's first page 80 ms at 1000×). With (company_id | seller_id,
 * generation, created_at, id) a branch is an index range in the list's order and its count an
 * index-only range. `seller_id` is the quote's `user_id` (who sold it); `documents.user_id` stays who
 * sent the file. Partial on `removido_em is null`: no list shows a removed document.
 *
 * The database keeps the three columns, whoever writes (the upload service, the demo seed, the scale
 * generator's bulk copies, an operator's SQL): a row trigger fills them from the proposal's quote on
 * insert and on any update that names them or the proposal — so a hand-written scope never sticks,
 * and a document can never be shown to a company its sale is not in; a quote given to another company
 * or seller moves its documents with it, and so does a proposal moved to another quote (nothing does
 * that today; an operator's fix could).
 */
const INDEXES = {
  documents_company_generation_created: '(company_id, generation, created_at, id)',
  documents_seller_generation_created: '(seller_id, generation, created_at, id)',
  documents_generation_created: '(generation, created_at, id)',
  // The consult's category filter over everyone's documents: a rare category would read them all.
  documents_generation_category_created: '(generation, categoria, created_at, id)',
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table documents add column company_id integer, add column seller_id integer, add column generation text`.execute(db);
  await sql`update documents d set company_id = q.company_id, seller_id = q.user_id, generation = q.generation
    from proposals p join quotes q on q.id = p.quote_id
    where p.id = d.proposal_id`.execute(db);
  await sql`alter table documents alter column seller_id set not null, alter column generation set not null`.execute(db);

  await sql`create function documents_sale_scope_trigger() returns trigger language plpgsql as $$
    begin
      select q.company_id, q.user_id, q.generation
        into new.company_id, new.seller_id, new.generation
        from proposals p join quotes q on q.id = p.quote_id
        where p.id = new.proposal_id;
      return new;
    end $$`.execute(db);
  await sql`create trigger documents_sale_scope
    before insert or update of proposal_id, company_id, seller_id, generation on documents
    for each row execute function documents_sale_scope_trigger()`.execute(db);

  // A sale moved (its quote, or a proposal given another quote): its documents name their proposal
  // again, and documents_sale_scope copies the scope once more — one place says what the scope is.
  await sql`create function quotes_documents_scope_trigger() returns trigger language plpgsql as $$
    begin
      update documents set proposal_id = proposal_id where proposal_id in (select id from proposals where quote_id = new.id);
      return null;
    end $$`.execute(db);
  await sql`create trigger quotes_documents_scope after update of company_id, user_id, generation on quotes
    for each row when (old.company_id is distinct from new.company_id or old.user_id is distinct from new.user_id
      or old.generation is distinct from new.generation)
    execute function quotes_documents_scope_trigger()`.execute(db);

  await sql`create function proposals_documents_scope_trigger() returns trigger language plpgsql as $$
    begin
      update documents set proposal_id = proposal_id where proposal_id = new.id;
      return null;
    end $$`.execute(db);
  await sql`create trigger proposals_documents_scope after update of quote_id on proposals
    for each row when (old.quote_id is distinct from new.quote_id)
    execute function proposals_documents_scope_trigger()`.execute(db);

  for (const [name, columns] of Object.entries(INDEXES))
    await sql`create index ${sql.id(name)} on documents ${sql.raw(columns)} where removido_em is null`.execute(db);
  // The consult read documents_created; nothing else reads documents by their instant alone.
  await sql`drop index if exists documents_created`.execute(db);
  // The planner sees the new columns at once: PGlite has no autovacuum, and PostgreSQL's comes later
  // (without it, everyone's count took a bitmap scan of all the generation's documents).
  await sql`analyze documents`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists documents_created on documents (created_at, id)`.execute(db);
  for (const name of Object.keys(INDEXES)) await sql`drop index if exists ${sql.id(name)}`.execute(db);
  await sql`drop trigger if exists proposals_documents_scope on proposals`.execute(db);
  await sql`drop function if exists proposals_documents_scope_trigger()`.execute(db);
  await sql`drop trigger if exists quotes_documents_scope on quotes`.execute(db);
  await sql`drop function if exists quotes_documents_scope_trigger()`.execute(db);
  await sql`drop trigger if exists documents_sale_scope on documents`.execute(db);
  await sql`drop function if exists documents_sale_scope_trigger()`.execute(db);
  await sql`alter table documents drop column if exists company_id, drop column if exists seller_id,
    drop column if exists generation`.execute(db);
}
