import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidCnpj, isValidCpf } from '@brazilian-utils/brazilian-utils';
import type { DB } from '../../src/server/db';
import { COPIED_TABLES, growDatabase, ScaleRefused, SPREAD_DAYS } from '../../scripts/scale.mjs';
import { ACCESS_EVENTS, DATA_VIEWS } from '../../src/lib/access-log';
import { chargeCodes, chargeDescription, pixTxid } from '../../src/lib/charges';
import { documentDownload, underwriterDocumentFile } from '../../src/server/services/after-sale/documents';
import { notaFile } from '../../src/server/services/earnings/notas-fiscais';
import { loadV2User } from '../../src/server/services/identity/principals';
import { documentScopeFor, scopeFor, soldWithin } from '../../src/server/services/identity/scope';
import { listDocuments } from '../../src/server/services/after-sale/documents';
import { freshDatabase } from '../fixtures/db';
import { localStore } from '../../src/server/files';
import { growOn } from '../fixtures/grown';
import { pdfInfo, pdfText } from '../fixtures/pdf';
import { aggregatedRows, rollupRows } from '../fixtures/sales-rollup';
import * as commissions from '../fixtures/commissions-rollup';

/**
 * The scale generator (scripts/scale.mjs, decision 064) on the demo year grown 3×: every copied table
 * holds four times its rows, every number is new, every charge carries the codes the service would
 * have made, every policy is some partner's, and the database refuses a second growth.
 */
const TIMES = 3;
let db: DB;
let close: () => Promise<void>;
let filesDir: string;
type Table =
  | 'quotes'
  | 'proposals'
  | 'policies'
  | 'proposal_events'
  | 'charges'
  | 'companies'
  | 'points_of_sale'
  | 'users'
  | 'sales_targets';
let before: Record<Table, number>;
let result: Awaited<ReturnType<typeof growDatabase>>;

const grow = (options: { times: number; force?: boolean }) => growOn(db, { ...options, files: localStore(filesDir) });

const count = async (query: string) => (await sql<{ n: number }>`select (${sql.raw(query)})::int as n`.execute(db)).rows[0]!.n;

beforeAll(async () => {
  ({ db, close } = await freshDatabase({ demoHistory: true }));
  filesDir = mkdtempSync(join(tmpdir(), 'scale-files-'));
  result = await grow({ times: TIMES });
  before = result.before;
}, 180_000);
afterAll(async () => {
  await close();
  rmSync(filesDir, { recursive: true, force: true });
});

describe('growing the demo 3×', () => {
  it('copies every sale with its after-sale rows: each copied table holds 1 + 3 times its rows', async () => {
    const documents = result.after.documents;
    expect(documents).toBe(
      TIMES *
        (await count(
          `select count(distinct proposal_id) from proposal_events where tipo = 'ENCAMINHADA_ANALISE' and id <= ${before.proposal_events}`,
        )),
    );
    for (const table of COPIED_TABLES) {
      // A referred proposal's copies gain a line for the document sent with them.
      const extra = table === 'proposal_events' ? documents : 0;
      expect(result.after[table], table).toBe((TIMES + 1) * result.before[table] + extra);
    }
    expect(before.policies).toBeGreaterThan(50); // the demo year, not only the handful of seed-policies.ts
  });

  it('adds the networks that sold them and what the sales left: notas fiscais, the access log, files', async () => {
    expect(result.networks).toBe(2);
    expect(result.after.companies).toBe(before.companies * 2);
    expect(result.after.points_of_sale).toBe(before.points_of_sale * 2);
    expect(result.after.users).toBeGreaterThan(before.users);
    expect(result.after.sales_targets).toBe(before.sales_targets * 2);
    // The new networks' companies and people have valid documents of their own.
    const companies = (await sql<{ cnpj: string }>`select cnpj from companies`.execute(db)).rows.map((c) => c.cnpj);
    expect(companies.filter((cnpj) => !isValidCnpj(cnpj))).toEqual([]);
    expect(new Set(companies).size).toBe(companies.length);
    const people = (await sql<{ cpf: string }>`select cpf from users where cpf is not null`.execute(db)).rows.map((u) => u.cpf);
    expect(people.filter((cpf) => !isValidCpf(cpf))).toEqual([]);
    expect(new Set(people).size).toBe(people.length);
    expect(result.after.notas_fiscais).toBeGreaterThan(10);
    // A sign-in, a sign-out and the quote's PDF at least, for the originals and each copy.
    expect(result.after.access_events).toBeGreaterThan(3 * (TIMES + 1) * before.quotes * 0.9);
    // Each row as the portal logs it: an event it knows, and a look at an insured's data as DATA_VIEWS names it.
    const logged = (
      await sql<{ event: string; detalhe: string | null; registro_tipo: string | null }>`
        select distinct event, detalhe, registro_tipo from access_events`.execute(db)
    ).rows;
    expect(logged.filter((row) => !Object.hasOwn(ACCESS_EVENTS, row.event))).toEqual([]);
    const views = Object.values(DATA_VIEWS).map((view) => `${view.event} ${view.detalhe} ${view.record}`);
    const looks = logged.filter((row) => row.detalhe !== null);
    expect(looks.length).toBe(5);
    expect(looks.filter((row) => !views.includes(`${row.event} ${row.detalhe} ${row.registro_tipo}`))).toEqual([]);
  });

  it('stores the files of documents and notas where the portal reads them: its download answers a PDF its writer drew', async () => {
    const { id: documentId, tamanho } = await db
      .selectFrom('documents')
      .select(['id', 'tamanho'])
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    const document = await underwriterDocumentFile(db, documentId);
    const download = await documentDownload(localStore(filesDir), document!);
    const bytes = new Uint8Array(await new Response(download.body as BodyInit).arrayBuffer());
    expect(download.size).toBe(tamanho);
    expect(await pdfText(bytes)).toContain('Documento da proposta');
    expect(await pdfInfo(bytes)).toMatchObject({ Producer: 'Portal de Parceiros', Title: 'Documento da proposta' });
    const nota = await db.selectFrom('notas_fiscais').select(['id', 'tamanho']).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    const notaDownload = await notaFile(db, localStore(filesDir), { kind: 'all' }, nota.id);
    expect(notaDownload!.size).toBe(nota.tamanho);
    expect(await pdfText(new Uint8Array(await new Response(notaDownload!.body as BodyInit).arrayBuffer()))).toContain(
      'Nota fiscal de serviços — comissões',
    );
    // Every row points at a stored file of its size.
    const files = (
      await sql<{ sha256: string; tamanho: number }>`select distinct sha256, tamanho from documents
        union select distinct sha256, tamanho from notas_fiscais`.execute(db)
    ).rows;
    for (const file of files) expect(readFileSync(join(filesDir, file.sha256)).byteLength).toBe(file.tamanho);
  });

  it('gives every copy numbers of its own, as the services number them', async () => {
    const unique: [string, string][] = [
      ['quotes', 'nr_cotacao'],
      ['proposals', 'nr_proposta'],
      ['policies', 'nr_apolice'],
      ['policies', 'id_contratacao'],
      ['endorsements', 'nr_endosso'],
      ['charges', 'linha_digitavel'],
      ['charges', 'codigo_barras'],
      ['charges', 'pix_txid'],
      ['payments', 'external_id'],
      ['receipts', 'external_id'],
      ['policy_links', 'token_hash'],
    ];
    for (const [table, column] of unique)
      expect(await count(`select count(distinct ${column}) from ${table}`), `${table}.${column}`).toBe(result.after[table]);
    expect(await count(`select count(*) from policies where nr_apolice !~ '^[0-9]{4}20[0-9]{2}[0-9]{7}$'`)).toBe(0);
    // Each copy's insured has a valid document of their own, and the quote and the policy agree on it.
    const insureds = (
      await sql<{
        doc: string;
        nome: string;
      }>`select documento_segurado as doc, nome_segurado as nome from quotes where id > ${before.quotes}`.execute(db)
    ).rows;
    expect(new Set(insureds.map((i) => i.doc)).size).toBe(insureds.length);
    expect(insureds.filter((i) => !(i.doc.length === 11 ? isValidCpf(i.doc) : isValidCnpj(i.doc)))).toEqual([]);
    expect(insureds.filter((i) => /almeida/i.test(i.nome)).length / insureds.length).toBeLessThan(0.03);
    expect(
      await count(`select count(*) from quotes q left join policies a on a.quote_id = q.id where q.id > ${before.quotes} and (
        a.nome_segurado <> q.nome_segurado or a.documento_segurado <> q.documento_segurado
        or (q.segurado->>'tipoPessoa' = 'PJ' and (q.segurado->>'razaoSocial', q.segurado->>'cnpj') is distinct from (q.nome_segurado, q.documento_segurado))
        or (q.segurado->>'tipoPessoa' = 'PF' and (q.segurado->>'nome', q.segurado->>'cpf') is distinct from (q.nome_segurado, q.documento_segurado)))`),
    ).toBe(0);
  });

  it('writes each copied charge with the codes of its own id, amount, due day and policy — not its original’s', async () => {
    const charges = (
      await sql<{ id: number; total: number; vencimento: string; numero: number; nr_apolice: string } & Record<string, string>>`
        select c.id, c.total, c.vencimento::text as vencimento, i.numero, a.nr_apolice, c.codigo_barras, c.linha_digitavel,
          c.pix_txid, c.pix_copia_e_cola
        from charges c join installments i on i.id = c.installment_id join policies a on a.id = i.policy_id
        where c.id > ${before.charges} order by c.id`.execute(db)
    ).rows;
    expect(charges.length).toBe(TIMES * before.charges);
    for (const c of charges.filter((_, i) => i % 7 === 0)) {
      const codes = chargeCodes(c.id, c.total, c.vencimento, chargeDescription(c));
      expect([c.codigo_barras, c.linha_digitavel, c.pix_txid, c.pix_copia_e_cola]).toEqual([
        codes.barcode,
        codes.linhaDigitavel,
        pixTxid(c.id),
        codes.pixCopiaECola,
      ]);
    }
    // What the bank received is the copy's own code.
    expect(
      await count(`select count(*) from receipts r join charges c on c.id = r.charge_id
        where r.codigo not in (c.linha_digitavel, c.codigo_barras, c.pix_copia_e_cola)`),
    ).toBe(0);
  });

  it('moves each copied sale back by less than a week and an hour, all of it together', async () => {
    const spread = `(${SPREAD_DAYS} * 86400 + 3600)`;
    const copies = `from quotes c join quotes o on o.id = c.id % ${before.quotes + 1} where c.id > ${before.quotes}`;
    expect(
      await count(
        `select count(*) ${copies} and (c.created_at > o.created_at or extract(epoch from o.created_at - c.created_at) > ${spread})`,
      ),
    ).toBe(0);
    expect(await count(`select count(distinct c.created_at) ${copies}`)).toBe(TIMES * before.quotes);
    expect(
      await count(`select count(*) from policies a join quotes q on q.id = a.quote_id join proposals p on p.id = a.proposal_id
        where a.emitida_em < q.created_at or p.quote_id <> q.id`),
    ).toBe(0);
    expect(await count(`select count(*) from payments where pago_em > now()`)).toBe(0);
  });

  it('sells every policy within exactly one partner admin’s scope, and the insurer’s admin sees them all', async () => {
    const admins = await db.selectFrom('users').selectAll().where('profile', '=', 'parceiro_admin').where('status', '=', 'ATIVO').execute();
    expect(admins.length).toBe(result.networks);
    const seen = new Map<number, number>();
    for (const row of admins) {
      const scope = await scopeFor(db, { generation: 'v2', user: await loadV2User(db, row, { fullyAuthenticated: true }) }, 'APOLICES');
      const ids = await db
        .selectFrom('policies as a')
        .select('a.id')
        .where((eb) => soldWithin(scope, eb.ref('a.user_id'), eb.ref('a.company_id')))
        .execute();
      for (const { id } of ids) seen.set(id, (seen.get(id) ?? 0) + 1);
    }
    expect(seen.size).toBe(result.after.policies);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    const insurer = await db.selectFrom('users').selectAll().where('email', '=', 'admin@seguradora.demo').executeTakeFirstOrThrow();
    const all = await scopeFor(db, { generation: 'v2', user: await loadV2User(db, insurer, { fullyAuthenticated: true }) }, 'APOLICES');
    expect(all.kind).toBe('all');
  });

  it('writes every copied document with its sale’s scope, and its network’s partner admin finds it in the consult', async () => {
    expect(
      await count(`select count(*) from documents d join proposals p on p.id = d.proposal_id join quotes q on q.id = p.quote_id
        where (d.company_id, d.seller_id, d.generation) is distinct from (q.company_id, q.user_id, q.generation)`),
    ).toBe(0);
    const admin = await db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'parceiro.admin.rede1@parceiro.demo')
      .executeTakeFirstOrThrow();
    const scope = await documentScopeFor(db, { generation: 'v2', user: await loadV2User(db, admin, { fullyAuthenticated: true }) });
    const page = await listDocuments(db, scope, 'v2', {}, { page: 1 });
    expect(page.content.length).toBeGreaterThan(0);
    // Each one a sale of the network, shown with its proposal, insured and sender.
    const sold = await db
      .selectFrom('proposals as p')
      .innerJoin('quotes as q', 'q.id', 'p.quote_id')
      .select('p.nr_proposta')
      .where(
        'p.nr_proposta',
        'in',
        page.content.map((row) => row.nrProposta),
      )
      .where((eb) => soldWithin(scope, eb.ref('q.user_id'), eb.ref('q.company_id')))
      .execute();
    expect(sold.length).toBe(new Set(page.content.map((row) => row.nrProposta)).size);
    for (const row of page.content) expect(row.nomeSegurado.length * row.enviadoPor.length * row.tamanho).toBeGreaterThan(0);
  });

  it('adds the copies to the metrics’ rollup (its triggers off while a batch copies, its sales added at once), and its triggers count again after', async () => {
    const rollup = await rollupRows(db);
    expect(rollup).toEqual(await aggregatedRows(db));
    expect(rollup.reduce((sum, r) => sum + Number(r.quotes), 0)).toBe(result.after.quotes);
    // A copy cancelled after the growth, on a connection of its own: the triggers are on.
    await sql`update policies set status = 'CANCELADA' where id = (select max(id) from policies where status = 'VIGENTE')`.execute(db);
    const after = await rollupRows(db);
    expect(after).toEqual(await aggregatedRows(db));
    expect(after.reduce((sum, r) => sum + Number(r.cancelled), 0)).toBe(rollup.reduce((sum, r) => sum + Number(r.cancelled), 0) + 1);
  });

  it('adds the copies to the commission rollup and writes each copy its original’s commission; its triggers count again after', async () => {
    const rollup = await commissions.rollupRows(db);
    expect(rollup).toEqual(await commissions.aggregatedRows(db));
    expect(await commissions.driftedPayments(db)).toEqual([]);
    expect(rollup.reduce((sum, r) => sum + r.payments, 0)).toBe(result.after.payments);
    expect(rollup.reduce((sum, r) => sum + r.refunds, 0)).toBe(await count('select count(*) from refunds where estorno_comissao > 0'));
    // The notas fiscais the growth wrote are of the statement's amounts.
    const notas = `from notas_fiscais n join commissions_monthly m on m.company_id = n.company_id and to_char(m.mes, 'YYYY-MM') = n.competencia
      where n.status <> 'RECUSADA'`;
    expect(await count(`select count(*) ${notas}`)).toBeGreaterThan(10);
    expect(await count(`select count(*) ${notas} and n.valor <> m.commissions - m.clawbacks`)).toBe(0);
    // A copy's rate changed after the growth, on a connection of its own: the triggers are on.
    await sql`update quotes set comissao_centesimos = comissao_centesimos + 300
      where id = (select a.quote_id from payments pg join installments i on i.id = pg.installment_id join policies a on a.id = i.policy_id
        order by pg.id desc limit 1)`.execute(db);
    const after = await commissions.rollupRows(db);
    expect(after).toEqual(await commissions.aggregatedRows(db));
    expect(after).not.toEqual(rollup);
  });

  it('refuses to grow the same database twice, and a database without the demo', async () => {
    await expect(grow({ times: 1 })).rejects.toBeInstanceOf(ScaleRefused);
    expect(await count('select count(*) from policies')).toBe(result.after.policies);
    const empty = { query: async () => [{ companies: 0, quotes: 0, policies: 0, admin_id: null, comment: null }] };
    await expect(growDatabase(empty, { times: 1, files: localStore(filesDir) })).rejects.toThrow(/no demo data/);
  });
});
