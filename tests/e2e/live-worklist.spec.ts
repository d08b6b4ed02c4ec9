import { expect, test, type Page } from '@playwright/test';
import { ACCOUNTS, HOME_PATH, signIn, waitForIslands, type DemoAccount } from './helpers';
import { sellResidential } from './selling';

/**
 * Issue 31, the live worklist, in both generations: a partner has the portal open; the underwriter
 * (the provider's ADMIN, at the acceptance queue) asks for documents on that partner's proposal in
 * another browser; the partner's bell count and the worklist on the page change without a reload,
 * with the focus kept and the news announced — through one event stream for all the partner's tabs.
 *
 * Until slice A's worklist lands on the home, the home's answer is given a probe region
 * (`data-live-region="pendencias"` holding the bell's count as the server rendered it) on its way to
 * the browser — on the first load and on the client's fetch of the page again alike — so what is
 * swapped in is the server's fresh answer.
 */
const EVENTS = /\/api\/(plataforma|bff)\/v1\/pendencias\/eventos$/;

async function withProbeRegion(page: Page, home: string) {
  await page.route(
    (url) => url.pathname === home,
    async (route) => {
      const response = await route.fetch();
      const html = await response.text();
      const count = /data-worklist-count="[^"]*"[^>]*>(\d+)</.exec(html)?.[1] ?? '?';
      const probe = `<section data-live-region="pendencias"><p data-testid="sonda">${count} pendências</p><a id="sonda-link" href="#sonda">Ver</a></section>`;
      await route.fulfill({ response, body: html.replace(/(<main[^>]*>)/, `$1${probe}`) });
    },
  );
}

const bellOf = (page: Page) => page.locator('[data-worklist-count]').first();

async function askForDocuments(admin: Page, nrProposta: string) {
  await signIn(admin, ACCOUNTS.insurerAdmin);
  await admin.goto('/v2/propostas/analise');
  await waitForIslands(admin);
  const item = admin.getByTestId(`proposta-${nrProposta}`);
  await item.getByRole('button', { name: `Pedir documentos da proposta ${nrProposta}` }).click();
  await item.getByLabel('Documentos pedidos ao parceiro').fill('Fotos da fachada e da instalação elétrica.');
  await item.getByRole('button', { name: 'Pedir documentos', exact: true }).click();
  await expect(admin).toHaveURL(new RegExp(`decidida=${nrProposta}`));
}

for (const account of [ACCOUNTS.partner, ACCOUNTS.legacySeller] as DemoAccount[]) {
  test(`${account.generation}: the underwriter asks for documents, and the partner's bell and worklist change without a reload`, async ({
    browser,
  }) => {
    const context = await browser.newContext();
    const streams: string[] = [];
    context.on('request', (request) => {
      if (EVENTS.test(new URL(request.url()).pathname)) streams.push(request.url());
    });
    const partner = await context.newPage();
    await signIn(partner, account);
    const nrProposta = await sellResidential(partner, { generation: account.generation, mixed: true });

    const home = HOME_PATH[account.generation];
    await withProbeRegion(partner, home);
    // Each page a tab loads opens its stream anew (the selling steps did): counted from here.
    streams.length = 0;
    await partner.goto(home);
    await waitForIslands(partner);
    const before = Number(await bellOf(partner).textContent());
    await expect(partner.getByTestId('sonda')).toHaveText(`${before} pendências`);
    // A second tab of the same browser: it shares the first tab's stream.
    const second = await context.newPage();
    await second.goto(home);
    await waitForIslands(second);
    await expect.poll(() => streams.length).toBe(1);

    await partner.evaluate(() => Object.assign(window, { semRecarga: true }));
    await partner.locator('#sonda-link').focus();

    const admin = await (await browser.newContext()).newPage();
    await askForDocuments(admin, nrProposta);

    await expect(bellOf(partner)).toHaveText(String(before + 1));
    await expect(bellOf(second)).toHaveText(String(before + 1));
    await expect(partner.getByTestId('sonda')).toHaveText(`${before + 1} pendências`);
    await expect(partner.locator('[data-worklist-announcer]')).toHaveText(/Pendências atualizadas/);
    expect(await partner.evaluate(() => (window as unknown as { semRecarga?: boolean }).semRecarga)).toBe(true);
    expect(await partner.evaluate(() => document.activeElement?.id)).toBe('sonda-link');
    // Still one stream for the browser.
    expect(streams).toHaveLength(1);

    // The first tab closes: the other takes the stream over.
    await partner.close();
    await expect.poll(() => streams.length).toBe(2);
    await context.close();
    await admin.context().close();
  });
}

test('without a session the stream is refused (401); the bell is a plain link to the worklist, rendered by the server', async ({
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
  const html = await (await page.request.get('/v2/home')).text();
  expect(html).toMatch(/<a class="worklist-bell" href="\/v2\/pendencias">[\s\S]*data-worklist-count=""[^>]*>\d+</);
  await context.close();
});
