import { chromium } from '@playwright/test';
const base = 'http://127.0.0.1:4421';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
const page = await browser.newPage({ locale: 'pt-BR' });
page.on('console', (m) => console.log('console', m.type(), m.text().slice(0, 300)));
page.on('pageerror', (e) => console.log('pageerror', e.message));
await page.goto(base + '/signin');
await page.waitForTimeout(1500);
await page.getByRole('textbox', { name: 'Login' }).fill('vendedor@legado.demo');
await page.getByLabel('Senha', { exact: true }).fill('Portal@2026');
await page.getByRole('button', { name: /entrar/i }).click();
await page.waitForURL('**/home');
for (const path of (process.argv[2] ?? '/emissao/cotacao/vida').split(',')) {
  await page.goto(base + path);
  await page.waitForTimeout(3000);
  console.log(path, await page.locator('[data-embedded-app]').getAttribute('data-app-status'));
  console.log((await page.locator('main').innerText()).slice(0, 600));
  await page.screenshot({ path: `/tmp/probe18/${path.replace(/\W+/g, '_')}.png`, fullPage: true });
}
await browser.close();
