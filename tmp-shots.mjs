import { chromium } from '@playwright/test';
const base = 'http://127.0.0.1:4432';
const year = new Date().getFullYear();
const policy = `1391${year}0000105`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
async function signedIn(email) {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1366, height: 900 }, locale: 'pt-BR' });
  const page = await context.newPage();
  await page.goto('/v2/login');
  await page.waitForFunction(() => !document.querySelector('astro-island[ssr]'));
  await page.getByRole('textbox', { name: 'Login' }).fill(email);
  await page.getByRole('textbox', { name: 'Senha' }).fill('Portal@2026');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(/\/v2\/home/, { timeout: 60000 });
  return page;
}
async function shoot(page, name) {
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `/tmp/pay-shots/${name}-${width}.png`, fullPage: true });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    console.log(name, width, wide ? 'SCROLLS SIDEWAYS' : 'ok');
  }
}
const partner = await signedIn('parceiro@parceiro.demo');
const admin = await signedIn('admin@seguradora.demo');
const other = `0114${year}0000106`;
await partner.goto(`/v2/apolices/${other}`);
const line3 = (await partner.getByTestId('linha-3').textContent()).trim();
const line4 = (await partner.getByTestId('linha-4').textContent()).trim();
await admin.goto('/banco-demonstracao');
await admin.waitForFunction(() => !document.querySelector('astro-island[ssr]'));
for (const [line, amount] of [[line3, '1,00'], [line4, '9.999,00']]) {
  await admin.getByLabel('Linha digitável ou Pix copia e cola').fill(line);
  await admin.getByLabel('Valor pago (R$)').fill(amount);
  await admin.getByRole('button', { name: 'Pagar' }).click();
  await admin.getByRole('status').waitFor();
  await admin.waitForTimeout(500);
}
await shoot(admin, 'banco');
await partner.goto(`/v2/apolices/${other}`);
await shoot(partner, 'apolice-outra');
await admin.goto('/v2/boleto/recebimentos');
await shoot(admin, 'recebimentos');
await browser.close();
