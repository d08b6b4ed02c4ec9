import { type Kysely, sql } from 'kysely';

/** The foundation: companies, users of both generations, sessions, codes, mail outbox, offers. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const now = sql`now()`;
  await db.schema
    .createTable('companies')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('cnpj', 'text', (c) => c.notNull().unique())
    .addColumn('razao_social', 'text', (c) => c.notNull())
    .addColumn('nome_fantasia', 'text', (c) => c.notNull())
    .addColumn('tipo', 'text', (c) => c.notNull().check(sql`tipo in ('PARCEIRO', 'SUBSTABELECIDO')`))
    .addColumn('parent_id', 'integer', (c) => c.references('companies.id'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('ATIVO'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('points_of_sale')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('nome', 'text', (c) => c.notNull())
    .addColumn('codigo', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('points_of_sale_company_codigo', ['company_id', 'codigo'])
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('nome', 'text', (c) => c.notNull())
    .addColumn('cpf', 'text')
    .addColumn('generation', 'text', (c) => c.notNull().check(sql`generation in ('v1', 'v2')`))
    .addColumn('profile', 'text', (c) =>
      c.check(sql`profile is null or profile in ('admin', 'parceiro_admin', 'parceiro', 'substabelecido')`),
    )
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('ATIVO', 'PENDENTE', 'INATIVO')`))
    .addColumn('password_hash', 'text')
    .addColumn('company_id', 'integer', (c) => c.references('companies.id'))
    .addColumn('last_access_at', 'timestamptz')
    .addColumn('previous_access_at', 'timestamptz')
    .addColumn('password_changed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('user_companies')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_companies_pk', ['user_id', 'company_id'])
    .execute();

  await db.schema
    .createTable('user_operations')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('operation', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_operations_pk', ['user_id', 'operation'])
    .execute();

  await db.schema
    .createTable('permission_groups')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('nome', 'text', (c) => c.notNull().unique())
    .addColumn('descricao', 'text', (c) => c.notNull())
    .addColumn('is_admin', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();

  await db.schema
    .createTable('group_permissions')
    .addColumn('group_id', 'integer', (c) => c.notNull().references('permission_groups.id').onDelete('cascade'))
    .addColumn('nome', 'text', (c) => c.notNull())
    .addColumn('permite_visualizacao', 'boolean', (c) => c.notNull())
    .addColumn('permite_alteracao', 'boolean', (c) => c.notNull())
    .addPrimaryKeyConstraint('group_permissions_pk', ['group_id', 'nome'])
    .execute();

  await db.schema
    .createTable('user_groups')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('permission_groups.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_groups_pk', ['user_id', 'group_id'])
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('v1', 'v2', 'simulador')`))
    .addColumn('parent_id', 'integer', (c) => c.references('sessions.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('one_time_codes')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('RESET', 'PRIMEIRO_ACESSO', 'SSO')`))
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('emails')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('template', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('sent_at', 'timestamptz')
    .addColumn('error', 'text')
    .execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limits_pk', ['key', 'window_start'])
    .execute();

  await db.schema
    .createTable('access_events')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('generation', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('simulators')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('nome', 'text', (c) => c.notNull())
    .addColumn('linha', 'text', (c) => c.notNull())
    .addColumn('url_inicio', 'text', (c) => c.notNull())
    .addColumn('grupo_produto', 'text')
    .addColumn('ativo', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('offers')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('simulator_id', 'integer', (c) => c.notNull().references('simulators.id'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('nome', 'text', (c) => c.notNull())
    .addColumn('vigencia_inicio', 'date', (c) => c.notNull())
    .addColumn('vigencia_fim', 'date')
    .addColumn('comissao_centesimos', 'integer', (c) => c.notNull().check(sql`comissao_centesimos between 0 and 10000`))
    .addColumn('ativo', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'offers',
    'simulators',
    'access_events',
    'rate_limits',
    'emails',
    'one_time_codes',
    'sessions',
    'user_groups',
    'group_permissions',
    'permission_groups',
    'user_operations',
    'user_companies',
    'users',
    'points_of_sale',
    'companies',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
