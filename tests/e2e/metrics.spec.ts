import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, signIn } from './helpers';

/**
 * Issue 15, sales metrics and targets as partners and the insurer read them (decision 043): the
 * charts are SVG images with a title and a description, each followed by the same figures as a
 * table; a target set with the page's plain form shows as the month's attainment; bad input is a
 * pt-BR message and nothing is stored; the pages ship no JavaScript but the shell's, and print
 * without the shell. Screenshots at 1366 and 390 px under test-results/metrics-screens.
 */
const SHOTS = join('test-results', 'metrics-screens');
const HORIZONTE = '11222333000181';
const VALE_VERDE = '33444555000181';
const cents = (text: string) => Math.round(Number(text.replace(/[^\d,]/g, '').replace(',', '.')) * 100);

async function expectChart(page: Page, id: string, title: RegExp) {
  const chart = page.getByTestId(`grafico-${id}`);
  await expect(chart).toHaveAttribute('role', 'img');
  // The accessible name is the title with the description in words (aria-labelledby).
  await expect(chart).toHaveAccessibleName(title);
  expect((await chart.locator('desc').textContent())!.length).toBeGreaterThan(20);
  return chart;
}

/** Islands of the page: the shell's only (the same as on a list page with none of its own). */
async function islandsOf(page: Page): Promise<string[]> {
  return page.locator('astro-island').evaluateAll((islands) => islands.map((i) => i.getAttribute('component-url') ?? ''));
}

test('v2: the evolution of sales as a chart and as its table, filtered by product, with the shell’s JavaScript only', async ({ page }) => {
  await signIn(page, ACCOUNTS.partnerAdmin);
  await page.goto('/v2/apolices');
  const shellIslands = await islandsOf(page);

  await page.goto('/v2/metricas/evolucao-vendas');
  await expect(page.getByRole('heading', { level: 1, name: 'Evolução de vendas' })).toBeVisible();
  const chart = await expectChart(page, 'premio-mensal', /Prêmio emitido por mês/);
  await expect(chart.locator('rect.bar')).toHaveCount(12);
  const rows = page.getByTestId('tabela-mensal').locator('tbody tr');
  await expect(rows).toHaveCount(12);
  // The description says each month's premium as the table does: the latest month, figure for figure.
  const latest = await rows.last().locator('td').first().textContent();
  expect(await chart.locator('desc').textContent()).toContain(`: ${latest!.trim()}`);
  // The totals add up the table.
  const premiums = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelector('td')!.textContent ?? ''));
  expect(cents((await page.getByTestId('total-premio').textContent())!)).toBe(premiums.reduce((sum, t) => sum + cents(t), 0));
  await expectChart(page, 'funil', /Funil de conversão/);
  await expect(page.getByTestId('tabela-funil').locator('tbody tr')).toHaveCount(4);
  expect(await islandsOf(page)).toEqual(shellIslands);

  // Filtering by Vida keeps to life policies: every product row left is Vida.
  await page.getByLabel('Produto', { exact: true }).selectOption('VEU');
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page).toHaveURL(/produto=VEU/);
  const products = page.getByTestId('tabela-produtos').locator('tbody th');
  for (const name of await products.allTextContents()) expect(name).toBe('Vida');
  await expect(page.getByLabel('Produto', { exact: true })).toHaveValue('VEU');

  mkdirSync(SHOTS, { recursive: true });
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/v2/metricas/evolucao-vendas');
    await page.screenshot({ path: join(SHOTS, `evolucao-${width}.png`), fullPage: true });
  }
  // Printed, the page is its content: the shell's header is not there.
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('.portal-header')).toBeHidden();
  await expect(chart).toBeVisible();
});

test('v2: the partner admin sets a target and sees the month’s attainment; a bad target stores nothing', async ({ page }) => {
  await signIn(page, ACCOUNTS.partnerAdmin);
  await page.goto('/v2/apolices');
  const shellIslands = await islandsOf(page);
  await page.goto(`/v2/metricas/atingimento-meta?empresa=${HORIZONTE}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Atingimento de meta' })).toBeVisible();
  await expectChart(page, 'meta-mensal', /Vendido e meta por mês/);
  // The target form is a plain form: the page ships the shell's JavaScript only.
  expect(await islandsOf(page)).toEqual(shellIslands);
  const sold = cents((await page.getByTestId('vendido').textContent())!);

  const form = page.getByTestId('form-meta');
  await form.getByLabel('Aplica-se a').selectOption({ label: 'Horizonte Seguros' });
  await form.getByLabel('Meta de prêmio (R$)').fill('-5');
  await form.getByRole('button', { name: 'Salvar meta' }).click();
  await expect(form.getByText('A meta não pode ser negativa.')).toBeVisible();
  await expect(form.getByLabel('Meta de prêmio (R$)')).toHaveValue('-5');
  await expect(form.getByLabel('Aplica-se a')).toHaveValue(`empresa:${HORIZONTE}`);
  await expect(page.getByTestId('meta')).toHaveText('sem meta');

  await form.getByLabel('Meta de prêmio (R$)').fill('R$ 1.000,00');
  await form.getByRole('button', { name: 'Salvar meta' }).click();
  await expect(page.getByTestId('meta-salva')).toHaveText('Meta salva.');
  await expect(page).toHaveURL(new RegExp(`empresa=${HORIZONTE}.*meta=salva`));
  await expect(page.getByTestId('meta')).toHaveText('R$ 1.000,00');
  const expected = `${(Math.round((sold / 1_000_00) * 1000) / 10).toLocaleString('pt-BR')} %`;
  await expect(page.getByTestId('atingimento')).toHaveText(expected);
  // The table's current month says the same.
  const current = page.getByTestId('tabela-meta').locator('tbody tr').last();
  await expect(current.locator('td').first()).toHaveText('R$ 1.000,00');
  await expect(current.locator('td').last()).toHaveText(expected);

  mkdirSync(SHOTS, { recursive: true });
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/v2/metricas/atingimento-meta?empresa=${HORIZONTE}`);
    await page.screenshot({ path: join(SHOTS, `atingimento-${width}.png`), fullPage: true });
  }
});

test('v2: a seller with METRICAS reads the attainment without the target form; another company is a filter error', async ({ page }) => {
  await signIn(page, ACCOUNTS.partner);
  await page.goto('/v2/metricas/atingimento-meta?ranking=vendedores');
  await expect(page.getByTestId('ranking')).toBeVisible();
  await expect(page.getByTestId('form-meta')).toHaveCount(0);
  const response = await page.goto(`/v2/metricas/evolucao-vendas?empresa=${VALE_VERDE}`);
  expect(response!.status()).toBe(400);
  await expect(page.getByText('Empresa inválida: escolha uma das suas empresas.')).toBeVisible();
  // A target posted by hand is refused, and nothing is stored.
  const posted = await page.request.post('/v2/metricas/atingimento-meta', {
    form: { alvo: `empresa:${HORIZONTE}`, mes: '2026-11', valor: '9.999,00' },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(posted.status()).toBe(403);
  expect(await posted.text()).not.toContain('R$ 9.999,00');
});

test('legacy: the seller’s group reads both metrics pages of its company', async ({ page }) => {
  await signIn(page, ACCOUNTS.legacySeller);
  await page.goto('/apolices');
  const shellIslands = await islandsOf(page);
  await page.goto('/evolucao-vendas');
  await expectChart(page, 'premio-mensal', /Prêmio emitido por mês/);
  await expect(page.getByTestId('tabela-mensal').locator('tbody tr')).toHaveCount(12);
  expect(await islandsOf(page)).toEqual(shellIslands);
  await page.goto('/atingir-meta');
  await expectChart(page, 'meta-mensal', /Vendido e meta por mês/);
  expect(await islandsOf(page)).toEqual(shellIslands);
  await expect(page.getByTestId('form-meta')).toHaveCount(0);
  const bad = await page.goto('/atingir-meta?mes=2030-01');
  expect(bad!.status()).toBe(400);
  await expect(page.getByText(/Mês inválido/)).toBeVisible();
});

/**
 * The size each chart's visible text is drawn at (its font size times the SVG's scale on screen),
 * keyed by chart — a text cut by the drawing's edge as 0; what a phone shows must be readable: at
 * least 12 px (issue 27 item 12).
 */
async function chartTextSizes(page: Page): Promise<Record<string, number>> {
  return page.locator('svg[role="img"]').evaluateAll((svgs) => {
    const sizes: Record<string, number> = {};
    for (const svg of svgs as SVGSVGElement[]) {
      if (!svg.checkVisibility()) continue;
      const scale = svg.getScreenCTM()!.a;
      const drawn = [...svg.querySelectorAll('text')]
        .filter((t) => t.checkVisibility())
        .map((t) => Number.parseFloat(getComputedStyle(t).fontSize) * scale);
      sizes[svg.dataset.testid ?? '?'] = Math.round(Math.min(...drawn) * 10) / 10;
      // A text cut by the drawing's edge counts as unreadable too.
      const { width } = svg.viewBox.baseVal;
      const cut = [...svg.querySelectorAll('text')].filter((t) => {
        if (!t.checkVisibility()) return false;
        const box = t.getBBox();
        return box.x < 0 || box.x + box.width > width;
      });
      if (cut.length > 0) sizes[`${svg.dataset.testid} cortado: ${cut.map((t) => t.textContent).join(', ')}`] = 0;
    }
    return sizes;
  });
}

test('at 390 px every chart of both metrics pages, in both generations, draws its text at 12 px or more', async ({ browser }) => {
  const pages = [
    { account: ACCOUNTS.partnerAdmin, paths: ['/v2/metricas/evolucao-vendas', `/v2/metricas/atingimento-meta?empresa=${HORIZONTE}`] },
    { account: ACCOUNTS.legacySeller, paths: ['/evolucao-vendas', '/atingir-meta'] },
  ];
  for (const { account, paths } of pages) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signIn(page, account);
    for (const path of paths) {
      await page.goto(path);
      const sizes = await chartTextSizes(page);
      expect(Object.keys(sizes).length, path).toBeGreaterThan(0);
      for (const [chart, size] of Object.entries(sizes)) expect(size, `${path} ${chart}`).toBeGreaterThanOrEqual(12);
      // Nothing scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
    }
    await context.close();
  }
});

/**
 * Saving a target took 1.1 s from the click to "Meta salva." (issue 27 item 12). Measured here: the
 * server answers the POST in 20–110 ms and the page after it in 50–135 ms; 0.7–1.2 s went into the
 * page's smooth scrolling (open-props' normalize sets `scroll-behavior: smooth`): bringing the form's
 * button into view animated before the click could land. The page scrolls at once now.
 */
for (const { generation, account, path } of [
  { generation: 'v2', account: ACCOUNTS.partnerAdmin, path: `/v2/metricas/atingimento-meta?empresa=${HORIZONTE}` },
  { generation: 'legacy', account: ACCOUNTS.legacySupport, path: '/atingir-meta' },
] as const) {
  test(`${generation}: saving a target, the click lands at once (no scroll animation) and the page answers`, async ({ page }) => {
    await signIn(page, account);
    await page.goto(path);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe('auto');
    const form = page.getByTestId('form-meta');
    await form.getByLabel('Aplica-se a').selectOption({ label: 'Horizonte Seguros' });
    await form.getByLabel('Meta de prêmio (R$)').fill('R$ 2.500,00');
    // A person clicks once the page has settled: the shell's island hydrating keeps the browser busy
    // for a few hundred ms after load, which a click sent at once would wait behind.
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 2_000 })));
    // When the form is sent, by the page's own clock (the same machine's).
    const submitted = new Promise<number>((resolve) =>
      page.on('console', (message) => {
        const match = /^enviado (\d+)$/.exec(message.text());
        if (match) resolve(Number(match[1]));
      }),
    );
    await page.evaluate(() => addEventListener('submit', () => console.log(`enviado ${Date.now()}`)));
    const started = Date.now();
    await form.getByRole('button', { name: 'Salvar meta' }).click();
    await expect(page.getByTestId('meta-salva')).toHaveText('Meta salva.');
    const took = Date.now() - started;
    const untilSent = (await submitted) - started;
    console.log(`${generation}: da clicada ao envio ${untilSent} ms, a "Meta salva." ${took} ms`);
    // The scroll took 0.7–1.2 s before the form was sent; now the click lands at once. The rest is
    // the two requests and the new page (1.7–1.9 s in all before, 0.8–1.4 s after on this shared
    // 2-core machine; the server's part is 70–250 ms of it).
    expect(untilSent).toBeLessThan(500);
    expect(took).toBeLessThan(3_000);
  });
}
