import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { productFor } from '../../src/lib/products/catalog';
import { pdfText } from '../fixtures/pdf';
import { ACCOUNTS, screenshotsAt, signIn } from './helpers';
import { answer, cpfFor, fillInsured } from './selling';

/**
 * The embedded issuance applications (issue 18, SPEC §2/§4/§7/§9, decision 054): a legacy seller
 * opens each of the three entries, sells in two of them through the same quote and proposal
 * endpoints as the legacy simulators (the quote then in /historico, its PDF), and the single-spa
 * lifecycle is seen in the container's data-app-status: mount, unmount, load error and retry, broken.
 */

const status = (page: Page) => page.locator('[data-embedded-app]');
const bundle = (app: string) => `**/mf/${app}/static/js/bundle.js*`;

async function mounted(page: Page) {
  await expect(status(page)).toHaveAttribute('data-app-status', 'MOUNTED');
}

/** Fills every step from the catalog's questions, as the legacy selling journeys do; answers the numbers. */
async function sell(page: Page, code: string, base: string): Promise<{ nrCotacao: string; nrProposta: string }> {
  const product = productFor(code)!;
  await mounted(page);
  await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
  await fillInsured(page, product, { cpf: cpfFor(Date.now()) });
  for (const question of product.cadastroQuestions) await answer(page, question);
  await page.getByRole('button', { name: 'Salvar cotação e continuar' }).click();

  if (product.riskQuestions.length > 0) {
    await expect(page).toHaveURL(new RegExp(`${base}/cotacao/\\d+/risco$`));
    await mounted(page);
    for (const question of product.riskQuestions) await answer(page, question);
    await page.getByRole('button', { name: 'Continuar' }).click();
  }
  await expect(page).toHaveURL(new RegExp(`${base}/cotacao/\\d+/planos$`));
  await mounted(page);
  const nrCotacao = (await page.getByTestId('nr-cotacao').textContent())!.trim();
  await page.getByRole('button', { name: `Escolher ${product.plans[0]!.name}`, exact: true }).click();

  await expect(page).toHaveURL(`${base}/cotacao/${nrCotacao}/contratacao`);
  await mounted(page);
  await page.getByRole('radio', { name: 'Boleto bancário' }).check();
  await page.getByRole('button', { name: 'Continuar' }).click();

  await expect(page).toHaveURL(`${base}/cotacao/${nrCotacao}/resumo`);
  await mounted(page);
  // The simulator pages' own summary: the premium with IOF, and the remuneration disclosed (CNSP 382/2020).
  await expect(page.getByRole('link', { name: 'Baixar a cotação em PDF' })).toHaveAttribute('href', `/relatorios/cotacao/${nrCotacao}`);
  await expect(page.getByTestId('premio-total')).toHaveText(/^R\$\s[\d.]+,\d{2}$/);
  await expect(page.getByTestId('remuneracao')).toContainText('Resolução CNSP nº 382/2020');
  await page.getByLabel('Li e aceito o termo de presente proposta.').check();
  await page.getByRole('button', { name: 'Enviar proposta' }).click();

  await expect(page).toHaveURL(`${base}/cotacao/${nrCotacao}/${product.finalStep}/visualizar`);
  await mounted(page);
  const nrProposta = (await page.getByTestId('nr-proposta').textContent())!.trim();
  expect(nrProposta).toMatch(/^\d{12}$/);
  return { nrCotacao, nrProposta };
}

async function inHistoryWithPdf(page: Page, { nrCotacao, nrProposta }: { nrCotacao: string; nrProposta: string }, base: string) {
  const pdf = await page.request.get(`/relatorios/proposta/${nrCotacao}`);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  const text = (await pdfText(new Uint8Array(await pdf.body()))).replace(/\s+/g, ' ');
  expect(text).toContain(nrProposta);
  // The product's SUSEP process and when the insurer received the proposal (decision 062).
  expect(text).toMatch(/Processo SUSEP 15414\.\d{6}\/\d{4}-\d{2}/);
  expect(text).toMatch(/Recebida pela seguradora em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
  await page.goto('/historico');
  const link = page.getByRole('link', { name: nrCotacao, exact: true });
  await expect(link).toHaveAttribute('href', new RegExp(`^${base}/cotacao/${nrCotacao}/`));
  await link.click();
  await mounted(page);
  await expect(page.getByTestId('nr-proposta')).toHaveText(nrProposta);
}

test.beforeEach(async ({ page }) => {
  await signIn(page, ACCOUNTS.legacySeller);
});

test('life (emissao-vida): the simulator start, then the app, from cadastro to the proposal; the quote in /historico and its PDF', async ({
  page,
}) => {
  const started = page.waitForResponse((r) => r.url().endsWith('/api/plataforma/v1/simuladores/iniciar') && r.status() === 200);
  // The legacy home lists the offer; 'Simular' leads to the app's entry.
  await page.getByRole('link', { name: 'Simular Vida Essencial', exact: true }).click();
  await expect(page).toHaveURL('/emissao/cotacao/vida/nova-cotacao');
  expect((await (await started).json()).resultado.nrOferta).toBeGreaterThan(0);
  const sold = await sell(page, 'VE', '/emissao/cotacao/vida');
  await inHistoryWithPdf(page, sold, '/emissao/cotacao/vida');
});

test('business (emissao-cotacao): iniciar/empresarial starts a business session, sells, and the consultation lists the quote', async ({
  page,
}) => {
  await page.goto('/emissao/consulta-cotacao/iniciar/empresarial');
  const sold = await sell(page, 'EMP', '/emissao/consulta-cotacao');
  await inHistoryWithPdf(page, sold, '/emissao/consulta-cotacao');

  await page.goto('/emissao/consulta-cotacao');
  await mounted(page);
  // A new issuance of each product the seller may sell.
  await expect(page.getByRole('link', { name: /^Nova cotação: / })).toHaveCount(3);
  await page.getByLabel('Produto').selectOption({ label: 'Empresarial (antigo)' });
  await page.getByLabel('Número da cotação ou proposta').fill(sold.nrCotacao);
  await page.getByRole('button', { name: 'Filtrar' }).click();
  // The filters live in the address: a reload and Back keep them.
  await expect(page).toHaveURL(`/emissao/consulta-cotacao?simulador=EMP&status=&numero=${sold.nrCotacao}`);
  await page.reload();
  await mounted(page);
  await expect(page.getByLabel('Produto')).toHaveValue('EMP');
  const row = page.getByRole('row').filter({ hasText: sold.nrCotacao });
  await expect(page.getByRole('row')).toHaveCount(2); // the header and the quote
  await expect(row).toContainText('Proposta em análise');
  // Its 25-day acceptance clock, as /historico and the proposal's own page count it.
  await expect(row).toContainText(/Aceite em até 25 dias \(até \d{2}\/\d{2}\/\d{4}\)/);
  await screenshotsAt(page, 'emissao', 'consulta-prazo-aceite');
  await row.getByRole('link', { name: 'Ver' }).click();
  await mounted(page);
  await expect(page.getByTestId('nr-proposta')).toHaveText(sold.nrProposta);
  await expect(page.getByTestId('prazo-aceite')).toContainText(/^Aceite em até 25 dias \(até \d{2}\/\d{2}\/\d{4}\)/);
  await page.goBack();
  await mounted(page);
  await expect(page.getByLabel('Número da cotação ou proposta')).toHaveValue(sold.nrCotacao);
  await expect(row).toBeVisible();

  // Issue 27: a page past the last shows the last, one that is no number the first (lib/list-query.ts).
  for (const paged of ['page=999', 'page=abc']) {
    await page.goto(`/emissao/consulta-cotacao?simulador=EMP&numero=${sold.nrCotacao}&${paged}`);
    await mounted(page);
    await expect(row).toBeVisible();
  }
  await expect(page.getByText('Nenhuma cotação encontrada.')).toHaveCount(0);

  // A number that is not one says so under its field.
  await page.goto('/emissao/consulta-cotacao?numero=abc');
  await mounted(page);
  await expect(page.getByLabel('Número da cotação ou proposta')).toHaveAccessibleDescription(
    'Informe só os números da cotação ou da proposta (até 20 dígitos).',
  );
});

test('personal items (emissao-itens-pessoais) opens its cadastro; its own not-found page leads to /', async ({ page }) => {
  await page.goto('/emissao/itens-pessoais/iniciar/itens-pessoais');
  await mounted(page);
  await expect(page.getByRole('heading', { level: 1, name: productFor('IP')!.name })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Salvar cotação e continuar' })).toBeVisible();

  // The app's own not-found page is a 404 for whoever asks (issue 27), not a 200 that says so.
  const missing = await page.goto('/emissao/itens-pessoais/nao-existe');
  expect(missing?.status()).toBe(404);
  await mounted(page);
  const notFound = page.getByTestId('app-not-found');
  await expect(notFound.getByRole('img', { name: 'Erro 404' })).toBeVisible();
  await expect(notFound.getByRole('heading', { name: 'Desculpe, esta página não está disponível.' })).toBeVisible();
  await expect(notFound.getByRole('link', { name: 'Página inicial' })).toHaveAttribute('href', '/');
});

test('every app answers 404 for an address it does not know, 200 for its entries and steps (issue 27)', async ({ page }) => {
  const status = async (path: string) => (await page.request.get(path, { maxRedirects: 0 })).status();
  for (const path of [
    '/emissao/consulta-cotacao/nao-existe',
    '/emissao/consulta-cotacao/cotacao/abc/planos',
    '/emissao/itens-pessoais/cotacao/1/planos/apagar',
    '/emissao/cotacao/vida/nova-cotacao/mais',
  ])
    expect(await status(path), path).toBe(404);
  for (const path of [
    '/emissao/consulta-cotacao',
    '/emissao/consulta-cotacao/iniciar/empresarial',
    '/emissao/itens-pessoais/iniciar/itens-pessoais',
    '/emissao/cotacao/vida/nova-cotacao',
    '/emissao/cotacao/vida/cotacao/1/planos/editar',
  ])
    expect(await status(path), path).toBe(200);
  // The consultation's personal-items entry belongs to the personal-items app: the server sends it there.
  const moved = await page.request.get('/emissao/consulta-cotacao/iniciar/itens-pessoais', { maxRedirects: 0 });
  expect(moved.status()).toBe(302);
  expect(moved.headers().location).toBe('/emissao/itens-pessoais/iniciar/itens-pessoais');
});

test('navigating away unmounts the app and coming back mounts it again; the page ships no app code until its route is active', async ({
  page,
}) => {
  const bundles: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/mf/')) bundles.push(new URL(r.url()).pathname);
  });
  await page.goto('/emissao/consulta-cotacao');
  await mounted(page);
  await expect(page.getByRole('heading', { name: 'Consulta de cotações' })).toBeVisible();
  expect(bundles).toEqual(['/mf/emissao-cotacao/static/js/bundle.js']);

  // single-spa follows the history API: leaving the app's path unmounts it, going back mounts it.
  await page.evaluate(() => window.history.pushState(null, '', '/home'));
  await expect(status(page)).toHaveAttribute('data-app-status', 'NOT_MOUNTED');
  await expect(page.getByRole('heading', { name: 'Consulta de cotações' })).toHaveCount(0);
  await page.goBack();
  await mounted(page);
  await expect(page.getByRole('heading', { name: 'Consulta de cotações' })).toBeVisible();

  // A real visit elsewhere and back: the page registers and mounts the app again, once.
  await page.goto('/home');
  await page.goBack();
  await mounted(page);
  expect(await page.evaluate(() => document.querySelectorAll('.issuance-app').length)).toBe(1);
});

test('life is registered only after the simulator start answers nrOferta; without it nothing loads and the 5 s warning is logged', async ({
  page,
}) => {
  const bundles: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/mf/')) bundles.push(r.url());
  });
  await page.route('**/api/plataforma/v1/simuladores/iniciar', (route) =>
    route.fulfill({ status: 404, json: { status: 404, message: 'Não há oferta vigente deste produto para a sua empresa.' } }),
  );
  const warning = page.waitForEvent('console', {
    predicate: (m) => m.type() === 'warning' && m.text().includes('não foi iniciado'),
    timeout: 9000,
  });
  await page.goto('/emissao/cotacao/vida/nova-cotacao');
  await expect(page.getByRole('alert')).toContainText('Não foi possível iniciar a emissão: Não há oferta vigente');
  await expect(status(page)).toHaveAttribute('data-app-status', 'NOT_REGISTERED');
  expect((await warning).text()).toContain('5 s');
  expect(bundles).toEqual([]);
});

test('a bundle that fails to load shows a retry; "Tentar novamente" loads a new address once the request is allowed', async ({ page }) => {
  let blocked = true;
  const asked: string[] = [];
  await page.route(bundle('emissao-itens-pessoais'), (route) => {
    asked.push(route.request().url());
    return blocked ? route.abort('failed') : route.continue();
  });
  await page.goto('/emissao/itens-pessoais/iniciar/itens-pessoais');
  await expect(status(page)).toHaveAttribute('data-app-status', 'LOAD_ERROR');
  await expect(page.getByRole('alert')).toContainText('Não foi possível carregar a aplicação Itens Pessoais');

  blocked = false;
  await page.getByRole('button', { name: 'Tentar novamente' }).click();
  await mounted(page);
  await expect(page.getByRole('button', { name: 'Salvar cotação e continuar' })).toBeVisible();
  await expect(page.getByText('Não foi possível carregar a aplicação')).toHaveCount(0);
  // The browser keeps a failed import: the retry asked for a new address.
  expect(asked.at(-1)).toMatch(/bundle\.js\?retry=1$/);
});

test('an app that throws on mount is marked broken and reported; the header and the menu still work', async ({ page }) => {
  // Test-only: a bundle whose mount throws, served in place of the real one.
  await page.route(bundle('emissao-vida'), (route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body: [
        'export async function bootstrap() {}',
        "export async function mount() { throw new Error('falha de teste ao montar'); }",
        'export async function unmount() {}',
      ].join('\n'),
    }),
  );
  const report = page.waitForRequest((r) => r.url().endsWith('/api/plataforma/v1/aplicacoes/erros') && r.method() === 'POST');
  await page.goto('/emissao/cotacao/vida/nova-cotacao');
  await expect(status(page)).toHaveAttribute('data-app-status', 'SKIP_BECAUSE_BROKEN');
  await expect(page.getByRole('alert')).toContainText('A aplicação Vida Essencial encontrou um erro');
  const body = (await report).postDataJSON();
  expect(body).toMatchObject({ app: 'emissao-vida', status: 'SKIP_BECAUSE_BROKEN' });
  expect(body.mensagem).toContain('falha de teste ao montar');

  await page.getByRole('button', { name: 'Abrir menu' }).click();
  await expect(page.getByRole('button', { name: 'Sair' })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('link', { name: 'Histórico', exact: true }).click();
  await expect(page).toHaveURL(/\/historico/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('an error while a mounted app renders is shown in its place and reported; the page keeps working', async ({ page }) => {
  // A quote answer the app cannot render (most of it missing): the host still finds its nrOferta.
  const nr = '2026999999';
  await page.route(`**/api/plataforma/v1/cotacoes/${nr}`, (route) =>
    route.fulfill({ json: { status: 'OK', resultado: { cotacao: { nrCotacao: nr, code: 'VE', nrOferta: 1, etapa: 'planos' } } } }),
  );
  const report = page.waitForRequest((r) => r.url().endsWith('/api/plataforma/v1/aplicacoes/erros'));
  await page.goto(`/emissao/cotacao/vida/cotacao/${nr}/planos`);
  const body = (await report).postDataJSON();
  expect(body).toMatchObject({ app: 'emissao-vida', status: 'MOUNTED' });
  expect(body.mensagem.length).toBeGreaterThan(0);
  await expect(status(page)).toHaveAttribute('data-app-status', 'MOUNTED');
  await expect(page.getByRole('alert')).toHaveText('A aplicação encontrou um erro. Recarregue a página ou tente mais tarde.');
  await page.getByRole('link', { name: 'Histórico', exact: true }).click();
  await expect(page).toHaveURL(/\/historico/);
});

test('the error report endpoint refuses bad input with a pt-BR 400', async ({ page }) => {
  const bad = await page.request.post('/api/plataforma/v1/aplicacoes/erros', {
    data: { app: 'outra', mensagem: '' },
    headers: { 'x-portal-session': 'cookie' },
  });
  expect(bad.status()).toBe(400);
  const answer = await bad.json();
  expect(answer.message).toBeTruthy();
  expect(JSON.stringify(answer)).not.toContain('at ');
  const good = await page.request.post('/api/plataforma/v1/aplicacoes/erros', {
    data: { app: 'emissao-vida', mensagem: 'teste' },
    headers: { 'x-portal-session': 'cookie' },
  });
  expect(good.status()).toBe(200);
});

for (const width of [1366, 390]) {
  test(`the embedded pages do not scroll sideways at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    for (const path of ['/emissao/consulta-cotacao', '/emissao/cotacao/vida/nova-cotacao', '/emissao/itens-pessoais/nao-existe']) {
      await page.goto(path);
      await mounted(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
      await page.screenshot({ path: test.info().outputPath(`${path.replace(/\W+/g, '-')}-${width}.png`), fullPage: true });
    }
  });
}

test('the embedded pages have no serious accessibility problem (axe)', async ({ page }) => {
  for (const path of ['/emissao/consulta-cotacao', '/emissao/itens-pessoais/iniciar/itens-pessoais', '/emissao/cotacao/vida/nao-existe']) {
    await page.goto(path);
    await mounted(page);
    const { violations } = await new AxeBuilder({ page }).analyze();
    const serious = violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')} — ${v.help}`);
    expect(serious, path).toEqual([]);
  }
});
