import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { parse } from 'csv-parse/sync';
import { connect, type DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, demoTokens } from '../fixtures/api';
import { api } from '../../src/server/api';
import { actorOf } from '../../src/server/services/network/user-admin';
import { createLegacyUser } from '../../src/server/services/network/user-admin-legacy';
import { bulkJobOf, bulkJobProblems, previewBulk, processBulkJobs, startBulk } from '../../src/server/services/network/user-bulk';
import type { Actor, V1Actor } from '../../src/lib/user-admin';
import type { BulkSelectionInput } from '../../src/lib/user-bulk';

/**
 * Bulk actions on the users lists (issue 32, decision 070) through the service and the API: a user
 * outside the actor's administration in a selection is skipped and never touched; each user changes
 * whole or not at all; a job is done once with two workers at it; jobs take turns; the export is scoped.
 */
let db: DB;
let url: string | undefined;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;
let as: ReturnType<typeof demoTokens>;
beforeAll(async () => {
  ({ db, close, url } = await freshDatabase({ afterSaleDemo: false }));
  call = apiClient(db);
  as = demoTokens(call);
});
afterAll(() => close());

const HORIZONTE = '11222333000181';
const actor = async (email: string): Promise<Actor> =>
  actorOf(db, await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow());
const userOf = (email: string) => db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
const groupsOf = async (id: number) =>
  (
    await db
      .selectFrom('user_groups as ug')
      .innerJoin('permission_groups as g', 'g.id', 'ug.group_id')
      .select('g.nome')
      .where('ug.user_id', '=', id)
      .orderBy('g.nome')
      .execute()
  ).map((g) => g.nome);
const eventsAbout = async (id: number) =>
  (await db.selectFrom('access_events').select(['event', 'actor_id']).where('user_id', '=', id).orderBy('id').execute()).map(
    (e) => e.event,
  );

function cpf(seed: number): string {
  const base = String(300_000_000 + seed)
    .split('')
    .map(Number);
  const digit = (d: number[]) => ((d.reduce((s, x, i) => s + x * (d.length + 1 - i), 0) * 10) % 11) % 10;
  const first = digit(base);
  return [...base, first, digit([...base, first])].join('');
}
let seed = 0;
/** Legacy users of Horizonte, created as the admin group would (pending, a VENDEDOR each). */
async function legacyUsers(prefix: string, n: number): Promise<number[]> {
  const admin = (await actor('admin@legado.demo')) as V1Actor;
  const ids = [];
  for (let i = 0; i < n; i++) {
    seed += 1;
    const saved = await createLegacyUser(
      db,
      admin,
      {
        nome: `${prefix} Teste ${String.fromCharCode(65 + i)}`,
        email: `${prefix}.${i}@legado.demo`,
        cpf: cpf(seed),
        empresa: HORIZONTE,
        grupos: ['VENDEDOR'],
        status: 'ativo',
      },
      null,
    );
    ids.push(saved.id);
  }
  return ids;
}
const selection = (over: Partial<BulkSelectionInput>): BulkSelectionInput => ({
  acao: 'desativar',
  grupo: '',
  alcance: 'selecionados',
  ids: [],
  email: '',
  nome: '',
  empresa: '',
  status: '',
  ...over,
});

describe('the scope', () => {
  it('skips a user outside the actor’s administration, and never touches them', async () => {
    const ids = await legacyUsers('escopo', 3);
    const outside = await userOf('admin@legado.demo'); // the admin group: not the manager's to change
    const manager = await actor('gestor@legado.demo');
    const asked = selection({ ids: [...ids, outside.id, 999_999].map(String) });
    const preview = await previewBulk(db, manager, asked);
    expect(preview.counts).toMatchObject({ total: 5, change: 3 });
    expect(preview.counts.skipped).toEqual([{ reason: 'fora', label: expect.any(String), count: 2 }]);
    const before = await eventsAbout(outside.id);
    const id = await startBulk(db, manager, asked, '10.0.0.9');
    await processBulkJobs(db);
    const job = await bulkJobOf(db, manager, id);
    expect(job).toMatchObject({ status: 'CONCLUIDO', total: 5, processed: 5, results: { alterado: 3, ignorado: 2, recusado: 0 } });
    expect((await userOf('admin@legado.demo')).status).toBe(outside.status);
    expect(await eventsAbout(outside.id)).toEqual(before);
    for (const user of ids) expect(await eventsAbout(user)).toEqual(['USUARIO_CRIADO', 'USUARIO_DESATIVADO']);
    // The summary names nobody outside the administration; another actor does not see the job.
    expect((await bulkJobProblems(db, id)).map((p) => p.email)).not.toContain('admin@legado.demo');
    expect(await bulkJobOf(db, await actor('admin@legado.demo'), id)).toBeUndefined();
  });
});

describe('each user whole or not at all', () => {
  it('a user whose change fails midway is left as they were and reported; the others change', async () => {
    const ids = await legacyUsers('inteiro', 3);
    const admin = await actor('admin@legado.demo');
    const broken = ids[1]!;
    // The user row is written before the groups: a refusal at the groups must undo the user row too.
    await sql
      .raw(
        `create function refuse_bulk_test() returns trigger language plpgsql as $$ begin if new.user_id = ${broken} then raise exception 'falha simulada'; end if; return new; end $$`,
      )
      .execute(db);
    await sql
      .raw('create trigger refuse_bulk_test before insert on user_groups for each row execute function refuse_bulk_test()')
      .execute(db);
    try {
      await db.updateTable('users').set({ nome: 'Inteiro Antes Da Ação' }).where('id', '=', broken).execute();
      const id = await startBulk(db, admin, selection({ acao: 'incluir-grupo', grupo: 'CONSULTOR', ids: ids.map(String) }), null);
      await processBulkJobs(db);
      expect(await bulkJobOf(db, admin, id)).toMatchObject({ status: 'CONCLUIDO', results: { alterado: 2, ignorado: 0, recusado: 1 } });
      expect(await groupsOf(broken)).toEqual(['VENDEDOR']);
      expect(await eventsAbout(broken)).toEqual(['USUARIO_CRIADO']);
      for (const user of [ids[0]!, ids[2]!]) {
        expect(await groupsOf(user)).toEqual(['CONSULTOR', 'VENDEDOR']);
        expect(await eventsAbout(user)).toEqual(['USUARIO_CRIADO', 'USUARIO_ALTERADO']);
      }
      expect(await bulkJobProblems(db, id)).toEqual([
        expect.objectContaining({ nome: 'Inteiro Antes Da Ação', result: 'recusado', reason: 'Não foi possível alterar este usuário.' }),
      ]);
    } finally {
      await sql.raw('drop trigger refuse_bulk_test on user_groups').execute(db);
      await sql.raw('drop function refuse_bulk_test()').execute(db);
    }
  });

  it('keeps the single-user rules: the last group is not removed, a pending user is re-invited, nobody else is', async () => {
    const ids = await legacyUsers('regras', 2);
    const admin = await actor('admin@legado.demo');
    const removal = await previewBulk(db, admin, selection({ acao: 'remover-grupo', grupo: 'VENDEDOR', ids: ids.map(String) }));
    expect(removal.counts).toMatchObject({ change: 0, skipped: [{ reason: 'ultimo-grupo', count: 2 }] });
    await expect(startBulk(db, admin, selection({ acao: 'remover-grupo', grupo: 'VENDEDOR', ids: ids.map(String) }), null)).rejects.toThrow(
      /nada a fazer/,
    );
    await db.updateTable('users').set({ status: 'ATIVO' }).where('id', '=', ids[0]!).execute();
    const id = await startBulk(db, admin, selection({ acao: 'reenviar-convite', ids: ids.map(String) }), null);
    await processBulkJobs(db);
    expect(await bulkJobOf(db, admin, id)).toMatchObject({
      results: { alterado: 1, ignorado: 1 },
      skipped: [{ reason: 'nao-pendente', count: 1 }],
    });
    expect(await eventsAbout(ids[1]!)).toEqual(['USUARIO_CRIADO', 'CONVITE_REENVIADO']);
  });
});

describe('the job', () => {
  it('is done once with two workers at it, and jobs take turns', async () => {
    const big = await legacyUsers('grande', 25);
    const small = await legacyUsers('pequeno', 4);
    const admin = await actor('admin@legado.demo');
    const first = await startBulk(db, admin, selection({ alcance: 'todos', nome: 'grande teste' }), null);
    const second = await startBulk(db, admin, selection({ alcance: 'todos', nome: 'pequeno teste' }), null);
    // Two handles on PostgreSQL (two pools, as two instances); PGlite has one connection per process.
    const other = url ? await connect({ databaseUrl: url }) : db;
    try {
      const [a, b] = await Promise.all([processBulkJobs(db), processBulkJobs(other)]);
      expect(a + b).toBe(4); // three batches of 10 and one of 4: each turn taken once
    } finally {
      if (other !== db) await other.destroy();
    }
    for (const user of [...big, ...small]) expect(await eventsAbout(user), String(user)).toEqual(['USUARIO_CRIADO', 'USUARIO_DESATIVADO']);
    const [one, two] = [await bulkJobOf(db, admin, first), await bulkJobOf(db, admin, second)];
    expect(one).toMatchObject({ status: 'CONCLUIDO', total: 25, results: { alterado: 25 } });
    expect(two).toMatchObject({ status: 'CONCLUIDO', total: 4, results: { alterado: 4 } });
    // The small job did not wait behind the whole large one.
    expect(two!.finishedAt!.getTime()).toBeLessThanOrEqual(one!.finishedAt!.getTime());
  });

  it('stops when its author may no longer change users', async () => {
    const ids = await legacyUsers('autor', 2);
    const manager = await actor('gestor@legado.demo');
    const id = await startBulk(db, manager, selection({ ids: ids.map(String) }), null);
    await db.updateTable('users').set({ status: 'BLOQUEADO' }).where('email', '=', 'gestor@legado.demo').execute();
    try {
      await processBulkJobs(db);
      expect(await bulkJobOf(db, manager, id)).toMatchObject({ status: 'ERRO', processed: 0 });
      for (const user of ids)
        expect((await db.selectFrom('users').select('status').where('id', '=', user).executeTakeFirstOrThrow()).status).toBe('PENDENTE');
    } finally {
      await db.updateTable('users').set({ status: 'ATIVO' }).where('email', '=', 'gestor@legado.demo').execute();
    }
  });
});

describe('the API', () => {
  it('previews, starts and follows a job; refuses a bad body with field errors and a seller with 403', async () => {
    const ids = await legacyUsers('api', 2);
    const headers = await as('admin@legado.demo');
    const body = { acao: 'desativar', alcance: 'selecionados', ids };
    const preview = await call('POST', '/api/plataforma/v1/usuarios/lote/previa', { headers, body });
    expect(preview.status).toBe(200);
    expect(preview.json.resultado).toMatchObject({ total: 2, alterar: 2, ignorados: [] });
    const bad = await call('POST', '/api/plataforma/v1/usuarios/lote/previa', { headers, body: { acao: 'explodir', ids: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.json.erros).toHaveProperty('acao');
    const group = await call('POST', '/api/plataforma/v1/usuarios/lote/previa', {
      headers,
      body: { acao: 'incluir-grupo', grupo: 'NAO_EXISTE', ids },
    });
    expect(group.status).toBe(400);
    expect(group.json.erros).toHaveProperty('grupo');
    const seller = await call('POST', '/api/plataforma/v1/usuarios/lote/previa', { headers: await as('vendedor@legado.demo'), body });
    expect(seller.status).toBe(403);
    const started = await call('POST', '/api/plataforma/v1/usuarios/lote', { headers, body });
    expect(started.status).toBe(200);
    await processBulkJobs(db);
    const job = await call('GET', `/api/plataforma/v1/usuarios/lote/${started.json.resultado.idLote}`, { headers });
    expect(job.json.resultado).toMatchObject({ situacao: 'CONCLUIDO', total: 2, resultados: { alterado: 2 } });
    const foreign = await call('GET', `/api/plataforma/v1/usuarios/lote/${started.json.resultado.idLote}`, {
      headers: await as('suporte@legado.demo'),
    });
    expect(foreign.status).toBe(404);
  });

  it('exports the filtered list in the viewer’s scope as CSV and XLSX', async () => {
    const download = async (email: string, query: string) =>
      api.handle(new Request(`http://portal.test/api/plataforma/v1/usuarios/exportar?${query}`, { headers: await as(email) }), {
        ip: '10.0.0.1',
        db: async () => db,
      });
    const csv = await download('gestor@legado.demo', 'formato=csv&nome=teste');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(/usuarios-legado\.csv/);
    const rows: string[][] = parse((await csv.text()).replace(/^\uFEFF/, ''), { delimiter: ';' });
    expect(rows[0]).toEqual(['Nome', 'E-mail', 'CPF', 'Empresa', 'CNPJ', 'Situação']);
    const names = rows.slice(1).map((r) => r[0]!);
    expect(names.length).toBeGreaterThan(30);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : 1))); // the list's order
    expect(rows.slice(1).every((r) => r[4] === '11.222.333/0001-81')).toBe(true); // the manager's company only
    expect(rows.slice(1).every((r) => r[2]!.includes('*'))).toBe(true); // CPFs masked
    const xlsx = await download('admin@legado.demo', 'formato=xlsx&nome=teste');
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-type')).toMatch(/spreadsheetml/);
    expect([...new Uint8Array(await xlsx.arrayBuffer()).subarray(0, 2)]).toEqual([0x50, 0x4b]); // a zip
    expect((await download('vendedor@legado.demo', 'formato=csv')).status).toBe(403);
    expect((await download('admin@legado.demo', 'formato=pdf')).status).toBe(400);
    const logged = await db.selectFrom('access_events').select('detalhe').where('event', '=', 'USUARIOS_EXPORTADOS').execute();
    expect(logged.map((e) => e.detalhe)).toEqual(['CSV; nome: teste', 'XLSX; nome: teste']);
  });
});
