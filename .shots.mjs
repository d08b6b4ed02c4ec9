// Screenshot helper (not committed): node .shots.mjs <base> <outdir> <generation> <email> <path>...
import { chromium } from '@playwright/test';
const [base, out, generation, email, ...paths] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
for (const width of [1366, 390]) {
  const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 }, locale: 'pt-BR' });
  const page = await context.newPage();
  await page.goto(`${base}${generation === 'v1' ? '/signin' : '/v2/login'}`);
  await page.waitForTimeout(1500);
  await page.getByLabel('Login', { exact: true }).fill(email);
  await page.getByLabel('Senha', { exact: true }).fill('Portal@2026');
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await page.waitForURL(/home/, { timeout: 20000 });
  for (const p of paths) {
    const r = await page.goto(`${base}${p}`);
    await page.waitForTimeout(800);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    const name = `${out}/${generation}${p.replace(/[^a-z0-9]+/gi, '_')}-${width}.png`;
    await page.screenshot({ path: name, fullPage: true });
    console.log(`${r?.status()} ${p} @${width}: overflow ${wide}px -> ${name}`);
  }
  await context.close();
}
await browser.close();
