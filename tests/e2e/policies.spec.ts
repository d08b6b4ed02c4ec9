import { expect } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, openDrawer, signIn } from './helpers';
import { sellResidential } from './selling';
import { withDemoYearServer, ownPort } from './own-server';

/**
 * Issue 13, Apólices in both generations as a partner uses them: from the menu to the list, a
 * filter, a bad filter told in pt-BR, the policy's page with coverages and installments; another
 * viewer's policy is a 404, never a hint that it exists.
 */

test('v2: the partner finds the policy of the life proposal in Apólices and opens it', async ({ page }) => {
  await signIn(page, ACCOUNTS.partner);
  const drawer = await openDrawer(page);
  await drawer.getByRole('button', { name: 'Meus Clientes' }).click();
  await drawer.getByRole('link', { name: 'Apólices', exact: true }).click();
  await expect(page).toHaveURL(/\/v2\/apolices$/);
  await expect(page.getByRole('table').getByRole('row').first()).toBeVisible();
  // The journeys before this one sold more than a page of policies: the insured is found by name.
  await page.getByLabel('Segurado (nome ou CPF/CNPJ)').fill('Rafael Nogueira');
  await page.getByRole('button', { name: 'Filtrar' }).click();
  const row = page.getByRole('row').filter({ hasText: 'Rafael Nogueira Pinto' });
  await expect(row).toContainText('Vida');
  await expect(row).toContainText('Vigente');
  await expect(row).toContainText('***.926.457-**');

  await page.getByLabel('Segurado (nome ou CPF/CNPJ)').fill('ab');
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page.getByText('Informe o CPF/CNPJ ou ao menos uma palavra do nome do segurado com 3 letras ou mais.')).toBeVisible();
  await page.getByLabel('Segurado (nome ou CPF/CNPJ)').fill('381.926.457-46');
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page).toHaveURL(/segurado=381.926.457-46/);
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(2); // the header and the policy

  const nrApolice = (await page.getByRole('table').getByRole('link').first().textContent())!.trim();
  await page.getByRole('link', { name: nrApolice }).click();
  await expect(page).toHaveURL(new RegExp(`/v2/apolices/${nrApolice}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(nrApolice);
  await expect(page.getByRole('heading', { name: 'Coberturas' })).toBeVisible();
  // One installment, open — or paid, when the payments journey ran first on this server.
  await expect(page.getByTestId('parcelas').getByRole('row')).toHaveCount(2);
  await expect(page.getByTestId('parcelas')).toContainText(/Em aberto|Paga em/);
  await expect(page.getByText('Morte por qualquer causa')).toBeVisible();

  // The partner admin of the company sees it too; a number nobody's scope holds is the 404 page.
  const other = await (await page.context().browser()!.newContext()).newPage();
  await signIn(other, ACCOUNTS.partnerAdmin);
  await other.goto(`/v2/apolices/${nrApolice}`);
  await expect(other.getByRole('heading', { level: 1 })).toContainText(nrApolice);
  await other.goto('/v2/apolices/139120260999999');
  await expect(other.getByText('Desculpe, esta página não está disponível.')).toBeVisible();
});

test('legacy: the seller sells a residential proposal, accepted at once, finds its policy in /apolices, and how to pay it', async ({
  page,
}) => {
  await signIn(page, ACCOUNTS.legacySeller);
  await sellResidential(page, { generation: 'v1', method: 'Pix (à vista)' });
  await expect(page.getByTestId('situacao-proposta')).toHaveText('Aceita');
  const nrApolice = (await page.getByTestId('nr-apolice').textContent())!.trim();

  await page.goto('/apolices');
  await page.getByLabel('Número da apólice').fill(nrApolice);
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await page.getByRole('link', { name: nrApolice }).click();
  await expect(page).toHaveURL(new RegExp(`/apolices/${nrApolice}$`));
  await expect(page.getByTestId('nr-apolice')).toHaveText(nrApolice);
  await expect(page.getByTestId('parcelas').getByRole('row')).not.toHaveCount(1);
  // Issue 27 item 5: he sees the open installment, so he sees how to pay it — the Pix and the boleto
  // PDF (vendedor@legado.demo holds no CLIENTES_CONSULTA_PAGAMENTO; the insured is told he has them).
  const charge = page.getByTestId('cobranca-1');
  await expect(charge.getByRole('img', { name: 'QR code Pix da parcela 1' })).toBeVisible();
  await expect(page.getByTestId('pix-1')).toHaveText(/^000201.*6304[0-9A-F]{4}$/);
  await expect(page.getByTestId('linha-1')).toHaveText(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
  const href = (await page.getByTestId('boleto-pdf-1').getAttribute('href'))!;
  expect(href).toBe(`/relatorios/boleto/apolice/${nrApolice}?parcela=1`);
  const pdf = await page.request.get(href);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  // A v2 policy is not the legacy seller's: the same 404 as a number that does not exist.
  await page.goto(`/apolices/1391${new Date().getFullYear()}0000001`);
  await expect(page.getByText('Desculpe, esta página não está disponível.')).toBeVisible();
});

/**
 * Issue 29: the policies lists read keyset pages (decision 065). A person pages as before — Próxima,
 * Anterior, a page's number, the last one — while each link carries a cursor naming where its page
 * starts; the same page comes back row for row, and a bad cursor in the address is ignored. On a
 * server of its own holding the demo year (~110 policies: several pages in both generations).
 */
test.describe('paging the policies', () => {
  withDemoYearServer(ownPort('policies'));

  for (const [generation, account, base] of [
    ['v2', ACCOUNTS.insurerAdmin, '/v2/apolices'],
    ['legacy', ACCOUNTS.legacySupport, '/apolices'],
  ] as const) {
    test(`${generation}: the insurer pages through every policy, forth, back and to the last page`, async ({ page }) => {
      // The first request opens the database and seeds the demo year: it may take a while.
      test.setTimeout(180_000);
      await signIn(page, account);
      await page.goto(base);
      const pagination = page.getByRole('navigation', { name: 'Paginação: apólices' });
      const status = pagination.getByText(/^Página \d+/);
      await expect(status).toHaveText(/^Página 1 de (\d+)$/);
      const pages = Number((await status.textContent())!.match(/de (\d+)/)![1]);
      expect(pages).toBeGreaterThan(2);
      const numbers = () => page.getByRole('table').getByRole('link').allTextContents();
      const first = await numbers();

      await pagination.getByRole('link', { name: 'Próxima' }).click();
      await expect(status).toHaveText(`Página 2 de ${pages}`);
      await expect(page).toHaveURL(/[?&]page=2&cursor=[\w-]+/);
      const second = await numbers();
      expect(second.some((nr) => first.includes(nr))).toBe(false);

      await pagination.getByRole('link', { name: 'Anterior' }).click();
      await expect(status).toHaveText(`Página 1 de ${pages}`);
      expect(await numbers()).toEqual(first);

      await pagination.getByRole('link', { name: `Página ${pages}` }).click();
      await expect(status).toHaveText(`Página ${pages} de ${pages}`);
      await expect(page.getByRole('table').getByRole('link').first()).toBeVisible();
      await expect(pagination.getByRole('link', { name: 'Próxima' })).toHaveCount(0);

      // An address with a cursor nobody gave reads its page by the number alone, not an error.
      await page.goto(`${base}?page=2&cursor=bm90LWEtY3Vyc29y`);
      await expect(status).toHaveText(`Página 2 de ${pages}`);
      expect(await numbers()).toEqual(second);
    });
  }
});
