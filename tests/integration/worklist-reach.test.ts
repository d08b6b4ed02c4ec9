import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { HOUSE, sellResidential, viewerByEmail } from '../fixtures/selling';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import type { PortalSession, SessionViewer } from '../../src/lib/session';
import { pageAccess } from '../../src/lib/route-guards';
import { WORKLIST_KIND_LIST, type WorklistItem, type WorklistKind } from '../../src/lib/worklist';
import { brasiliaDay } from '../../src/lib/format';
import { parseReportRequest } from '../../src/lib/sales-reports';

/**
 * Issue 42, item 9: every item the bell counts is one its viewer can open and act on. For each demo
 * profile, each item of the worklist — the bell counts its new ones, and nothing is read yet — is
 * opened through the controller of the page its link names, as that viewer: the page's guard lets
 * them in, the page shows the item's record, and it offers what the item says to do. Every kind the
 * bell counts is met at least once (a kind added without a way here to open it fails the last test).
 */
const shared = vi.hoisted(() => {
  // The commission pages (and so the notas fiscais' notices) exist outside production only (SPEC §2):
  // every kind is met here; worklist.test.ts holds that production counts no nota fiscal.
  process.env.PORTAL_ENV = 'TEST';
  return { db: undefined as DB | undefined };
});
// The report's file goes to a folder of this run, not the worktree's (read when the store is first asked for).
process.env.DATA_DIR = mkdtempSync(join(tmpdir(), 'portal-reach-'));
vi.mock('../../src/server/boot/database', async (original) => ({
  ...(await original<typeof import('../../src/server/boot/database')>()),
  database: async () => shared.db!,
}));
const { worklist, worklistNewCount } = await import('../../src/server/services/reporting/worklist');
const { uploadPage } = await import('../../src/features/documents/documents.server');
const { policyPage } = await import('../../src/features/policies/policies.server');
const { boletoPage, paymentsLookupPage } = await import('../../src/features/payments/payments.server');
const { renewalPage } = await import('../../src/features/renewals/renewals.server');
const { refundsQueuePage } = await import('../../src/features/refunds/refunds.server');
const { analysisPage } = await import('../../src/features/proposals/analysis.server');
const { notasPage } = await import('../../src/features/commissions/commissions.server');
const { reportDownload } = await import('../../src/features/reports/reports.server');
const { resultResponse } = await import('../../src/features/user-import/import.server');
const { routeSimulator } = await import('../../src/features/simulators/simulator.server');
const { apiBases, config } = await import('../../src/server/config');
const { decideProposal } = await import('../../src/server/services/after-sale/acceptance');
const { findUserByEmail, loadV2User } = await import('../../src/server/services/identity/principals');
const { sellerFromV2 } = await import('../../src/server/services/selling/sellers');
const { sellableOffers } = await import('../../src/server/services/network/offers');
const { createQuote } = await import('../../src/server/services/selling/quotes');
const { salesDataScopeFor } = await import('../../src/server/services/identity/scope');
const { metricsOptions } = await import('../../src/server/services/reporting/metrics');
const { generateReports, requestReport } = await import('../../src/server/services/reporting/sales-reports');
const { fileStore } = await import('../../src/server/files');

let db: DB;
let close: () => Promise<void>;

/** Every demo account that signs in (the pending one cannot). */
const PROFILES = [
  'admin@legado.demo',
  'suporte@legado.demo',
  'gestor@legado.demo',
  'vendedor@legado.demo',
  'consultor@legado.demo',
  'admin@seguradora.demo',
  'parceiro.admin@parceiro.demo',
  'parceiro@parceiro.demo',
  'igor.pereira@parceiro.demo',
  'juliana.costa@parceiro.demo',
  'substabelecido@parceiro.demo',
];
const NOW = new Date();
const DAY_MS = 86_400_000;
const IP = '10.0.0.9';

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  shared.db = db;
  // What the demo seed lacks, so that every kind has an item for someone:
  // a quote of the partner expiring in two days,
  const user = await loadV2User(db, (await findUserByEmail(db, 'parceiro@parceiro.demo'))!, { fullyAuthenticated: true });
  const seller = await sellerFromV2(db, user);
  const offer = (await sellableOffers(db, user, NOW)).find((o) => o.code === 'RES')!;
  const quote = await createQuote(db, seller, offer, { segurado: DEMO_INSURED.residencial, respostas: HOUSE }, NOW);
  await db
    .updateTable('quotes')
    .set({ valida_ate: new Date(NOW.getTime() + 2 * DAY_MS) })
    .where('nr_cotacao', '=', quote.nrCotacao)
    .execute();
  // a proposal of Igor's refused (its notice links to the quote),
  const referred = await sellResidential(db, {
    email: 'igor.pereira@parceiro.demo',
    respostas: { ...HOUSE, construcao: 'mista' },
    at: NOW,
  });
  const insurer = (await findUserByEmail(db, 'admin@seguradora.demo'))!;
  await decideProposal(db, insurer.id, referred.nrProposta, { decisao: 'RECUSAR', motivo: 'Construção mista.' }, NOW);
  // a sales report ready for the partner's administrator,
  const manager = await viewerByEmail(db, 'parceiro.admin@parceiro.demo');
  const { scope } = await salesDataScopeFor(db, manager, 'RELATORIOS');
  const today = brasiliaDay(NOW);
  const asked = parseReportRequest(
    new URLSearchParams({ de: `${today.slice(0, 8)}01`, ate: today, tipo: 'apolices', formato: 'csv' }),
    today,
  );
  if (!asked.ok) throw new Error(JSON.stringify(asked.errors));
  await requestReport(
    db,
    { userId: manager.user.idUsuario, generation: 'v2', seesAll: false },
    scope,
    await metricsOptions(db, scope),
    asked.value,
  );
  await generateReports(db, fileStore(), () => NOW);
  // a nota fiscal of Horizonte approved, and an import of the manager's finished.
  const horizonte = (await findUserByEmail(db, 'parceiro@parceiro.demo'))!.company_id!;
  await db
    .insertInto('notas_fiscais')
    .values({
      company_id: horizonte,
      competencia: '2026-10',
      numero: '4321',
      valor: 1000,
      nome: 'nf.pdf',
      mime: 'application/pdf',
      tamanho: 10,
      sha256: 'a'.repeat(64),
      status: 'APROVADA',
      user_id: manager.user.idUsuario,
      decidida_em: NOW,
    } as never)
    .execute();
  await db
    .insertInto('user_imports')
    .values({
      actor_id: manager.user.idUsuario,
      generation: 'v2',
      file_name: 'equipe.csv',
      encoding: 'utf-8',
      status: 'CONCLUIDO',
      total_rows: 0,
      valid_rows: 0,
      processed_rows: 0,
      error: null,
      ip: null,
      confirmed_at: NOW,
      claimed_at: NOW,
      finished_at: NOW,
    })
    .execute();
}, 180_000);
afterAll(() => close());

const url = (href: string) => new URL(href, 'http://portal.test');
const get = (href: string) => new Request(url(href));

/** What opening a link gave: the page's data (or a download's status) as text to look the record up in. */
interface Opened {
  /** The page answered for this viewer (not the 404 / 403 page). */
  found: boolean;
  /** What it shows, as JSON text. */
  shown: string;
}
const shown = (page: unknown): Opened => ({ found: page !== undefined && page !== null, shown: JSON.stringify(page ?? null) });
/** A download names its record in its address: found is all it can show. */
const download = async (response: Response | undefined): Promise<Opened> => ({ found: response?.status === 200, shown: DOWNLOADED });
const DOWNLOADED = 'arquivo baixado';

type Opener = (match: RegExpMatchArray, session: PortalSession, viewer: SessionViewer, href: string) => Promise<Opened>;

/** The controller each link's page calls, as its .astro or route file calls it (src/pages). */
const OPENERS: [RegExp, Opener][] = [
  [/^(\/v2)?\/documentos\/envio$/, async (m, s, _, href) => shown(await uploadPage(m[1] ? 'v2' : 'v1', s, url(href).searchParams))],
  [/^(\/v2)?\/apolices\/(\d+)$/, async (m, s) => shown(await policyPage(m[1] ? 'v2' : 'v1', s, m[2]!, IP))],
  [/^\/v2\/boleto$/, async (_, s, __, href) => shown(await boletoPage(s, url(href).searchParams, IP))],
  [/^\/consulta-pagamento$/, async (_, s, __, href) => shown(await paymentsLookupPage(s, url(href).searchParams, IP))],
  [/^(\/v2)?\/renovacoes\/(\d+)$/, async (m, s, _, href) => shown(await renewalPage(m[1] ? 'v2' : 'v1', s, m[2]!, get(href)))],
  [/^(\/v2)?\/restituicoes$/, async (m, s, _, href) => shown(await refundsQueuePage(m[1] ? 'v2' : 'v1', s, get(href), url(href), IP))],
  [/^\/v2\/propostas\/analise$/, async (_, s, __, href) => shown(await analysisPage(s, get(href), url(href)))],
  [/^\/v2\/comissoes\/nota-fiscal$/, async (_, s, __, href) => shown(await notasPage(s, url(href).searchParams))],
  [/^\/v2\/relatorios\/vendas\/arquivo\/(\d+)$/, async (m, s) => download(await reportDownload('v2', s, m[1], IP))],
  [/^\/relatorio-vendas\/arquivo\/(\d+)$/, async (m, s) => download(await reportDownload('v1', s, m[1], IP))],
  [/^\/v2\/usuario\/importacao\/resultado\/(\d+)$/, async (m, s) => download(await resultResponse('v2', s, m[1]))],
  [/^\/importar-usuarios\/resultado\/(\d+)$/, async (m, s) => download(await resultResponse('v1', s, m[1]))],
  [
    /^(\/v2)?\/simulador-([a-z-]+)\/(.+)$/,
    async (m, _, viewer) => {
      const routing = await routeSimulator(db, viewer, { linha: m[2], passo: m[3] }, apiBases(), { ip: IP });
      return routing.kind === 'render' ? shown(routing.props.quote) : { found: false, shown: routing.kind };
    },
  ],
];

async function open(href: string, session: PortalSession, viewer: SessionViewer): Promise<Opened> {
  const path = url(href).pathname;
  for (const [pattern, opener] of OPENERS) {
    const match = path.match(pattern);
    if (match) return opener(match, session, viewer, href);
  }
  throw new Error(`No page here opens ${href}`);
}

/** The record an item names: the last number it says ("… apólice nº N"), or its file's name. */
const recordOf = (item: WorklistItem): string => [...item.what.matchAll(/nº (\d+)/g)].pop()?.[1] ?? item.what.match(/"([^"]+)"/)![1]!;

/**
 * What the page must offer for the item's action, beyond showing its record (JSON of its data).
 * Notices and downloads ask only to be seen.
 */
const ACTS: Partial<Record<WorklistKind, (page: string, item: WorklistItem) => boolean>> = {
  // The upload form of the proposal (not the search page).
  DOCUMENTOS: (page) => page.includes('"kind":"proposal"') && page.includes('"AGUARDANDO_DOCUMENTOS"'),
  // "Renovar" is offered: nothing refuses it.
  RENOVACAO: (page) => !page.includes('"refusal"') || page.includes('"refusal":null'),
  // "Continuar a cotação": the viewer's own quote, open to change.
  COTACAO_EXPIRANDO: (page) => page.includes('"editable":true') && page.includes('"mine":true'),
  // "Pagar a restituição": in the queue's tab of refunds owed.
  RESTITUICAO: (page) => page.includes('"status":"DEVIDA"'),
};

const seen = new Set<WorklistKind>();

describe('every item the bell counts opens, for its viewer, on a page that shows it and offers its action', () => {
  it.each(PROFILES)('%s', async (email) => {
    const viewer = await viewerByEmail(db, email);
    const session = { [viewer.generation]: viewer.user } as PortalSession;
    const items = (await worklist(db, viewer, { now: NOW })).flatMap((g) => g.items);
    // Nothing is read yet: the bell counts every item the page lists.
    expect(await worklistNewCount(db, viewer, NOW)).toBe(items.length);
    const failures: string[] = [];
    for (const item of items) {
      seen.add(item.kind);
      const path = url(item.href).pathname;
      // The middleware's gate (a generation's own paths), then the route's guard.
      if (path.startsWith('/v2/') !== (viewer.generation === 'v2') || pageAccess(path, viewer, config().PORTAL_ENV) !== 'allowed') {
        failures.push(`${item.kind} ${item.href}: the page refuses this viewer`);
        continue;
      }
      const page = await open(item.href, session, viewer);
      const record = recordOf(item);
      if (!page.found) failures.push(`${item.kind} ${item.href}: not found for this viewer`);
      else if (page.shown !== DOWNLOADED && !page.shown.includes(record))
        failures.push(`${item.kind} ${item.href}: does not show ${record}`);
      else if (ACTS[item.kind] && !ACTS[item.kind]!(page.shown, item))
        failures.push(`${item.kind} ${item.href}: "${item.action}" is not offered`);
    }
    expect(failures).toEqual([]);
  });

  it('met every kind the bell counts', () => {
    expect([...seen].sort()).toEqual([...WORKLIST_KIND_LIST].sort());
  });
});
