// `npm run scale -- --times 1000`: grows a database that holds the demo data K times (issue 29,
// docs/decisions/064-scale-generator.md), the way the services would have written it — copies of the
// demo year's sales (quotes to refunds) with fresh ids and numbers, insureds of their own, dates
// spread over the year, sold by several partners' networks of companies, points of sale and sellers —
// and the access log, documents and notas fiscais those sales would have left. Bulk SQL, one
// statement per table per batch of copies, a transaction per batch; on PGlite (DATA_DIR, the portal
// stopped) or PostgreSQL (DATABASE_URL). It refuses a database without the demo data, and one it
// has grown before unless told --force.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CompiledQuery } from 'kysely';
import './typescript.mjs';

// src's own modules, as the services use them (scripts/typescript.mjs): a copy's charge gets its codes
// from the charges' rules, its files go to the portal's file store, its PDFs come from the portal's writer.
const { chargeCodes, chargeDescription, pixTxid } = await import('../src/lib/charges.ts');
const { DATA_VIEWS } = await import('../src/lib/access-log.ts');
const { DOCUMENT_CATEGORIES } = await import('../src/lib/documents.ts');
const { formatDateTime } = await import('../src/lib/format.ts');
const { cnpjCheckDigits, cpfCheckDigits } = await import('../src/lib/validators.ts');
const { fileStore } = await import('../src/server/files.ts');
const { openDocument } = await import('../src/server/pdf/writer.ts');

export const DEFAULT_TIMES = 1000;
/** Copies per batch: ~2,500 rows a copy, so a batch's statements write ~50k rows each at most. */
export const DEFAULT_BATCH = 20;
/** A copy of a sale happens up to this many days (and an hour) before the sale it copies. */
export const SPREAD_DAYS = 7;
/** Where the marker lives: the comment of the quotes table (no migration, invisible to the portal). */
const MARKER_PREFIX = 'npm run scale: ';
/** The demo's companies (server/demo/seed.ts DEMO_COMPANIES): their network is the first of the grown book. */
const DEMO_CNPJS = ['11222333000181', '33444555000181'];
const ZONE = 'America/Sao_Paulo';
/** 7¹⁰: prime to 2, 3 and 5, so multiplying by it permutes the numbers below 9×10⁸ (and 9×10⁷). */
const SCRAMBLE = 282_475_249;

/** The tables copied sale by sale, parents first; `id` of a copy k is id + k × stride (proposal_events: 2 × id). */
export const COPIED_TABLES = [
  'quotes',
  'proposals',
  'policies',
  'proposal_events',
  'installments',
  'policy_links',
  'charges',
  'payments',
  'receipts',
  'endorsements',
  'refunds',
];
/** What a grown database counts: the copies, what they would have left behind, and the networks selling them. */
export const COUNTED_TABLES = [
  ...COPIED_TABLES,
  'documents',
  'notas_fiscais',
  'access_events',
  'companies',
  'points_of_sale',
  'offers',
  'users',
  'v2_permission_groups',
  'sales_targets',
];

/**
 * The settings that turn off, for one transaction, the row triggers keeping the rollups: the metrics'
 * sales_monthly (migration 028) and the commission statement's commissions_monthly with each payment's
 * commission (migration 034). A batch copies without them, then adds its sales at once
 * (add_sales_monthly, add_commissions_monthly) in the same transaction, so the rollups are right after
 * every committed batch. A `set local`, not ALTER TABLE … DISABLE TRIGGER: no catalog change per batch
 * (PGlite's catalog broke under it), and nothing stays off if the run dies.
 */
export const ROLLUPS_OFF = ['portal.sales_monthly_off', 'portal.commissions_monthly_off', 'portal.renewals_monthly_off'];

/** A list written as text, one comma between items. */
const listOf = (text) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

// Insureds' names: a first name, a middle name and a last name. Only LAST_NAMES holds "Almeida" (once
// in 100), so a search for it finds ~1 % of the copies, as a common surname does in a real book.
const FIRST_NAMES = listOf(`
  Ana, Bruno, Carla, Daniel, Eduarda, Felipe, Gabriela, Henrique, Isabela, João, Karina, Leonardo, Mariana,
  Nicolas, Olívia, Paulo, Rafael, Sofia, Tiago, Vinícius, Yasmin, Augusto, Bianca, Caio, Débora, Enzo, Fabiana,
  Gustavo, Heloísa, Igor, Jéssica, Kauã, Letícia, Marcelo, Natália, Otávio, Priscila, Renato, Sabrina, Túlio,
  Valéria, Wagner, Alice, Bernardo, Cecília, Diego, Elisa, Fábio, Giovana, Hugo, Ingrid, Júlio, Lara, Matheus,
  Nathalia, Pietro, Rebeca, Samuel, Tatiane, Vitor
`);
const MIDDLE_NAMES = listOf(`
  Alves, Barros, Campos, Dias, Fernandes, Gonçalves, Lima, Lopes, Machado, Martins, Mendes, Monteiro, Nascimento,
  Pereira, Pinto, Ribeiro, Rocha, Santos, Silva, Souza, Vieira, Xavier, Cavalcanti, Correia, Cunha, Farias,
  Figueiredo, Guimarães, Leal, Macedo, Moura, Neves, Pacheco, Queiroz, Rezende, Sales, Siqueira, Tavares,
  Vasconcelos, Brandão
`);
const LAST_NAMES = listOf(`
  Almeida, Andrade, Antunes, Aragão, Arruda, Azevedo, Bastos, Batista, Bezerra, Borges, Braga, Cabral, Caldeira,
  Camargo, Cardoso, Carneiro, Carvalho, Castro, Coelho, Costa, Coutinho, Cruz, Duarte, Esteves, Falcão, Ferraz,
  Ferreira, Fonseca, Franco, Freitas, Frota, Galvão, Garcia, Gomes, Guerra, Jardim, Lacerda, Leite, Lemos, Lins,
  Lobo, Loureiro, Magalhães, Maia, Marinho, Marques, Medeiros, Meireles, Melo, Mesquita, Miranda, Moraes,
  Moreira, Mota, Muniz, Nogueira, Nunes, Oliveira, Paiva, Peixoto, Pimentel, Pires, Prado, Queiroga, Ramos,
  Rangel, Reis, Rios, Sampaio, Santana, Seixas, Serrano, Soares, Teixeira, Teles, Toledo, Torres, Trindade,
  Valente, Valadares, Veloso, Viana, Vidal, Aguiar, Amaral, Barreto, Bueno, Cordeiro, Dantas, Diniz, Estrela,
  Fagundes, Godoy, Hora, Lago, Matos, Novaes, Porto, Quintana, Sobral
`);
/** A business insured: what it is and a last name ('Padaria Moreira Ltda.'). */
const BUSINESSES = listOf(`
  Padaria, Oficina Mecânica, Mercearia, Estúdio, Clínica, Farmácia, Papelaria, Ótica, Restaurante, Academia,
  Livraria, Floricultura, Pet Shop, Lavanderia, Marcenaria, Serralheria, Confeitaria, Autopeças, Distribuidora,
  Transportadora
`);
/** The new partners' names: 'Corretora Aurora Seguros Ltda.' and its substabelecido 'Agência Ipê Corretagem Ltda.'. */
const PARTNER_WORDS = listOf(`
  Aurora, Atlântico, Bandeirante, Cerrado, Litoral, Planalto, Pioneira, Serra Azul, Vale do Sol, Estrela Guia,
  Porto Seguro do Sul, Alvorada, Capital, Continental, Farol, Guardiã, Itapoã, Jequitibá, Meridiana, Nova Era,
  Paraná, Riviera, Solar, Tropical, União, Vanguarda, Zênite, Amazônia, Bela Vista, Central, Diamante, Esplanada
`);
const AGENCY_WORDS = listOf(`
  Ipê, Araucária, Buriti, Cambará, Embaúba, Figueira, Guapuruvu, Jacarandá, Jatobá, Manacá, Oiti, Pau-Brasil,
  Quaresmeira, Sibipiruna, Tamboril, Umbuzeiro
`);
/** The documents a referred proposal's seller sends, by line; `label` is the category's, as the timeline names it. */
const DOCUMENT_OF_LINE = {
  vida: { categoria: 'DECLARACAO_SAUDE', label: DOCUMENT_CATEGORIES.DECLARACAO_SAUDE, nome: 'declaracao-de-saude.pdf' },
  residencial: { categoria: 'LAUDO_VISTORIA', label: DOCUMENT_CATEGORIES.LAUDO_VISTORIA, nome: 'laudo-de-vistoria.pdf' },
  other: { categoria: 'OUTRO', label: DOCUMENT_CATEGORIES.OUTRO, nome: 'documento-complementar.pdf' },
};
/** What the log keeps (ACCESS_LOG_RETENTION_DAYS' default): no older row is written, the purge would take it. */
const LOG_DAYS = 364;

/** A CPF of 9 base digits and a CNPJ of an 8-digit root's head office (0001), with lib/validators.ts's check digits. */
const cpfOf = (base9) => `${base9}${cpfCheckDigits(base9)}`;
const cnpjOf = (root8) => `${root8}0001${cnpjCheckDigits(`${root8}0001`)}`;

const literal = (text) => `'${String(text).replaceAll("'", "''")}'`;
const arrayOf = (list) => `array[${list.map(literal).join(', ')}]::text[]`;
const plain = (name) =>
  name
    .normalize('NFD')
    .replace(/[^a-zA-Z]/g, '')
    .toLowerCase();

/** SQL of a CPF made of a 9-digit text expression: the same digits as lib/validators.ts cpfCheckDigits. */
const cpfSql = (base) => `(${base} || (select d1::text || (select case when r = 10 then 0 else r end
    from (select ((sum(substr(${base}, i, 1)::int * (12 - i)) + d1 * 2) * 10) % 11 as r from generate_series(1, 9) i) s2)
  from (select case when r = 10 then 0 else r end as d1
    from (select (sum(substr(${base}, i, 1)::int * (11 - i)) * 10) % 11 as r from generate_series(1, 9) i) s1) s0))`;
/** SQL of a CNPJ made of an 8-digit root, head office 0001: the same digits as lib/validators.ts cnpjCheckDigits. */
const cnpjSql = (root) => {
  const base = `(${root} || '0001')`;
  const w12 = `case when i <= 4 then 6 - i else 14 - i end`;
  const w13 = `case when i <= 5 then 7 - i else 15 - i end`;
  return `(${base} || (select d1::text || (select case when r < 2 then 0 else 11 - r end
      from (select sum(substr(${base} || d1, i, 1)::int * ${w13}) % 11 as r from generate_series(1, 13) i) s2)
    from (select case when r < 2 then 0 else 11 - r end as d1
      from (select sum(substr(${base}, i, 1)::int * ${w12}) % 11 as r from generate_series(1, 12) i) s1) s0))`;
};

/**
 * A one-page PDF drawn by the portal's PDF writer (the quote's, the policy's and the boleto's), saying
 * what it stands for, put in the portal's file store. The files these rows point at are uploads in
 * the portal (the seller's scan, the company's nota fiscal), which nothing of the portal draws: one
 * file serves every row of its kind, as one upload would.
 */
async function storedPdf(files, title, issuedAt) {
  const { pdf, bytes, page } = openDocument({ title, subject: 'Arquivo de demonstração', issuedAt: formatDateTime(issuedAt) });
  page.title(title);
  page.paragraph('Arquivo de demonstração, gerado por npm run scale no lugar do arquivo que o usuário enviaria.');
  page.footers(title, 'Portal de Parceiros — dados de demonstração');
  pdf.end();
  const content = await bytes;
  return { sha256: await files.storeBytes(content), size: content.byteLength };
}

export class ScaleRefused extends Error {
  code = 'SCALE_REFUSED';
}

/**
 * growDatabase on one connection of a portal's database (server/db connect): the temporary tables of
 * the run live in that session. How the command and the tests grow a database.
 * @param {import('kysely').Kysely<any>} db
 * @param {Parameters<typeof growDatabase>[1]} options
 */
export const growOn = (db, options) =>
  db
    .connection()
    .execute((connection) =>
      growDatabase({ query: async (text, params) => (await connection.executeQuery(CompiledQuery.raw(text, params ?? []))).rows }, options),
    );

/** The maps from the demo network's ids to each new network's (temporary tables of the run). */
const MAPS = ['company', 'pos', 'offer', 'user', 'group'];

const readMarker = (comment) => (comment?.startsWith(MARKER_PREFIX) ? JSON.parse(comment.slice(MARKER_PREFIX.length)) : undefined);
const markerSql = (marker) => `comment on table quotes is ${literal(MARKER_PREFIX + JSON.stringify(marker))}`;

async function countRows(query) {
  const rows = await query(`select ${COUNTED_TABLES.map((t) => `(select count(*) from ${t})::int as ${t}`).join(', ')}`);
  return rows[0];
}

/**
 * Grows the database behind `client` (one connection: `query(text, params?)` answers rows) `times`
 * times. Answers the copies made, the networks added, the row counts before and after and the
 * seconds it took; throws ScaleRefused on a database without the demo or grown before (unless `force`).
 * @param {{ query: (text: string, params?: unknown[]) => Promise<any[]> }} client
 * @param {{ times?: number, force?: boolean, batch?: number, networks?: number,
 *   files: import('../src/server/files.ts').FileStore, now?: Date,
 *   log?: (line: string) => void }} options
 */
export async function growDatabase(
  client,
  { times = DEFAULT_TIMES, force = false, batch = DEFAULT_BATCH, networks, files, now = new Date(), log = () => {} },
) {
  const started = performance.now();
  const query = (text, params) => client.query(text, params);
  if (!Number.isInteger(times) || times < 1) throw new ScaleRefused('--times must be a whole number from 1.');
  if (!files) throw new ScaleRefused("Say where the files live (files: the portal's file store, server/files.ts fileStore()).");

  const [facts] = await query(
    `select (select count(*) from companies where cnpj = any($1::text[]))::int as companies,
       (select count(*) from quotes)::int as quotes,
       (select count(*) from policies)::int as policies,
       (select id from users where profile = 'admin' and status = 'ATIVO' order by id limit 1) as admin_id,
       obj_description('public.quotes'::regclass, 'pg_class') as comment`,
    [DEMO_CNPJS],
  );
  if (facts.companies < DEMO_CNPJS.length || facts.quotes === 0 || facts.admin_id === null)
    throw new ScaleRefused(
      'This database has no demo data (the demo companies, their sales and the insurer admin): start the portal on it once (npm start) and stop it, then grow it.',
    );
  const marker = readMarker(facts.comment);
  if (marker && !force) {
    const stopped = marker.runs.at(-1)?.done === false ? ', the last run stopped before it ended' : '';
    throw new ScaleRefused(
      `This database was grown already (${marker.copies} copies of the demo year${stopped}): growing it again multiplies what is there; pass --force to add ${times} more copies anyway.`,
    );
  }
  if (facts.policies < 20)
    log(`Note: the demo has only ${facts.policies} policies (DEMO_HISTORY was off when it was seeded): the copies are of those.`);
  const before = await countRows(query);
  const adminId = facts.admin_id;

  // Sources and strides: the rows there at the first growth are the demo year; copy k of a row has id
  // row.id + k × stride, so a child finds its parent's copy by arithmetic, and forced runs continue.
  const bounds = marker?.bounds ?? {};
  if (!marker) {
    const [maxima] = await query(`select ${COPIED_TABLES.map((t) => `coalesce((select max(id) from ${t}), 0) as ${t}`).join(', ')}`);
    for (const table of COPIED_TABLES) bounds[table] = Number(maxima[table]);
  }
  const stride = Object.fromEntries(COPIED_TABLES.map((t) => [t, t === 'proposal_events' ? 2 * bounds[t] + 2 : bounds[t] + 1]));
  const [current] = await query(`select ${COPIED_TABLES.map((t) => `coalesce((select max(id) from ${t}), 0) as ${t}`).join(', ')}`);
  const firstCopy = 1 + Math.max(0, ...COPIED_TABLES.map((t) => Math.floor(Number(current[t]) / stride[t])));
  const lastCopy = firstCopy + times - 1;
  const networkCount = Math.max(1, Math.min(times, networks ?? Math.max(2, Math.round(Math.sqrt(times)))));
  const networksBefore = marker?.networks ?? 0;
  const copiesOf = (net) => (net < times ? Math.floor((times - 1 - net) / networkCount) + 1 : 0);
  /** How many times the demo year the demo network sells (itself and its copies): its targets are the demo's times this. */
  const demoShare = marker?.demoShare ?? 1;
  /** What the database says of its growth: the copies so far, the networks, the sources' bounds, each run. */
  const markerOf = (copies, done) => ({
    copies,
    networks: networksBefore + networkCount - 1,
    demoShare: demoShare + copiesOf(0),
    bounds,
    runs: [...(marker?.runs ?? []), { times, networks: networkCount, at: now.toISOString(), done }],
  });

  const documentFile = await storedPdf(files, 'Documento da proposta', now);
  const notaFile = await storedPdf(files, 'Nota fiscal de serviços — comissões', now);

  // ----- Setup, one transaction: the sources, the new networks and their targets, the marker.
  await query('begin');
  try {
    for (const table of COPIED_TABLES) {
      await query(`drop table if exists src_${table}`);
      await query(`create temp table src_${table} as select * from ${table} where id <= ${bounds[table]}`);
      await query(`alter table src_${table} add primary key (id)`);
    }
    await query('drop table if exists src_targets');
    await query(
      `create temp table src_targets as select t.* from sales_targets t join companies c on c.id = t.company_id where c.cnpj = any($1::text[])`,
      [DEMO_CNPJS],
    );
    for (const map of MAPS) {
      await query(`drop table if exists scale_${map}`);
      await query(`create temp table scale_${map} (net int, old_id int, new_id int, primary key (net, old_id))`);
    }
    await query('drop table if exists scale_network');
    await query('create temp table scale_network (net int primary key, copies int)');
    for (let net = 0; net < networkCount; net++) await query('insert into scale_network values ($1, $2)', [net, copiesOf(net)]);
    await query('drop table if exists scale_sale');
    await query(`create temp table scale_sale (k int, net int, quote_id int, shift interval, days int, nome text, email text, doc text,
      primary key (k, quote_id))`);

    await createNetworks(query, { networkCount, networksBefore, adminId, log });
    await copyTargets(query, demoShare, copiesOf(0));
    await query(markerSql(markerOf(firstCopy - 1, false)));
    await query('commit');
  } catch (error) {
    await query('rollback');
    throw error;
  }

  // ----- The copies, a batch per transaction. The name searches' trigram indexes (migration 029) take
  // each row as it comes (no fastupdate), which costs 10× a queued insert: while copying they queue
  // rows in their pending list, merged once at the end.
  const unqueued = await query(`select c.relname as name from pg_class c join pg_am am on am.oid = c.relam
    where am.amname = 'gin' and c.relkind = 'i' and 'fastupdate=off' = any(c.reloptions)`);
  for (const { name } of unqueued) await query(`alter index ${name} set (fastupdate = on)`);
  const context = { stride, bounds, firstCopy, networkCount, now, documentFile };
  let done = 0;
  try {
    for (let from = firstCopy; from <= lastCopy; from += batch) {
      const to = Math.min(lastCopy, from + batch - 1);
      await query('begin');
      try {
        for (const setting of ROLLUPS_OFF) await query(`set local ${setting} = 'on'`);
        await copyBatch(query, context, from, to, !marker && from === firstCopy);
        for (const setting of ROLLUPS_OFF) await query(`set local ${setting} = 'off'`);
        // The rows of copies from..to of a table: ids from × stride + 1 to to × stride + the demo's last (copy k of a row is id + k × stride).
        const copied = (table) => [from * stride[table] + 1, to * stride[table] + bounds[table]];
        await query('select add_sales_monthly($1, $2)', copied('quotes'));
        await query('select add_commissions_monthly($1, $2, $3, $4)', [...copied('payments'), ...copied('refunds')]);
        await query('select add_renewals_monthly($1, $2)', copied('policies'));
        await query(markerSql(markerOf(to, to === lastCopy)));
        await query('commit');
      } catch (error) {
        await query('rollback');
        throw error;
      }
      done += to - from + 1;
      log(`  ${done}/${times} copies (${Math.round((100 * done) / times)} %), ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  } finally {
    for (const { name } of unqueued) {
      await query(`select gin_clean_pending_list('${name}'::regclass)`);
      await query(`alter index ${name} set (fastupdate = off)`);
    }
  }

  // ----- What the whole book leaves: the partners' notas fiscais, the sellers' last access, the sequences.
  await query('begin');
  try {
    await writeNotas(query, { adminId, now, notaFile });
    await query(`update users u set last_access_at = x.last_at
      from (select user_id, max(created_at) as last_at from access_events
        where event = 'LOGIN' and user_id in (select new_id from scale_user) group by user_id) x
      where u.id = x.user_id`);
    for (const table of [...COPIED_TABLES, 'documents', 'access_events', 'notas_fiscais'])
      await query(`select setval(pg_get_serial_sequence('${table}', 'id'), greatest(1, (select max(id) from ${table})))`);
    await query('commit');
  } catch (error) {
    await query('rollback');
    throw error;
  }
  const temporary = [...COPIED_TABLES.map((t) => `src_${t}`), 'src_targets', 'scale_sale', 'scale_network'];
  for (const table of [...temporary, ...MAPS.map((m) => `scale_${m}`)]) await query(`drop table if exists ${table}`);
  log('  analyze (the planner learns the new sizes)…');
  await query('analyze');
  const after = await countRows(query);
  return {
    copies: times,
    firstCopy,
    networks: networkCount,
    before,
    after,
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * The partners' networks the copies are sold by: network 0 is the demo's own (Horizonte, Vale Verde,
 * their points of sale and sellers); each new one mirrors it — its companies with CNPJs, SUSEP
 * registrations and names of their own, its points of sale, offers, permission groups and the users
 * who work there (the same password as the demo user each mirrors), named `<who>.rede<N>@<domain>`.
 */
async function createNetworks(query, { networkCount, networksBefore, adminId, log }) {
  if (networkCount < 2) return;
  const companies = await query(
    `select id, tipo, parent_id, susep from companies where cnpj = any($1::text[]) order by parent_id nulls first, id`,
    [DEMO_CNPJS],
  );
  const companyIds = companies.map((c) => c.id);
  const points = await query('select id, company_id from points_of_sale where company_id = any($1::int[]) order by id', [companyIds]);
  const offers = await query(
    'select id, company_id, parent_offer_id from offers where company_id = any($1::int[]) order by parent_offer_id nulls first, id',
    [companyIds],
  );
  const groups = await query('select id, company_id from v2_permission_groups where company_id = any($1::int[]) order by id', [companyIds]);
  // Who works for the demo companies: every active user of theirs but the insurer's own staff.
  const users = await query(
    `select u.id, u.email from users u
     where u.status = 'ATIVO' and coalesce(u.profile, '') <> 'admin'
       and (u.company_id = any($1::int[]) or exists (select 1 from user_companies uc where uc.user_id = u.id and uc.company_id = any($1::int[])))
       and not exists (select 1 from user_groups ug join permission_groups g on g.id = ug.group_id where ug.user_id = u.id and g.is_admin)
     order by u.id`,
    [companyIds],
  );
  const taken = {
    cnpj: new Set((await query('select cnpj from companies')).map((r) => r.cnpj)),
    susep: new Set((await query('select susep from companies where susep is not null')).map((r) => r.susep)),
    cpf: new Set((await query('select cpf from users where cpf is not null')).map((r) => r.cpf)),
  };
  const fresh = (kind, make, seed) => {
    for (let n = seed; ; n++) {
      const value = make(n);
      if (!taken[kind].has(value)) {
        taken[kind].add(value);
        return value;
      }
    }
  };
  const nameOf = (words, n) => `${words[(n - 1) % words.length]}${n > words.length ? ` ${Math.ceil(n / words.length)}` : ''}`;

  for (let net = 1; net < networkCount; net++) {
    const number = networksBefore + net;
    const map = (kind, oldId, newId) => query(`insert into scale_${kind} values ($1, $2, $3)`, [net, oldId, newId]);
    const mapped = new Map();
    for (const [index, company] of companies.entries()) {
      const partner = company.tipo === 'PARCEIRO';
      const word = nameOf(partner ? PARTNER_WORDS : AGENCY_WORDS, number);
      const cnpj = fresh('cnpj', (n) => cnpjOf(String(60_000_000 + n)), number * 10 + index);
      const susep = company.susep === null ? null : fresh('susep', (n) => String(300_000_000 + n), number * 10 + index);
      const [row] = await query(
        `insert into companies (cnpj, razao_social, nome_fantasia, tipo, parent_id, status, channel_id, corretora, susep,
           endereco, contatos, conta_comissao, activated_at, created_by)
         select $1, $2, $3, tipo, $4, 'ATIVO', channel_id, corretora, $5, endereco, contatos,
           case when conta_comissao ? 'titular' then jsonb_set(conta_comissao, '{titular}', to_jsonb($1::text))
                when conta_comissao->'chave'->>'type' = 'CNPJ' then jsonb_set(conta_comissao, '{chave,key}', to_jsonb($1::text))
                else conta_comissao end,
           activated_at, $6
         from companies where id = $7 returning id`,
        [
          cnpj,
          partner ? `Corretora ${word} Seguros Ltda.` : `Agência ${word} Corretagem Ltda.`,
          partner ? `${word} Seguros` : word,
          company.parent_id === null ? null : mapped.get(company.parent_id),
          susep,
          adminId,
          company.id,
        ],
      );
      mapped.set(company.id, row.id);
      await map('company', company.id, row.id);
    }
    for (const point of points) {
      const [row] = await query(
        `insert into points_of_sale (company_id, nome, codigo, cep, logradouro, numero, complemento, bairro, cidade, uf, status)
         select $1, nome, codigo, cep, logradouro, numero, complemento, bairro, cidade, uf, status from points_of_sale where id = $2 returning id`,
        [mapped.get(point.company_id), point.id],
      );
      await map('pos', point.id, row.id);
    }
    for (const offer of offers) {
      const [row] = await query(
        `insert into offers (simulator_id, company_id, nome, vigencia_inicio, vigencia_fim, comissao_centesimos, ativo, parent_offer_id)
         select o.simulator_id, $1, regexp_replace(o.nome, ' — .*$', '') || ' — ' || c.nome_fantasia, o.vigencia_inicio, o.vigencia_fim,
           o.comissao_centesimos, o.ativo, (select new_id from scale_offer where net = $2 and old_id = o.parent_offer_id)
         from offers o, companies c where o.id = $3 and c.id = $1 returning id`,
        [mapped.get(offer.company_id), net, offer.id],
      );
      await map('offer', offer.id, row.id);
    }
    for (const group of groups) {
      const [row] = await query(
        `insert into v2_permission_groups (company_id, nome, descricao) select $1, nome, descricao from v2_permission_groups where id = $2 returning id`,
        [mapped.get(group.company_id), group.id],
      );
      await query(
        'insert into v2_permission_group_operations (group_id, operation) select $1, operation from v2_permission_group_operations where group_id = $2',
        [row.id, group.id],
      );
      await map('group', group.id, row.id);
    }
    for (const [index, user] of users.entries()) {
      const [local, domain] = user.email.split('@');
      const nome = `${FIRST_NAMES[(number * 7 + index * 3) % FIRST_NAMES.length]} ${LAST_NAMES[(number * 11 + index * 5 + 1) % LAST_NAMES.length]}`;
      const cpf = fresh('cpf', (n) => cpfOf(String(700_000_000 + n)), number * 100 + index);
      const [row] = await query(
        `insert into users (email, nome, cpf, generation, profile, status, password_hash, company_id, point_of_sale_id, celular, permission_group_id)
         select $1, $2, $3, u.generation, u.profile, u.status, u.password_hash,
           (select new_id from scale_company where net = $4 and old_id = u.company_id),
           (select new_id from scale_pos where net = $4 and old_id = u.point_of_sale_id),
           u.celular, (select new_id from scale_group where net = $4 and old_id = u.permission_group_id)
         from users u where u.id = $5 returning id`,
        [`${local}.rede${number}@${domain}`, nome, cpf, net, user.id],
      );
      await query(
        `insert into user_companies (user_id, company_id)
         select $1, m.new_id from user_companies uc join scale_company m on m.net = $2 and m.old_id = uc.company_id where uc.user_id = $3`,
        [row.id, net, user.id],
      );
      await query('insert into user_operations (user_id, operation) select $1, operation from user_operations where user_id = $2', [
        row.id,
        user.id,
      ]);
      await query('insert into user_groups (user_id, group_id) select $1, group_id from user_groups where user_id = $2', [row.id, user.id]);
      await map('user', user.id, row.id);
    }
  }
  log(
    `  ${networkCount - 1} new partner networks: ${(networkCount - 1) * companies.length} companies, ${(networkCount - 1) * points.length} points of sale, ${(networkCount - 1) * users.length} users`,
  );
}

/**
 * Sales targets as the managers would have set them for what they went on to sell: a new network's are
 * the demo's times its copies; the demo network's own are raised by the copies it sells too. The demo
 * companies' targets hold the demo's times `demoShare` (more than once after a forced run).
 */
async function copyTargets(query, demoShare, demoCopies) {
  await query(`insert into sales_targets (nivel, ref_id, company_id, mes, valor, definida_por, updated_at)
    select t.nivel,
      case t.nivel when 'empresa' then (select new_id from scale_company where net = n.net and old_id = t.ref_id)
        when 'ponto_venda' then (select new_id from scale_pos where net = n.net and old_id = t.ref_id)
        else (select new_id from scale_user where net = n.net and old_id = t.ref_id) end as ref,
      c.new_id, t.mes, round(t.valor::numeric * n.copies / ${demoShare}), t.definida_por, t.updated_at
    from src_targets t join scale_network n on n.net > 0 and n.copies > 0
    join scale_company c on c.net = n.net and c.old_id = t.company_id
    where case t.nivel when 'empresa' then (select new_id from scale_company where net = n.net and old_id = t.ref_id)
        when 'ponto_venda' then (select new_id from scale_pos where net = n.net and old_id = t.ref_id)
        else (select new_id from scale_user where net = n.net and old_id = t.ref_id) end is not null`);
  if (demoCopies > 0)
    await query(
      `update sales_targets set valor = round(valor::numeric * ${demoShare + demoCopies} / ${demoShare}) where id in (select id from src_targets)`,
    );
}

/** A network's id for an id of the demo network (kept when the network is the demo's, or nobody mirrors it). */
const mapped = (kind, column) => `coalesce((select m.new_id from scale_${kind} m where m.net = s.net and m.old_id = ${column}), ${column})`;
/** A timestamp of the copy: its sale's shift earlier. */
const moved = (column) => `${column} - s.shift`;
/**
 * A document number's serial part as the services write it (padStart): at least `width` digits, never
 * cut — lpad cuts a longer text, and at 10,000× the quotes' sequence passes 999,999. The sequence is
 * read once per row: 19 digits, then as many leading zeros dropped as exceed `width`.
 */
const serialOf = (sequence, width) => `regexp_replace(to_char(nextval('${sequence}'), 'FM${'0'.repeat(19)}'), '^0{0,${19 - width}}', '')`;
/** A number's year, as the services write it: the Brasília year of the moment. */
const yearOf = (column) => `to_char((${column} - s.shift) at time zone '${ZONE}', 'YYYY')`;

/** Copies from..to of every sale: the statements of one batch, in one transaction. */
async function copyBatch(query, { stride, bounds, firstCopy, networkCount, now, documentFile }, from, to, withOriginals) {
  const st = stride;
  await query('truncate scale_sale');
  // One row per copy of a sale: its network, how much earlier it happened, its insured.
  // Documents: the copy's number (k, quote) scrambled by a multiplication that is one-to-one modulo 9×10⁸
  // (and 9×10⁷): distinct for distinct copies, spread over the whole range, never a leading zero.
  const serial = `(g.k::bigint * ${bounds.quotes + 1} + q.id)`;
  const base9 = `((${serial} * ${SCRAMBLE}) % 900000000 + 100000000)::text`;
  const root8 = `((${serial} * ${SCRAMBLE}) % 90000000 + 10000000)::text`;
  await query(`insert into scale_sale (k, net, quote_id, shift, days, nome, email, doc)
    select g.k, (g.k - ${firstCopy}) % ${networkCount}, q.id,
      make_interval(days => h.d, secs => h.s::float8), h.d,
      case when q.segurado->>'tipoPessoa' = 'PJ'
        then (${arrayOf(BUSINESSES)})[1 + h.b % ${BUSINESSES.length}] || ' ' || (${arrayOf(LAST_NAMES)})[1 + h.l % ${LAST_NAMES.length}] || ' Ltda.'
        else (${arrayOf(FIRST_NAMES)})[1 + h.f % ${FIRST_NAMES.length}] || ' ' || (${arrayOf(MIDDLE_NAMES)})[1 + h.mid % ${MIDDLE_NAMES.length}]
          || ' ' || (${arrayOf(LAST_NAMES)})[1 + h.l % ${LAST_NAMES.length}] end,
      (${arrayOf(FIRST_NAMES.map(plain))})[1 + h.f % ${FIRST_NAMES.length}] || '.cliente@exemplo.com.br',
      case when q.segurado->>'tipoPessoa' = 'PJ' then ${cnpjSql(root8)} else ${cpfSql(base9)} end
    from generate_series(${from}, ${to}) g(k) cross join src_quotes q
    cross join lateral (select md5(g.k || ':' || q.id) as x, md5(q.id || ':' || g.k) as y) m
    cross join lateral (select
      ('x' || substr(m.x, 1, 7))::bit(28)::int % ${SPREAD_DAYS} as d,
      (('x' || substr(m.x, 8, 7))::bit(28)::int % 3600) + (('x' || substr(m.y, 1, 7))::bit(28)::int % 1000000) / 1000000.0 as s,
      ('x' || substr(m.x, 15, 6))::bit(24)::int as f,
      ('x' || substr(m.x, 21, 6))::bit(24)::int as mid,
      ('x' || substr(m.x, 27, 6))::bit(24)::int as l,
      ('x' || substr(m.y, 8, 6))::bit(24)::int as b) h`);
  if (withOriginals) await query(`insert into scale_sale (k, net, quote_id, shift, days) select 0, 0, id, interval '0', 0 from src_quotes`);

  const copies = 'where s.k > 0';
  await query(`insert into quotes (id, nr_cotacao, simulator_code, line, generation, offer_id, user_id, company_id, point_of_sale_id,
      status, etapa, segurado, nome_segurado, documento_segurado, respostas, risco, selecao, precificacao, contratacao, premio_total,
      comissao_centesimos, valida_ate, created_at, updated_at)
    select q.id + s.k * ${st.quotes}, ${yearOf('q.created_at')} || ${serialOf('quote_numbers', 6)},
      q.simulator_code, q.line, q.generation, ${mapped('offer', 'q.offer_id')}, ${mapped('user', 'q.user_id')},
      ${mapped('company', 'q.company_id')}, ${mapped('pos', 'q.point_of_sale_id')}, q.status, q.etapa,
      case when q.segurado->>'tipoPessoa' = 'PJ' then q.segurado || jsonb_build_object('razaoSocial', s.nome, 'cnpj', s.doc)
        else q.segurado || jsonb_build_object('nome', s.nome, 'cpf', s.doc, 'email', s.email) end,
      s.nome, s.doc, q.respostas, q.risco, q.selecao, q.precificacao, q.contratacao, q.premio_total, q.comissao_centesimos,
      ${moved('q.valida_ate')}, ${moved('q.created_at')}, ${moved('q.updated_at')}
    from scale_sale s join src_quotes q on q.id = s.quote_id ${copies} order by s.k, q.id`);
  await query(`insert into proposals (id, quote_id, nr_proposta, status, user_id, aceite_termo_em, created_at, aceite_ate, suspensa_desde,
      decidida_em, motivo)
    select p.id + s.k * ${st.proposals}, p.quote_id + s.k * ${st.quotes}, ${yearOf('p.created_at')} || ${serialOf('proposal_numbers', 8)},
      p.status, ${mapped('user', 'p.user_id')}, ${moved('p.aceite_termo_em')}, ${moved('p.created_at')}, ${moved('p.aceite_ate')},
      ${moved('p.suspensa_desde')}, ${moved('p.decidida_em')}, p.motivo
    from scale_sale s join src_proposals p on p.quote_id = s.quote_id ${copies} order by s.k, p.id`);
  await query(`insert into policies (id, nr_apolice, id_contratacao, proposal_id, quote_id, user_id, company_id, point_of_sale_id,
      simulator_code, line, generation, nome_segurado, documento_segurado, inicio_vigencia, fim_vigencia, premio_liquido, custo_apolice,
      iof, premio_total, forma_pagamento, status, emitida_em, contato, coberturas_canceladas, cancelada_em)
    select a.id + s.k * ${st.policies}, left(a.nr_apolice, 4) || ${yearOf('a.emitida_em')} || ${serialOf('policy_numbers', 7)},
      nextval('contract_numbers'), a.proposal_id + s.k * ${st.proposals}, a.quote_id + s.k * ${st.quotes}, ${mapped('user', 'a.user_id')},
      ${mapped('company', 'a.company_id')}, ${mapped('pos', 'a.point_of_sale_id')}, a.simulator_code, a.line, a.generation,
      s.nome, s.doc, a.inicio_vigencia - s.days, a.fim_vigencia - s.days, a.premio_liquido, a.custo_apolice, a.iof, a.premio_total,
      a.forma_pagamento, a.status, ${moved('a.emitida_em')}, a.contato, a.coberturas_canceladas, a.cancelada_em - s.days
    from scale_sale s join src_policies a on a.quote_id = s.quote_id ${copies} order by s.k, a.id`);
  // The documents a referred proposal's seller sent at the referral, and the timeline's line for each
  // (an odd id: right after the referral's own line, which the copies keep at twice their id).
  const documentOf = (field) =>
    `case q.line when 'vida' then ${literal(DOCUMENT_OF_LINE.vida[field])} when 'residencial' then ${literal(DOCUMENT_OF_LINE.residencial[field])}
      else ${literal(DOCUMENT_OF_LINE.other[field])} end`;
  const referrals = `(select proposal_id, min(id) as id, min(created_at) as created_at from src_proposal_events
    where tipo = 'ENCAMINHADA_ANALISE' group by proposal_id)`;
  await query(`insert into documents (proposal_id, user_id, categoria, nome, mime, tamanho, sha256, created_at)
    select p.id + s.k * ${st.proposals}, ${mapped('user', 'p.user_id')}, ${documentOf('categoria')}, ${documentOf('nome')}, 'application/pdf',
      ${documentFile.size}, '${documentFile.sha256}', ${moved('r.created_at')} + interval '1 minute'
    from scale_sale s join src_proposals p on p.quote_id = s.quote_id join src_quotes q on q.id = p.quote_id
    join ${referrals} r on r.proposal_id = p.id ${copies} order by s.k, p.id`);
  await query(`insert into proposal_events (id, proposal_id, tipo, detalhe, user_id, created_at, document_id)
    select s.k * ${st.proposal_events} + 2 * e.id, e.proposal_id + s.k * ${st.proposals}, e.tipo,
      case when oa.id is null or e.detalhe is null then e.detalhe else replace(e.detalhe, oa.nr_apolice, na.nr_apolice) end,
      ${mapped('user', 'e.user_id')}, ${moved('e.created_at')}, null
    from scale_sale s join src_proposals p on p.quote_id = s.quote_id join src_proposal_events e on e.proposal_id = p.id
    left join src_policies oa on oa.proposal_id = p.id left join policies na on na.id = oa.id + s.k * ${st.policies}
    ${copies}
    union all
    select s.k * ${st.proposal_events} + 2 * r.id + 1, d.proposal_id, 'DOCUMENTO_ENVIADO', ${documentOf('label')} || ': ' || d.nome,
      d.user_id, d.created_at, d.id
    from scale_sale s join src_proposals p on p.quote_id = s.quote_id join src_quotes q on q.id = p.quote_id
    join ${referrals} r on r.proposal_id = p.id join documents d on d.proposal_id = p.id + s.k * ${st.proposals}
    ${copies}`);
  await query(`insert into installments (id, policy_id, numero, vencimento, valor, status, paga_em)
    select i.id + s.k * ${st.installments}, i.policy_id + s.k * ${st.policies}, i.numero, i.vencimento - s.days, i.valor, i.status,
      ${moved('i.paga_em')}
    from scale_sale s join src_policies a on a.quote_id = s.quote_id join src_installments i on i.policy_id = a.id ${copies}`);
  // The insured's link to the policy's PDF: a hash of a token nobody holds (the copy's insured has no mailbox).
  await query(`insert into policy_links (id, policy_id, token_hash, expira_em, created_at)
    select l.id + s.k * ${st.policy_links}, l.policy_id + s.k * ${st.policies},
      encode(sha256(convert_to(gen_random_uuid()::text || l.id || ':' || s.k, 'UTF8')), 'hex'), ${moved('l.expira_em')}, ${moved('l.created_at')}
    from scale_sale s join src_policies a on a.quote_id = s.quote_id join src_policy_links l on l.policy_id = a.id ${copies}`);

  // Charges carry codes made of their id, amount and due day (a boleto's check digits, the Pix CRC):
  // made here as the service makes them, then written in one statement.
  const charges = await query(`select s.k, c.id + s.k * ${st.charges} as id, c.total, (c.vencimento - s.days)::text as vencimento,
      i.numero, na.nr_apolice
    from scale_sale s join src_policies a on a.quote_id = s.quote_id join src_installments i on i.policy_id = a.id
    join src_charges c on c.installment_id = i.id join policies na on na.id = a.id + s.k * ${st.policies} ${copies}`);
  if (charges.length > 0) {
    const columns = { k: [], id: [], barcode: [], line: [], txid: [], pix: [] };
    for (const c of charges) {
      const codes = chargeCodes(c.id, c.total, c.vencimento, chargeDescription(c));
      columns.k.push(c.k);
      columns.id.push(c.id);
      columns.barcode.push(codes.barcode);
      columns.line.push(codes.linhaDigitavel);
      columns.txid.push(pixTxid(c.id));
      columns.pix.push(codes.pixCopiaECola);
    }
    await query(
      `insert into charges (id, installment_id, vencimento, valor, multa, juros, total, codigo_barras, linha_digitavel, pix_txid,
        pix_copia_e_cola, status, user_id, created_at)
      select u.id, c.installment_id + u.k * ${st.installments}, c.vencimento - s.days, c.valor, c.multa, c.juros, c.total,
        u.barcode, u.line, u.txid, u.pix, c.status, ${mapped('user', 'c.user_id')}, ${moved('c.created_at')}
      from unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[]) as u(k, id, barcode, line, txid, pix)
      join src_charges c on c.id = u.id - u.k * ${st.charges} join src_installments i on i.id = c.installment_id
      join src_policies a on a.id = i.policy_id join scale_sale s on s.k = u.k and s.quote_id = a.quote_id`,
      [columns.k, columns.id, columns.barcode, columns.line, columns.txid, columns.pix],
    );
  }
  // The bank's id of a payment names the policy ('demo-historico:<nº>:<parcela>'): the copy's names its own.
  const bankId = (column) =>
    `case when strpos(${column}, a.nr_apolice) > 0 then replace(${column}, a.nr_apolice, na.nr_apolice) else ${column} || ':copia-' || s.k end`;
  const paid = `from scale_sale s join src_policies a on a.quote_id = s.quote_id join src_installments i on i.policy_id = a.id`;
  // A copy's commission is its original's (the same installment, premiums, endorsements and rate): written
  // here, as the trigger that computes it is off for the batch (ROLLUPS_OFF).
  await query(`insert into payments (id, installment_id, charge_id, external_id, meio, origem, valor, pago_em, created_at, comissao)
    select pg.id + s.k * ${st.payments}, pg.installment_id + s.k * ${st.installments}, pg.charge_id + s.k * ${st.charges},
      ${bankId('pg.external_id')}, pg.meio, pg.origem, pg.valor, ${moved('pg.pago_em')}, ${moved('pg.created_at')}, pg.comissao
    ${paid} join src_payments pg on pg.installment_id = i.id join policies na on na.id = a.id + s.k * ${st.policies} ${copies}`);
  await query(`insert into receipts (id, external_id, charge_id, installment_id, codigo, meio, origem, valor, devido, aplicado, credito,
      situacao, recebido_em, created_at)
    select r.id + s.k * ${st.receipts}, ${bankId('r.external_id')}, r.charge_id + s.k * ${st.charges}, r.installment_id + s.k * ${st.installments},
      case r.codigo when oc.linha_digitavel then nc.linha_digitavel when oc.codigo_barras then nc.codigo_barras
        when oc.pix_copia_e_cola then nc.pix_copia_e_cola else r.codigo end,
      r.meio, r.origem, r.valor, r.devido, r.aplicado, r.credito, r.situacao, ${moved('r.recebido_em')}, ${moved('r.created_at')}
    ${paid} join src_receipts r on r.installment_id = i.id join policies na on na.id = a.id + s.k * ${st.policies}
    left join src_charges oc on oc.id = r.charge_id left join charges nc on nc.id = r.charge_id + s.k * ${st.charges} ${copies}`);
  await query(`insert into endorsements (id, nr_endosso, policy_id, tipo, solicitante, motivo, efetiva_em, dados, premio_anterior,
      premio_novo, user_id, rascunho, created_at)
    select e.id + s.k * ${st.endorsements}, ${yearOf('e.created_at')} || ${serialOf('endorsement_numbers', 8)},
      e.policy_id + s.k * ${st.policies}, e.tipo, e.solicitante, e.motivo, e.efetiva_em - s.days,
      case when e.dados->>'destino' ~ '\\((CPF|CNPJ)\\)'
        then jsonb_set(e.dados, '{destino}', to_jsonb(regexp_replace(e.dados->>'destino', '[0-9]{4}$', right(s.doc, 4)))) else e.dados end,
      e.premio_anterior, e.premio_novo, ${mapped('user', 'e.user_id')}, case when e.rascunho is null then null else gen_random_uuid()::text end,
      ${moved('e.created_at')}
    from scale_sale s join src_policies a on a.quote_id = s.quote_id join src_endorsements e on e.policy_id = a.id ${copies}
    order by s.k, e.id`);
  await query(`insert into refunds (id, endorsement_id, policy_id, valor, estorno_comissao, destino, status, prevista_para, created_at)
    select r.id + s.k * ${st.refunds}, r.endorsement_id + s.k * ${st.endorsements}, r.policy_id + s.k * ${st.policies}, r.valor,
      r.estorno_comissao,
      case when r.destino->'chave'->>'type' in ('CPF', 'CNPJ') then jsonb_set(r.destino, '{chave,key}', to_jsonb(s.doc)) else r.destino end,
      r.status, r.prevista_para - s.days, ${moved('r.created_at')}
    from scale_sale s join src_policies a on a.quote_id = s.quote_id join src_refunds r on r.policy_id = a.id ${copies}`);
  await writeAccessEvents(query, { st, now });
}

/**
 * What the sellers of the batch's sales (the originals too, on the first batch) left in the access log
 * as the portal writes it: a sign-in and a sign-out around the quote, the quote's and the proposal's
 * PDFs, the policy's page and PDF once issued, a look for the boleto before each due day.
 */
async function writeAccessEvents(query, { st, now }) {
  const at = `timestamptz ${literal(now.toISOString())}`;
  const sale = `from scale_sale s join quotes nq on nq.id = s.quote_id + s.k * ${st.quotes}`;
  const proposal = `${sale} join proposals np on np.quote_id = nq.id`;
  const policy = `${proposal} join policies na on na.proposal_id = np.id`;
  // A look at an insured's data, as the portal logs it (lib/access-log.ts DATA_VIEWS): its event, detail and record.
  const view = (name, registro) =>
    `${literal(DATA_VIEWS[name].event)}, ${literal(DATA_VIEWS[name].detalhe)}, ${literal(DATA_VIEWS[name].record)}, ${registro}`;
  await query(`insert into access_events (user_id, email, event, generation, ip, detalhe, company_id, registro_tipo, registro, created_at)
    select x.user_id, u.email, x.event, x.generation,
      '177.' || (16 + x.net % 200) || '.' || (x.user_id % 250) || '.' || (1 + (x.k * 7 + x.quote_id) % 250),
      x.detalhe, coalesce(x.company_id, u.company_id), x.registro_tipo, x.registro, x.created_at
    from (
      select s.k, s.net, s.quote_id, nq.user_id, nq.generation, nq.company_id, 'LOGIN' as event, null as detalhe, null as registro_tipo,
        null as registro, nq.created_at - interval '3 minutes' as created_at ${sale}
      union all
      select s.k, s.net, s.quote_id, nq.user_id, nq.generation, nq.company_id, ${view('cotacao.pdf', 'nq.nr_cotacao')},
        nq.updated_at + interval '1 minute' ${sale}
      union all
      select s.k, s.net, s.quote_id, nq.user_id, nq.generation, nq.company_id, 'LOGOUT', null, null, null, nq.updated_at + interval '10 minutes'
      ${sale}
      union all
      select s.k, s.net, s.quote_id, nq.user_id, nq.generation, nq.company_id, ${view('proposta.pdf', 'np.nr_proposta')},
        np.created_at + interval '2 minutes' ${proposal}
      union all
      select s.k, s.net, s.quote_id, nq.user_id, nq.generation, nq.company_id, ${view('apolice.pagina', 'na.nr_apolice')},
        na.emitida_em + interval '3 minutes' ${policy}
      union all
      select s.k, s.net, s.quote_id, nq.user_id, nq.generation, nq.company_id, ${view('apolice.pdf', 'na.nr_apolice')},
        na.emitida_em + interval '4 minutes' ${policy}
      union all
      select s.k, s.net, s.quote_id, nq.user_id, nq.generation, nq.company_id,
        ${view('parcelas.boleto', 'na.nr_apolice')},
        ((ni.vencimento - 2)::timestamp + make_interval(hours => 9 + (s.k + ni.numero) % 9, mins => (s.k * 13 + s.quote_id) % 60)) at time zone '${ZONE}'
      ${policy} join installments ni on ni.policy_id = na.id where na.forma_pagamento = 'boleto'
    ) x join users u on u.id = x.user_id
    where x.created_at <= ${at} and x.created_at > ${at} - interval '${LOG_DAYS} days'
    order by x.created_at`);
}

/**
 * The notas fiscais each partner company sent for its closed months' commissions (decision 041): the
 * amount of the month's statement — commissions on what was paid in it, less its clawbacks (a month's
 * negative balance carried on is not followed: at scale there is none) — ENVIADA for the last closed
 * month, APROVADA the one before, PAGA before that; now and then one refused first and sent again.
 * The months' figures are the commission rollup's (migration 034), which every batch kept.
 */
async function writeNotas(query, { adminId, now, notaFile }) {
  const thisMonth = `to_char(timestamptz ${literal(now.toISOString())} at time zone '${ZONE}', 'YYYY-MM')`;
  const monthNumber = (mes) => `(substr(${mes}, 1, 4)::int * 12 + substr(${mes}, 6, 2)::int)`;
  await query(`insert into notas_fiscais (company_id, competencia, numero, valor, nome, mime, tamanho, sha256, status, motivo, user_id,
      created_at, decidida_por, decidida_em, paga_em)
    with months as (
      select company_id, to_char(mes, 'YYYY-MM') as mes, (commissions - clawbacks)::int as valor,
        ${monthNumber(thisMonth)} - ${monthNumber("to_char(mes, 'YYYY-MM')")} as age
      from commissions_monthly where company_id is not null and (payments > 0 or refunds > 0)),
    senders as (
      select c.id as company_id, (select u.id from users u join user_companies uc on uc.user_id = u.id
        where uc.company_id = c.id and u.status = 'ATIVO' and u.profile in ('parceiro_admin', 'parceiro', 'substabelecido')
        order by u.profile = 'parceiro_admin' desc, u.id limit 1) as user_id
      from companies c),
    sent as (
      select m.*, s.user_id, ((to_date(m.mes, 'YYYY-MM') + interval '1 month 4 days 13 hours')::timestamp at time zone '${ZONE}')
          + make_interval(mins => (m.company_id * 37 + m.age * 11) % 240) as sent_at,
        row_number() over (partition by m.company_id order by m.mes) as nth
      from months m join senders s on s.company_id = m.company_id
      where m.age >= 1 and m.valor > 0 and s.user_id is not null
        and not exists (select 1 from notas_fiscais n where n.company_id = m.company_id and n.competencia = m.mes and n.status <> 'RECUSADA'))
    select company_id, mes, (company_id * 1000 + nth * 2)::text, valor, 'nota-fiscal-' || mes || '.pdf', 'application/pdf',
      ${notaFile.size}, '${notaFile.sha256}',
      case when age = 1 then 'ENVIADA' when age = 2 then 'APROVADA' else 'PAGA' end, null, user_id, sent_at,
      case when age >= 2 then ${adminId} end, case when age >= 2 then sent_at + interval '3 days' end,
      case when age >= 3 then sent_at + interval '10 days' end
    from sent
    union all
    select company_id, mes, (company_id * 1000 + nth * 2 - 1)::text, valor + 100, 'nota-fiscal-' || mes || '.pdf', 'application/pdf',
      ${notaFile.size}, '${notaFile.sha256}', 'RECUSADA', 'Valor da nota diferente do extrato do mês: emita outra com o valor do extrato.',
      user_id, sent_at - interval '2 days', ${adminId}, sent_at - interval '1 day', null
    from sent where (company_id + nth) % 6 = 0 and age >= 2`);
}

// ----- The command line.

function argsOf(argv) {
  const options = { times: DEFAULT_TIMES, force: false, batch: DEFAULT_BATCH };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=');
    const value = () => Number(inline ?? argv[++i]);
    if (flag === '--times') options.times = value();
    else if (flag === '--batch') options.batch = value();
    else if (flag === '--networks') options.networks = value();
    else if (flag === '--force') options.force = true;
    else if (flag === '--help' || flag === '-h') options.help = true;
    else throw new ScaleRefused(`Unknown option ${argv[i]} (see --help).`);
  }
  for (const key of ['times', 'batch', 'networks'])
    if (options[key] !== undefined && (!Number.isInteger(options[key]) || options[key] < 1))
      throw new ScaleRefused(`--${key} must be a whole number from 1.`);
  return options;
}

const HELP = `npm run scale -- [--times K] [--networks N] [--batch B] [--force]

Grows the portal's database K times (default ${DEFAULT_TIMES}): copies of the demo year's sales with their
after-sale records, sold by N partner networks (default √K, the demo's own among them), with the access
log, documents and notas fiscais they would have left. Stop the portal first.
  DATABASE_URL  grow this PostgreSQL database; else the PGlite database in DATA_DIR (default ./data)
  CLOCK_OFFSET_DAYS  the portal's clock ahead of the wall clock, as when it was started
  STORAGE_DRIVER, S3_*  the portal's file store (DATA_DIR/files, or the S3 bucket), as the portal's
  --batch B     copies per transaction (default ${DEFAULT_BATCH})
  --force       grow a database that was grown before (adds K more copies)
See docs/decisions/064-scale-generator.md.`;

async function main() {
  const options = argsOf(process.argv.slice(2));
  if (options.help) return console.log(HELP);
  // The database, the files and the clock the portal reads with the same settings (server/config.ts).
  const { config } = await import('../src/server/config.ts');
  const { now } = await import('../src/server/clock.ts');
  const { connect, migrate } = await import('../src/server/db/index.ts');
  const { DATA_DIR: dataDir, DATABASE_URL: databaseUrl } = config();
  if (databaseUrl) console.log(`Growing ${new URL(databaseUrl).pathname.slice(1) || 'the database'} on PostgreSQL ${options.times}×…`);
  else if (existsSync(join(resolve(dataDir), 'PG_VERSION')))
    console.log(`Growing the PGlite database in ${resolve(dataDir)} ${options.times}× (the portal must be stopped)…`);
  else
    throw new ScaleRefused(
      `No database in ${resolve(dataDir)}: start the portal once (npm start) with DATA_DIR=${dataDir}, stop it, then grow it.`,
    );
  const db = await connect({ databaseUrl, dataDir });
  try {
    // The schema the copies are written in is today's: a database left by an older portal is brought
    // to it as the portal's start would (the rollups' and the scope columns' triggers included).
    await migrate(db);
    const result = await growOn(db, { ...options, now: now(), files: fileStore(), log: (line) => console.log(line) });
    console.log(
      `\n${result.copies} copies (numbers ${result.firstCopy}–${result.firstCopy + result.copies - 1}) on ${result.networks} partner networks:`,
    );
    const width = Math.max(...COUNTED_TABLES.map((t) => t.length));
    for (const table of COUNTED_TABLES)
      console.log(`  ${table.padEnd(width)} ${String(result.before[table]).padStart(10)} → ${String(result.after[table]).padStart(10)}`);
    console.log(`Done in ${result.seconds.toFixed(1)} s.`);
  } finally {
    await db.destroy();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error) => {
    console.error(error instanceof ScaleRefused ? `Refused: ${error.message}` : error);
    process.exit(error instanceof ScaleRefused ? 2 : 1);
  });
}
