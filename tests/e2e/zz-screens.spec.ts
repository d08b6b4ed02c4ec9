import { test } from '@playwright/test';
import { ACCOUNTS, signIn, waitForIslands } from './helpers';

const isoPlus = (days: number) => new Date(Date.now() - 3 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
test('screens', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, ACCOUNTS.partner);
  await page.goto('/v2/apolices?segurado=Fernanda');
  await page.getByRole('link', { name: /^\d{15}$/ }).first().click();
  await page.getByRole('link', { name: 'Endossos' }).click();
  await page.getByRole('link', { name: 'Cancelar apólice' }).click();
  await waitForIslands(page);
  await page.getByRole('radio', { name: 'O segurado' }).check();
  await page.getByLabel('Motivo', { exact: true }).selectOption({ label: 'Contratou outro seguro' });
  await page.getByLabel('Cancelar a partir de').fill(isoPlus(-5));
  await page.getByRole('button', { name: 'Continuar' }).click();
  for (const w of [1366, 390]) { await page.setViewportSize({ width: w, height: 900 }); await page.screenshot({ path: `/tmp/shots/motivo-${w}.png`, fullPage: true }); }
  await page.getByLabel('Cancelar a partir de').fill(isoPlus(40));
  await page.getByRole('button', { name: 'Continuar' }).click();
  await page.waitForURL(/coberturas/);
  await waitForIslands(page);
  await page.getByRole('radio', { name: 'Cancelar a apólice inteira' }).check();
  await page.getByRole('button', { name: 'Ver o resumo' }).click();
  await page.waitForURL(/resumo/);
  for (const w of [1366, 390]) { await page.setViewportSize({ width: w, height: 900 }); await page.screenshot({ path: `/tmp/shots/resumo-${w}.png`, fullPage: true }); }
  await page.getByRole('link', { name: 'Informar a conta da restituição' }).click();
  await waitForIslands(page);
  await page.getByLabel('Chave Pix').fill('fulano@gmail.com');
  await page.getByRole('button', { name: 'Agendar cancelamento' }).click();
  for (const w of [1366, 390]) { await page.setViewportSize({ width: w, height: 900 }); await page.screenshot({ path: `/tmp/shots/conta-${w}.png`, fullPage: true }); }
  await page.getByLabel('Chave Pix').fill('987.330.107-06');
  await page.getByRole('button', { name: 'Agendar cancelamento' }).click();
  await page.getByRole('button', { name: 'Sim, agendar' }).click();
  await page.waitForURL(/sucesso/);
  for (const w of [1366, 390]) { await page.setViewportSize({ width: w, height: 900 }); await page.screenshot({ path: `/tmp/shots/sucesso-${w}.png`, fullPage: true }); }
  await page.getByRole('link', { name: 'Ver a apólice' }).click();
  for (const w of [1366, 390]) { await page.setViewportSize({ width: w, height: 900 }); await page.screenshot({ path: `/tmp/shots/apolice-${w}.png`, fullPage: false }); }
  await page.getByRole('link', { name: 'Endossos' }).first().click();
  for (const w of [1366, 390]) { await page.setViewportSize({ width: w, height: 900 }); await page.screenshot({ path: `/tmp/shots/home-${w}.png`, fullPage: true }); }
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  console.log('sideways at 390:', sideways);
});
