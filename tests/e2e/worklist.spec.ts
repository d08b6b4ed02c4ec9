import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, askForDocuments, signIn, type DemoAccount } from './helpers';
import { sellResidential } from './selling';

/**
 * Issue 31, the worklist in both generations: the insurer asks a partner for documents; the partner's
 * bell counts the new item, the worklist shows the proposal with its days left and a link that opens
 * the upload page; marking it read lowers the bell's count, and the item stays (it is still to do).
 */
async function pageAs(browser: Browser, account: DemoAccount): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, account);
  return page;
}

const bell = (page: Page) => page.locator('header a.worklist-bell');
/** The bell's count: rendered by the pages that read the worklist, brought by the live stream on the others (NaN until then). */
const bellCount = async (page: Page) =>
  Number((await bell(page).locator('[data-worklist-count]').getAttribute('data-worklist-count')) ?? Number.NaN);

for (const generation of ['v2', 'v1'] as const) {
  const seller = generation === 'v2' ? ACCOUNTS.partner : ACCOUNTS.legacySeller;
  const worklistPath = generation === 'v2' ? '/v2/pendencias' : '/pendencias';

  test(`${generation}: a proposal waiting for documents is in the worklist with its days left; marked read, the bell drops`, async ({
    browser,
  }) => {
    const page = await pageAs(browser, seller);
    const nrProposta = await sellResidential(page, { generation, mixed: true });
    await askForDocuments(browser, nrProposta, 'Fotos da fachada do imóvel.');

    // Any page's bell counts it: on a page that does not read the worklist the live stream brings the count.
    await page.goto(generation === 'v2' ? '/v2/perfil' : '/perfil');
    await expect.poll(() => bellCount(page)).toBeGreaterThan(0);
    const before = await bellCount(page);
    await expect(bell(page)).toHaveAccessibleName(
      before === 1 ? 'Pendências: 1 nova' : `Pendências: ${before > 99 ? '99+' : before} novas`,
    );

    // The bell leads to the worklist (a plain link).
    await bell(page).click();
    await expect(page).toHaveURL(new RegExp(`${worklistPath}$`));
    await expect(page.getByRole('heading', { name: 'Pendências', level: 1 })).toBeVisible();
    // The whole worklist shows ten of each kind; the filter shows one kind whole.
    await page.getByLabel('Tipo').selectOption({ label: 'Propostas aguardando documentos' });
    await page.getByRole('button', { name: 'Filtrar' }).click();
    const kindPath = `${worklistPath}?tipo=DOCUMENTOS`;
    await expect(page).toHaveURL(new RegExp(`${kindPath.replace('?', '\\?')}$`));
    const list = page.locator('[data-live-region="pendencias"]');
    const item = list.locator('li', { hasText: `Proposta nº ${nrProposta}: enviar documentos` });
    await expect(item).toContainText(/Prazo suspenso desde \d{2}\/\d{2}\/\d{4}: aguarda documentos \(restam 25 dias\)/);
    await expect(item).toContainText('Nova');

    // Its link does it: the proposal's upload page.
    await item.getByRole('link', { name: 'Enviar documentos' }).click();
    await expect(page).toHaveURL(new RegExp(`/documentos/envio\\?proposta=${nrProposta}$`));
    await expect(page.getByTestId('envio-situacao')).toHaveText('Aguardando documentos');

    // Marked read (a form post, no script needed): still listed, no longer new, and the bell drops.
    await page.goto(kindPath);
    await expect.poll(() => bellCount(page)).toBe(before);
    await page
      .locator('li', { hasText: `Proposta nº ${nrProposta}: enviar documentos` })
      .getByRole('button', { name: /^Marcar como lida/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`${kindPath.replace('?', '\\?')}$`));
    const read = page.locator('[data-live-region="pendencias"] li', { hasText: `Proposta nº ${nrProposta}: enviar documentos` });
    await expect(read).toBeVisible();
    await expect(read).not.toContainText('Nova');
    await expect.poll(() => bellCount(page)).toBe(before - 1);
    // The home shows it among the most urgent, read (the read mark dropped the home's memo).
    await page.goto(generation === 'v2' ? '/v2/home' : '/home');
    expect(await bellCount(page)).toBe(before - 1);
    await expect(page.locator('[data-live-region="pendencias"]')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Ver todas as pendências' })).toHaveAttribute('href', worklistPath);
    await page.context().close();
  });
}

test('the refunds to pay say their planned day in plain pt-BR (issue 42: "prevista para em 9 dias")', async ({ browser }) => {
  const page = await pageAs(browser, ACCOUNTS.insurerAdmin);
  await page.goto('/v2/pendencias?tipo=RESTITUICAO');
  const deadlines = page.locator('[data-live-region="pendencias"] li .worklist-deadline');
  await expect(deadlines.first()).toBeVisible();
  for (const text of await deadlines.allTextContents())
    expect(text.trim()).toMatch(/^(a pagar (hoje|em \d+ dias?)|atrasada há \d+ dias?) \(\d{2}\/\d{2}\/\d{4}\)$/);
  await page.context().close();
});
