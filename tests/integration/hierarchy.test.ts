import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, signInApi, tokenOf } from '../fixtures/api';
import { apiErrorOf, type ApiError } from '../../src/server/api/errors';
import { DomainError } from '../../src/server/errors';
import { actorOf } from '../../src/server/services/network/user-admin';
import { allChannels, hierarchyOf, saveChannel } from '../../src/server/services/network/hierarchy';
import { ancestorIds, CHANNEL_MESSAGES as M, walk, type ChannelInput, type HierarchyJson } from '../../src/lib/hierarchy';
import type { V1Actor } from '../../src/lib/user-admin';

/**
 * Sales channels and the hierarchy (issue 17, decision 050) through the platform API and the
 * service: who reads which part of the tree, the counts, the search, who changes channels, a loop
 * refused (also when two changes race), nothing written by a refusal, the access log — and a tree of
 * several hundred nodes read in a handful of statements.
 */
let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;
const statements = { counting: false, count: 0 };
const tokens = {} as Record<'admin' | 'gestor' | 'vendedor' | 'v2', string>;

async function v1Token(email: string) {
  const { json, status } = await signInApi(call, email);
  expect(status, JSON.stringify(json)).toBe(200);
  return tokenOf(json) as string;
}
const as = (token: string) => ({ authtoken: token });
const actor = async (email: string) =>
  (await actorOf(db, await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow())) as V1Actor;
async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  // A refusal of the domain, as the API would answer it.
  expect(error).toBeInstanceOf(DomainError);
  return apiErrorOf(error)!;
}
const nodes = (tree: HierarchyJson): HierarchyJson[] => [tree, ...tree.filhos.flatMap(nodes)];
const channelRows = () => db.selectFrom('channels').selectAll().orderBy('id').execute();
const input = (over: Partial<ChannelInput> = {}): ChannelInput => ({
  codigo: 'rede-sul',
  nome: 'Rede Sul',
  tipo: 'VAREJO',
  canalPai: 'portal',
  status: 'ATIVO',
  ...over,
});

beforeAll(async () => {
  ({ db, close } = await freshDatabase({
    onQuery: () => {
      if (statements.counting) statements.count += 1;
    },
  }));
  call = apiClient(db);
  tokens.admin = await v1Token('suporte@legado.demo');
  tokens.gestor = await v1Token('gestor@legado.demo');
  tokens.vendedor = await v1Token('vendedor@legado.demo');
  const v2 = await signInApi(call, 'parceiro.admin@parceiro.demo');
  tokens.v2 = tokenOf(v2.json) as string;
});
afterAll(() => close());

describe('migration 020', () => {
  it('puts every company in the portal’s channel, and a company inserted without one there too', async () => {
    const portal = (await db.selectFrom('channels').select('id').where('codigo', '=', 'portal').executeTakeFirstOrThrow()).id;
    const companies = await db.selectFrom('companies').select('channel_id').execute();
    expect(companies.length).toBeGreaterThan(0);
    expect(companies.every((c) => c.channel_id === portal)).toBe(true);
    const inserted = await db
      .insertInto('companies')
      .values({ cnpj: '55666777000122', razao_social: 'Sem Canal Ltda.', nome_fantasia: 'Sem Canal', tipo: 'PARCEIRO', parent_id: null })
      .returning('channel_id')
      .executeTakeFirstOrThrow();
    expect(inserted.channel_id).toBe(portal);
    await db.deleteFrom('companies').where('cnpj', '=', '55666777000122').execute();
  });
});

describe('reading the hierarchy', () => {
  it('the admin group reads the whole tree with its counts; the insurer’s staff hang from the insurer', async () => {
    const { status, json } = await call('GET', '/api/plataforma/v1/hierarquia', { headers: as(tokens.admin) });
    expect(status, JSON.stringify(json)).toBe(200);
    const tree = json.resultado.arvore as HierarchyJson;
    expect(tree).toMatchObject({ tipo: 'seguradora', contagens: { parceiros: 1, substabelecidos: 1, pontosDeVenda: 3 } });
    const total = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(tree.contagens.usuarios).toBe(Number(total.n));
    const all = nodes(tree);
    const portal = all.find((n) => n.tipo === 'canal' && n.detalhe.codigo === 'portal')!;
    expect(portal.filhos.map((n) => n.detalhe.codigo ?? n.detalhe.cnpj)).toEqual(['varejo', '11222333000181']);
    const horizonte = portal.filhos[1]!;
    expect(horizonte.filhos.map((n) => `${n.tipo} ${n.nome}`).slice(0, 3)).toEqual([
      'empresa Vale Verde',
      'ponto-venda Loja Centro — São Paulo',
      'ponto-venda Loja Savassi — Belo Horizonte',
    ]);
    const savassi = horizonte.filhos[2]!;
    expect(savassi.filhos.map((n) => n.detalhe.email)).toEqual(['vendedor@legado.demo', 'juliana.costa@parceiro.demo']);
    expect(tree.filhos.filter((n) => n.tipo === 'usuario').map((n) => n.detalhe.email)).toEqual(['admin@seguradora.demo']);
    // The partner admin works for both companies: shown under each, counted once.
    expect(all.filter((n) => n.detalhe.email === 'parceiro.admin@parceiro.demo')).toHaveLength(2);
    expect(all.find((n) => n.detalhe.email === 'novo.parceiro@parceiro.demo')?.detalhe.status).toBe('PENDENTE');
  });

  it('a HIERARQUIA holder reads their company’s branch only, sub-delegated companies below included', async () => {
    const other = await db
      .insertInto('companies')
      .values({ cnpj: '66777888000133', razao_social: 'Outra Rede S.A.', nome_fantasia: 'Outra Rede', tipo: 'PARCEIRO', parent_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const horizonte = (await db.selectFrom('companies').select('id').where('cnpj', '=', '11222333000181').executeTakeFirstOrThrow()).id;
    const vale = (await db.selectFrom('companies').select('id').where('cnpj', '=', '33444555000181').executeTakeFirstOrThrow()).id;
    // A substabelecido of Vale Verde (two levels below Horizonte) is in the manager's branch.
    const deep = await db
      .insertInto('companies')
      .values({
        cnpj: '77888999000144',
        razao_social: 'Agência Funda Ltda.',
        nome_fantasia: 'Funda',
        tipo: 'SUBSTABELECIDO',
        parent_id: vale,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { status, json } = await call('GET', '/api/plataforma/v1/hierarquia', { headers: as(tokens.gestor) });
    expect(status).toBe(200);
    const all = nodes(json.resultado.arvore);
    const cnpjs = all.filter((n) => n.tipo === 'empresa').map((n) => n.detalhe.cnpj);
    expect(cnpjs).toEqual(['11222333000181', '33444555000181', '77888999000144']);
    expect(all.filter((n) => n.tipo === 'canal').map((n) => n.detalhe.codigo)).toEqual(['portal']);
    expect(all.some((n) => n.detalhe.email === 'admin@seguradora.demo')).toBe(false);
    expect(json.resultado.arvore.contagens).toMatchObject({ parceiros: 1, substabelecidos: 2 });
    // The admin sees the other partner; the manager's channel list is theirs.
    const admin = nodes((await call('GET', '/api/plataforma/v1/hierarquia', { headers: as(tokens.admin) })).json.resultado.arvore);
    expect(admin.some((n) => n.detalhe.cnpj === '66777888000133')).toBe(true);
    const channels = await call('GET', '/api/plataforma/v1/canais', { headers: as(tokens.gestor) });
    expect(channels.json.resultado.map((c: { codigo: string }) => c.codigo)).toEqual(['portal']);
    await db.deleteFrom('companies').where('id', 'in', [other.id, deep.id]).execute();
    expect(horizonte).toBeGreaterThan(0);
  });

  // Issue 27: the manager's tree named and e-mailed users its own user list hides — the v2 users of its
  // company and the users of the substabelecido below it. The tree's users are now the list's.
  it('shows a manager exactly the users its own user list shows, and finds no other by e-mail', async () => {
    const tree = nodes((await call('GET', '/api/plataforma/v1/hierarquia', { headers: as(tokens.gestor) })).json.resultado.arvore);
    const inTree = [...new Set(tree.filter((n) => n.tipo === 'usuario').map((n) => n.detalhe.email as string))].sort();
    const list = await call('GET', '/api/plataforma/v1/usuarios/filtro?page=0&page-size=50', { headers: as(tokens.gestor) });
    expect(list.status).toBe(200);
    const listed = (list.json.resultado.content as { email: string }[]).map((u) => u.email).sort();
    expect(listed).toContain('vendedor@legado.demo');
    expect(inTree).toEqual(listed);
    for (const hidden of ['parceiro@parceiro.demo', 'substabelecido@parceiro.demo', 'juliana.costa@parceiro.demo']) {
      expect(inTree).not.toContain(hidden);
      const found = await call('GET', `/api/plataforma/v1/hierarquia?busca=${encodeURIComponent(hidden)}`, { headers: as(tokens.gestor) });
      expect(found.json.resultado.resultados, hidden).toBe(0);
    }
    // The counts are of the users shown: nothing is counted that could not be found.
    expect(tree[0]!.contagens.usuarios).toBe(listed.length);
  });

  it('finds by name, CNPJ, e-mail and channel, with the way to each match', async () => {
    const search = async (busca: string) =>
      (await call('GET', `/api/plataforma/v1/hierarquia?busca=${encodeURIComponent(busca)}`, { headers: as(tokens.admin) })).json.resultado;
    const byMail = await search('juliana.costa@');
    expect(byMail.resultados).toBe(1);
    const path = nodes(byMail.arvore).map((n) => n.tipo);
    expect(path).toEqual(['seguradora', 'canal', 'empresa', 'ponto-venda', 'usuario']);
    expect((await search('33.444.555/0001-81')).resultados).toBe(1);
    // The company and its agency (VV-0001, "Agência Vale Verde").
    expect((await search('vale verde')).resultados).toBe(2);
    expect(
      nodes((await search('VAREJO')).arvore)
        .filter((n) => n.resultadoBusca)
        .map((n) => n.detalhe.codigo),
    ).toEqual(['varejo']);
    expect((await search('ninguem-assim')).resultados).toBe(0);
    const long = await call('GET', `/api/plataforma/v1/hierarquia?busca=${'x'.repeat(121)}`, { headers: as(tokens.admin) });
    expect(long.status).toBe(400);
  });

  it('is refused to whoever lacks HIERARQUIA (403) and to v2 sessions (401)', async () => {
    for (const path of ['/api/plataforma/v1/hierarquia', '/api/plataforma/v1/canais'])
      expect((await call('GET', path, { headers: as(tokens.vendedor) })).status).toBe(403);
    expect((await call('GET', '/api/plataforma/v1/hierarquia', { headers: as(tokens.v2) })).status).toBe(401);
    expect((await call('GET', '/api/plataforma/v1/hierarquia')).status).toBe(401);
  });
});

describe('changing channels', () => {
  it('the admin group creates one under the portal’s; the log says who and what', async () => {
    const created = await call('POST', '/api/plataforma/v1/canais', {
      headers: as(tokens.admin),
      body: { codigo: 'Rede-Sul', nome: 'Rede Sul', tipo: 'varejo', canalPai: 'portal', status: 'ativo' },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    expect(created.json.resultado).toMatchObject({
      codigo: 'rede-sul',
      canalPai: 'portal',
      status: 'ATIVO',
      mensagem: 'Canal cadastrado.',
    });
    const event = await db.selectFrom('access_events').selectAll().where('event', '=', 'CANAL_CRIADO').executeTakeFirstOrThrow();
    expect(event).toMatchObject({ email: 'suporte@legado.demo', generation: 'v1' });
    expect(event.detalhe).toBe('canal rede-sul: nome Rede Sul; tipo VAREJO; canal pai portal; situação ativo');
    const tree = nodes((await call('GET', '/api/plataforma/v1/hierarquia', { headers: as(tokens.admin) })).json.resultado.arvore);
    expect(tree.find((n) => n.detalhe.codigo === 'rede-sul')?.detalhe.canalPai).toBe('portal');
  });

  it('whoever is not the admin group gets 403 before the body is read; a bad or duplicate body writes nothing', async () => {
    const before = await channelRows();
    for (const token of [tokens.gestor, tokens.vendedor])
      expect((await call('POST', '/api/plataforma/v1/canais', { headers: as(token), body: {} })).status).toBe(403);
    expect((await call('PUT', '/api/plataforma/v1/canais/1', { headers: as(tokens.gestor), body: input() })).status).toBe(403);
    const bad = await call('POST', '/api/plataforma/v1/canais', { headers: as(tokens.admin), body: { codigo: 'Rede Sul!', tipo: 'X' } });
    expect(bad.status).toBe(400);
    expect(bad.json.erros).toEqual({ codigo: [M.codigo], nome: [M.nome], tipo: [M.tipo], status: [M.status] });
    const duplicate = await call('POST', '/api/plataforma/v1/canais', { headers: as(tokens.admin), body: input({ codigo: 'varejo' }) });
    expect([duplicate.status, duplicate.json.erros]).toEqual([409, { codigo: [M.duplicate] }]);
    const unknownParent = await call('POST', '/api/plataforma/v1/canais', {
      headers: as(tokens.admin),
      body: input({ codigo: 'outro', canalPai: 'nao-existe' }),
    });
    expect([unknownParent.status, unknownParent.json.erros]).toEqual([400, { canalPai: [M.canalPai] }]);
    expect((await call('PUT', '/api/plataforma/v1/canais/999999', { headers: as(tokens.admin), body: input() })).status).toBe(404);
    expect(await channelRows()).toEqual(before);
  });

  it('refuses a loop: a channel under itself or under one below it (409), writing nothing', async () => {
    const channels = await allChannels(db);
    const id = (codigo: string) => channels.find((c) => c.codigo === codigo)!.id;
    const before = await channelRows();
    const put = (codigo: string, body: Partial<ChannelInput>) =>
      call('PUT', `/api/plataforma/v1/canais/${id(codigo)}`, {
        headers: as(tokens.admin),
        body: { nome: channels.find((c) => c.codigo === codigo)!.nome, tipo: 'DIGITAL', status: 'ATIVO', ...body },
      });
    const self = await put('portal', { canalPai: 'portal' });
    expect([self.status, self.json.erros]).toEqual([409, { canalPai: [M.self] }]);
    const loop = await put('portal', { canalPai: 'rede-sul' });
    expect([loop.status, loop.json.erros]).toEqual([409, { canalPai: [M.cycle] }]);
    const off = await put('portal', { canalPai: '', status: 'INATIVO' });
    expect([off.status, off.json.erros]).toEqual([409, { status: [M.portal] }]);
    expect(await channelRows()).toEqual(before);
    // The code is fixed: a PUT naming another keeps the channel's own.
    const renamed = await call('PUT', `/api/plataforma/v1/canais/${id('rede-sul')}`, {
      headers: as(tokens.admin),
      body: input({ codigo: 'outro-codigo', nome: 'Rede Sul Brasil' }),
    });
    expect(renamed.json.resultado).toMatchObject({ codigo: 'rede-sul', nome: 'Rede Sul Brasil', mensagem: 'Canal alterado.' });
    const logged = await db.selectFrom('access_events').select('detalhe').where('event', '=', 'CANAL_ALTERADO').executeTakeFirstOrThrow();
    expect(logged.detalhe).toBe('canal rede-sul: nome: Rede Sul → Rede Sul Brasil');
  });

  it('two changes that would together close a loop: one is saved, the other refused', async () => {
    const admin = await actor('suporte@legado.demo');
    await saveChannel(db, admin, input({ codigo: 'norte', nome: 'Norte', canalPai: '' }), undefined, null);
    await saveChannel(db, admin, input({ codigo: 'leste', nome: 'Leste', canalPai: '' }), undefined, null);
    const byCode = async (codigo: string) => (await allChannels(db)).find((c) => c.codigo === codigo)!;
    // Norte under Leste and Leste under Norte, at the same moment (on PostgreSQL, two connections).
    const results = await Promise.allSettled([
      saveChannel(db, admin, input({ codigo: 'norte', nome: 'Norte', canalPai: 'leste' }), await byCode('norte'), null),
      saveChannel(db, admin, input({ codigo: 'leste', nome: 'Leste', canalPai: 'norte' }), await byCode('leste'), null),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((refused.reason as DomainError).fieldErrors).toEqual({ canalPai: [M.cycle] });
    const channels = await allChannels(db);
    for (const c of channels) expect(ancestorIds(channels, c.id)).not.toContain(c.id);
  });

  it('an inactive channel takes no active channel below it, nor new access groups; one over active ones stays active', async () => {
    const admin = await actor('suporte@legado.demo');
    const varejo = (await allChannels(db)).find((c) => c.codigo === 'varejo')!;
    await saveChannel(db, admin, input({ codigo: 'lojas', nome: 'Lojas', canalPai: 'varejo' }), undefined, null);
    const over = await refusal(
      saveChannel(db, admin, input({ codigo: 'varejo', nome: varejo.nome, canalPai: 'portal', status: 'INATIVO' }), varejo, null),
    );
    expect([over.status, over.fieldErrors]).toEqual([409, { status: [M.activeChildren] }]);
    const lojas = (await allChannels(db)).find((c) => c.codigo === 'lojas')!;
    await saveChannel(db, admin, input({ codigo: 'lojas', nome: 'Lojas', canalPai: 'varejo', status: 'INATIVO' }), lojas, null);
    await saveChannel(db, admin, input({ codigo: 'varejo', nome: varejo.nome, canalPai: 'portal', status: 'INATIVO' }), varejo, null);
    const under = await refusal(
      saveChannel(db, admin, input({ codigo: 'quiosques', nome: 'Quiosques', canalPai: 'varejo' }), undefined, null),
    );
    expect(under.fieldErrors).toEqual({ canalPai: [M.inactiveParent] });
    const group = await call('GET', '/api/plataforma/v1/canais', { headers: as(tokens.admin) });
    expect(group.json.resultado.find((c: { codigo: string }) => c.codigo === 'varejo').status).toBe('INATIVO');
    const reopened = (await allChannels(db)).find((c) => c.codigo === 'varejo')!;
    await saveChannel(db, admin, input({ codigo: 'varejo', nome: varejo.nome, tipo: 'VAREJO', canalPai: 'portal' }), reopened, null);
  });
});

describe('a large hierarchy', () => {
  it('reads several hundred nodes in a handful of statements, the counts adding up', async () => {
    const portal = (await allChannels(db)).find((c) => c.codigo === 'portal')!;
    const channels = await db
      .insertInto('channels')
      .values(
        Array.from({ length: 12 }, (_, i) => ({ codigo: `grande-${i}`, nome: `Grande ${i}`, tipo: 'CORRETORA', parent_id: portal.id })),
      )
      .returning('id')
      .execute();
    const partners = await db
      .insertInto('companies')
      .values(
        Array.from({ length: 60 }, (_, i) => ({
          cnpj: String(80_000_000_000_000 + i),
          razao_social: `Corretora Grande ${i} Ltda.`,
          nome_fantasia: `Grande ${i}`,
          tipo: 'PARCEIRO' as const,
          parent_id: null,
          channel_id: channels[i % channels.length]!.id,
        })),
      )
      .returning('id')
      .execute();
    const subs = await db
      .insertInto('companies')
      .values(
        partners.map((p, i) => ({
          cnpj: String(81_000_000_000_000 + i),
          razao_social: `Agência Grande ${i} Ltda.`,
          nome_fantasia: `Agência ${i}`,
          tipo: 'SUBSTABELECIDO' as const,
          parent_id: p.id,
        })),
      )
      .returning('id')
      .execute();
    const points = await db
      .insertInto('points_of_sale')
      .values([...partners, ...subs].map((c, i) => ({ company_id: c.id, nome: `Loja ${i}`, codigo: `PV-G${i}` })))
      .returning(['id', 'company_id'])
      .execute();
    await db
      .insertInto('users')
      .values(
        Array.from({ length: 300 }, (_, i) => ({
          email: `grande${i}@exemplo.demo`,
          nome: `Pessoa Grande ${i}`,
          cpf: null,
          generation: 'v2' as const,
          profile: 'parceiro' as const,
          status: 'ATIVO' as const,
          password_hash: null,
          company_id: points[i % points.length]!.company_id,
          point_of_sale_id: i % 2 === 0 ? points[i % points.length]!.id : null,
        })),
      )
      .execute();
    const admin = await actor('suporte@legado.demo');
    statements.count = 0;
    statements.counting = true;
    const started = performance.now();
    const view = await hierarchyOf(db, admin, '');
    const elapsed = performance.now() - started;
    statements.counting = false;
    expect(statements.count).toBeLessThanOrEqual(4);
    expect(elapsed).toBeLessThan(5_000);
    const all = [...walk(view.root)];
    expect(all.length).toBeGreaterThan(550);
    expect(view.root.counts.parceiros).toBe(61);
    expect(view.root.counts.substabelecidos).toBe(61);
    expect(view.root.counts.pontosDeVenda).toBe(123);
    const grande = all.filter((n) => n.kind === 'canal' && n.channel.codigo.startsWith('grande-'));
    expect(grande.reduce((sum, n) => sum + n.counts.usuarios, 0)).toBe(300);
    // A search over it: one statement more for nothing, the same four.
    statements.count = 0;
    statements.counting = true;
    const found = await hierarchyOf(db, admin, 'grande299@');
    statements.counting = false;
    expect(statements.count).toBeLessThanOrEqual(4);
    expect(found.matches).toBe(1);
  });
});
