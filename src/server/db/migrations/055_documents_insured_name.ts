import { type Kysely, sql } from 'kysely';

/**
 * Issue 42: a document carries its insured's name as the searches read it (the quote's nome_busca,
 * migration 029), with a trigram index of its own, as it carries its sale's scope (migration 035).
 *
 * A name search of the documents named the quotes of that name and kept the documents of their
 * proposals: a common name ("almeida", 1 % of the insureds) found every quote of it — about one in ten
 * has a document — so the consult read a thousand quotes at 1000× to show ten documents (×3.4 against the
 * demo year). A name search now reads a bounded number of matches (server/db/keyset-page.ts
 * readRankedPage): on the documents themselves, those are documents. A search by CPF/CNPJ still names
 * the quotes (a btree equality, a handful of rows).
 *
 * The same trigger as the scope fills it, whoever writes the document; a quote whose insured's name
 * changes moves it on its documents as a quote given to another company moves their scope.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table documents add column nome_busca text`.execute(db);
  await sql`update documents d set nome_busca = q.nome_busca
    from proposals p join quotes q on q.id = p.quote_id
    where p.id = d.proposal_id`.execute(db);
  await sql`create or replace function documents_sale_scope_trigger() returns trigger language plpgsql as $$
    begin
      select q.company_id, q.user_id, q.generation, q.nome_busca
        into new.company_id, new.seller_id, new.generation, new.nome_busca
        from proposals p join quotes q on q.id = p.quote_id
        where p.id = new.proposal_id;
      return new;
    end $$`.execute(db);
  await sql`drop trigger documents_sale_scope on documents`.execute(db);
  await sql`create trigger documents_sale_scope
    before insert or update of proposal_id, company_id, seller_id, generation, nome_busca on documents
    for each row execute function documents_sale_scope_trigger()`.execute(db);
  await sql`drop trigger quotes_documents_scope on quotes`.execute(db);
  await sql`create trigger quotes_documents_scope after update of company_id, user_id, generation, nome_segurado on quotes
    for each row when (old.company_id is distinct from new.company_id or old.user_id is distinct from new.user_id
      or old.generation is distinct from new.generation or old.nome_segurado is distinct from new.nome_segurado)
    execute function quotes_documents_scope_trigger()`.execute(db);
  // Without fastupdate, as the quotes' and policies' (migration 029: PGlite never vacuums a pending list).
  await sql`create index documents_nome_busca on documents using gin (nome_busca gin_trgm_ops) with (fastupdate = off)
    where removido_em is null`.execute(db);
  await sql`analyze documents`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists documents_nome_busca`.execute(db);
  await sql`drop trigger quotes_documents_scope on quotes`.execute(db);
  await sql`create trigger quotes_documents_scope after update of company_id, user_id, generation on quotes
    for each row when (old.company_id is distinct from new.company_id or old.user_id is distinct from new.user_id
      or old.generation is distinct from new.generation)
    execute function quotes_documents_scope_trigger()`.execute(db);
  await sql`drop trigger documents_sale_scope on documents`.execute(db);
  await sql`create trigger documents_sale_scope
    before insert or update of proposal_id, company_id, seller_id, generation on documents
    for each row execute function documents_sale_scope_trigger()`.execute(db);
  await sql`create or replace function documents_sale_scope_trigger() returns trigger language plpgsql as $$
    begin
      select q.company_id, q.user_id, q.generation
        into new.company_id, new.seller_id, new.generation
        from proposals p join quotes q on q.id = p.quote_id
        where p.id = new.proposal_id;
      return new;
    end $$`.execute(db);
  await sql`alter table documents drop column if exists nome_busca`.execute(db);
}
