import { expect } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, signIn } from './helpers';
import { withDemoYearServer, ownPort } from './own-server';

/**
 * Issue 29: the payments report (/relatorio-pagamento) reads keyset pages (decision 065). The legacy
 * admin pages through a year of payments as before — Próxima, Anterior, the last page — while each
 * link keeps the period and carries a cursor naming where its page starts; the same page comes back
 * row for row, and a bad cursor in the address is ignored. On a server of its own holding the demo
 * year (its legacy payments fill several pages of ten).
 */
withDemoYearServer(ownPort('payments-report'));

/** The year up to today (a period of at most a year, as the report allows). */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const DE = day(-360);
const ATE = day(0);

test('the legacy admin pages through a year of payments, forth, back and to the last page, the period kept', async ({ page }) => {
  // The first request opens the database and seeds the demo year: it may take a while.
  test.setTimeout(180_000);
  await signIn(page, ACCOUNTS.legacyAdmin);
  await page.goto(`/relatorio-pagamento?de=${DE}&ate=${ATE}`);
  const pagination = page.getByRole('navigation', { name: 'Paginação: pagamentos' });
  const status = pagination.getByText(/^Página \d+/);
  await expect(status).toHaveText(/^Página 1 de (\d+)$/);
  const pages = Number((await status.textContent())!.match(/de (\d+)/)![1]);
  expect(pages).toBeGreaterThan(2);
  // The caption counts the period's payments (the totals' sum), whatever the page.
  const table = page.getByTestId('pagamentos');
  const caption = (await table.locator('caption').textContent())!.trim();
  expect(caption).toMatch(/^\d+ pagamentos$/);
  const rows = () => table.locator('tbody tr').allInnerTexts();
  const first = await rows();
  expect(first).toHaveLength(10);

  await pagination.getByRole('link', { name: 'Próxima' }).click();
  await expect(status).toHaveText(`Página 2 de ${pages}`);
  await expect(page).toHaveURL(new RegExp(`[?&]de=${DE}&ate=${ATE}&page=2&cursor=[\\w-]+$`));
  const second = await rows();
  expect(second.some((row) => first.includes(row))).toBe(false);
  await expect(table.locator('caption')).toHaveText(caption);

  await pagination.getByRole('link', { name: 'Anterior' }).click();
  await expect(status).toHaveText(`Página 1 de ${pages}`);
  expect(await rows()).toEqual(first);

  await pagination.getByRole('link', { name: `Página ${pages}` }).click();
  await expect(status).toHaveText(`Página ${pages} de ${pages}`);
  await expect(page).toHaveURL(new RegExp(`[?&]de=${DE}&ate=${ATE}&page=${pages}&cursor=[\\w-]+$`));
  expect((await rows()).length).toBeGreaterThan(0);
  await expect(pagination.getByRole('link', { name: 'Próxima' })).toHaveCount(0);
  // The period's form still shows the period paged.
  await expect(page.getByLabel('De')).toHaveValue(DE);
  await expect(page.getByLabel('Até')).toHaveValue(ATE);

  // An address with a cursor nobody gave reads its page by the number alone, not an error.
  const answer = await page.goto(`/relatorio-pagamento?de=${DE}&ate=${ATE}&page=2&cursor=bm90LWEtY3Vyc29y`);
  expect(answer!.status()).toBe(200);
  await expect(status).toHaveText(`Página 2 de ${pages}`);
  expect(await rows()).toEqual(second);
});
