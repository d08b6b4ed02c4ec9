import { type Kysely, sql } from 'kysely';

/**
 * Issue 14, changing and cancelling what was sold (DESIGN §10). An endorsement (endosso) is a
 * numbered change of a policy: the insured's contact data, a whole cancellation or the cancellation
 * of some coverages. A cancellation leaves a refund owed to the insured (restituicoes) and the
 * partner's commission to be clawed back.
 *
 * The steps of a cancellation are kept as a draft per user and policy (endorsement_drafts), so a
 * reload resumes where the partner was; confirming consumes the draft, and the endorsement records
 * the draft's key (unique): a second confirmation — a double click, another tab — issues nothing
 * and answers the endorsement the first one issued.
 *
 * What a policy is now: policies.contato holds the insured's current contact after a contact
 * endorsement (null: the quote's), policies.coberturas_canceladas the coverages dropped, and the
 * premium columns the premium after them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const now = sql`now()`;
  await sql`create sequence endorsement_numbers`.execute(db);

  await db.schema
    .alterTable('policies')
    .addColumn('contato', 'jsonb')
    .addColumn('coberturas_canceladas', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('cancelada_em', 'date')
    .execute();

  await db.schema
    .createTable('endorsements')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('nr_endosso', 'text', (c) => c.notNull().unique())
    .addColumn('policy_id', 'integer', (c) => c.notNull().references('policies.id'))
    .addColumn('tipo', 'text', (c) => c.notNull().check(sql`tipo in ('CONTATO', 'CANCELAMENTO', 'CANCELAMENTO_PARCIAL')`))
    .addColumn('solicitante', 'text', (c) => c.check(sql`solicitante in ('SEGURADO', 'SEGURADORA')`))
    .addColumn('motivo', 'text')
    .addColumn('efetiva_em', 'date', (c) => c.notNull())
    // What changed, as the endorsement's page and PDF show it: the contact before and after, the
    // coverages dropped, the refund's figures with how each was reached.
    .addColumn('dados', 'jsonb', (c) => c.notNull())
    .addColumn('premio_anterior', 'integer', (c) => c.notNull())
    .addColumn('premio_novo', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('rascunho', 'text', (c) => c.unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('endorsements_policy').on('endorsements').columns(['policy_id', 'id']).execute();

  await db.schema
    .createTable('refunds')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('endorsement_id', 'integer', (c) => c.notNull().unique().references('endorsements.id'))
    .addColumn('policy_id', 'integer', (c) => c.notNull().references('policies.id'))
    .addColumn('valor', 'integer', (c) => c.notNull())
    .addColumn('estorno_comissao', 'integer', (c) => c.notNull())
    // The bank account or Pix key (lib/refund-account.ts); null when nothing is to be refunded.
    .addColumn('destino', 'jsonb')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('DEVIDA').check(sql`status in ('DEVIDA', 'PAGA')`))
    .addColumn('prevista_para', 'date', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('refunds_policy').on('refunds').column('policy_id').execute();

  await db.schema
    .createTable('endorsement_drafts')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('chave', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('policy_id', 'integer', (c) => c.notNull().references('policies.id'))
    .addColumn('dados', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('endorsement_drafts_user_policy', ['user_id', 'policy_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('endorsement_drafts').execute();
  await db.schema.dropTable('refunds').execute();
  await db.schema.dropTable('endorsements').execute();
  await db.schema.alterTable('policies').dropColumn('contato').dropColumn('coberturas_canceladas').dropColumn('cancelada_em').execute();
  await sql`drop sequence endorsement_numbers`.execute(db);
}
