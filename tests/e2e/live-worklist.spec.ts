import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, askForDocuments, HOME_PATH, signIn, waitForIslands, type DemoAccount } from './helpers';
import { sellResidential } from './selling';

/**
 * Issue 31, the live worklist, in both generations: a partner has the portal open; the underwriter
 * (the provider's ADMIN, at the acceptance queue) asks for documents on that partner's proposal in
 * another browser; the partner's bell count and the worklist on the page change without a reload,
 * with the focus kept and the news announced — through one event stream for all the partner's tabs.

 */
const EVENTS = /\/api\/(plataforma|bff)\/v1\/pendencias\/eventos$/;

const bellOf = (page: Page) => page.locator('header a.worklist-bell [data-worklist-count]');
const countOf = async (page: Page) => Number(await bellOf(page).getAttribute('data-worklist-count'));
const regionOf = (page: Page) => page.locator('[data-live-region="pendencias"]');

for (const account of [ACCOUNTS.partner, ACCOUNTS.legacySeller] as DemoAccount[]) {
  test(`${account.generation}: the underwriter asks for documents, and the partner's bell and worklist change without a reload`, async ({
    browser,
  }) => {
    const context = await browser.newContext();
    // Each stream opened, by the path of the page that opened it.
    const streams: string[] = [];
    context.on('request', (request) => {
      if (EVENTS.test(new URL(request.url()).pathname)) streams.push(new URL(request.frame().url()).pathname);
    });
    const partner = await context.newPage();
    await signIn(partner, account);
    const nrProposta = await sellResidential(partner, { generation: account.generation, mixed: true });

    // The worklist's page of proposals waiting for documents (the home shows only the five most urgent,
    // the whole worklist ten of each kind, of a book other journeys grow); its bell the stream's count.
    const worklistPage = `${account.generation === 'v2' ? '/v2/pendencias' : '/pendencias'}?tipo=DOCUMENTOS`;
    // Each page a tab loads opens its stream anew (the selling steps did): counted from here, and only
    // those of the two pages under test — the sale's last page may still be opening its own as it goes.
    const worklistPath = worklistPage.split('?')[0]!;
    const ofPagesUnderTest = () => streams.filter((opener) => opener === worklistPath || opener === HOME_PATH[account.generation]).length;
    streams.length = 0;
    await partner.goto(worklistPage);
    await waitForIslands(partner);
    // The count from here on is the database's (the stream's first word), whatever the render said.
    await expect(partner.locator('header a.worklist-bell[data-worklist-live]')).toBeAttached();
    const before = await countOf(partner);
    expect(before).toBeGreaterThanOrEqual(0);
    await expect(regionOf(partner)).not.toContainText(`Proposta nº ${nrProposta}`);
    // A second tab of the same browser, on the home: it shares the first tab's stream.
    const second = await context.newPage();
    await second.goto(HOME_PATH[account.generation]);
    await waitForIslands(second);
    await expect.poll(ofPagesUnderTest).toBe(1);

    await partner.evaluate(() => Object.assign(window, { semRecarga: true }));

    await askForDocuments(browser, nrProposta, 'Fotos da fachada e da instalação elétrica.');

    await expect.poll(() => countOf(partner)).toBe(before + 1);
    await expect.poll(() => countOf(second)).toBe(before + 1);
    // The worklist is the server's fresh answer, swapped in place: the proposal waits for documents.
    await expect(regionOf(partner)).toContainText(`Proposta nº ${nrProposta}: enviar documentos`);
    await expect(partner.locator('[data-worklist-announcer]')).toHaveText(/Pendências atualizadas/);
    expect(await partner.evaluate(() => (window as unknown as { semRecarga?: boolean }).semRecarga)).toBe(true);
    // Still one stream for the browser.
    expect(ofPagesUnderTest()).toBe(1);

    // The first tab closes: the other takes the stream over.
    await partner.close();
    await expect.poll(ofPagesUnderTest).toBe(2);
    await context.close();
  });
}

test('without a session the stream is refused (401); the bell is a plain link to the worklist, its count rendered where the page reads the worklist', async ({
  browser,
}) => {
  const anonymous = await browser.newContext();
  const response = await anonymous.request.get('/api/bff/v1/pendencias/eventos');
  expect(response.status()).toBe(401);
  await anonymous.close();

  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, ACCOUNTS.partner);
  // The page as it comes, before any script: a reload is how a browser without JavaScript sees the news.
  const home = await (await page.request.get('/v2/home')).text();
  expect(home).toMatch(/<a class="worklist-bell[^"]*" href="\/v2\/pendencias"[\s\S]*?data-worklist-count="\d+"/);
  // Elsewhere the bell is the link alone: the live stream brings its count.
  const profile = await (await page.request.get('/v2/perfil')).text();
  expect(profile).toMatch(/<a class="worklist-bell[^"]*" href="\/v2\/pendencias"/);
  expect(profile).not.toMatch(/data-worklist-count="\d+"/);
  await context.close();
});
