import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, DEMO_PASSWORD, path, signIn, submitLogin, waitForIslands, type DemoAccount } from './helpers';
import { productFor } from '../../src/lib/products/catalog';
import { formatBRL } from '../../src/lib/products/money';
import { pdfText } from '../fixtures/pdf';
import { answer, cpfFor, fillInsured } from './selling';

/**
 * What a new partner met while selling (issue 11), each as the partner meets it in the browser:
 * Back right after the first save, a session that ends mid-form, a long option in a select, and
 * the messages and figures of planos, contratação, resumo and finalização.
 */

const GENERATIONS = [
  {
    name: 'v2',
    account: ACCOUNTS.partner,
    api: '/api/bff/v1',
    envelope: 'dado',
    login: '/v2/login',
    start: async (page: Page) => {
      await page.goto('/v2/home/ipu');
      await page.waitForURL(/\/v2\/simulador-itens-pessoais\/cadastro\/iniciar\/\d+$/);
    },
    base: '/v2/simulador-itens-pessoais',
    code: 'IPU',
  },
  {
    name: 'legacy',
    account: ACCOUNTS.legacySeller,
    api: '/api/plataforma/v1',
    envelope: 'resultado',
    login: '/signin',
    start: async (page: Page) => {
      await page.getByRole('link', { name: 'Simular Máquinas e Equipamentos', exact: true }).click();
      await page.waitForURL(/\/simulador-maquinas\/cadastro\?oferta=\d+$/);
    },
    base: '/simulador-maquinas',
    code: 'MU',
  },
] as const;

let seed = Date.now() % 800_000_000;
const nextCpf = () => {
  seed += 7_919;
  return cpfFor(seed);
};

/** The quotes of the history (API) whose insured has this CPF. */
async function quotesOf(page: Page, api: string, envelope: string, cpf: string): Promise<string[]> {
  const response = await page.request.get(`${api}/cotacoes?documento=${cpf}`, { headers: { 'x-portal-session': 'cookie' } });
  expect(response.status()).toBe(200);
  const body = await response.json();
  return (body[envelope].content as { nrCotacao: string }[]).map((row) => row.nrCotacao);
}

async function fillCadastro(page: Page, code: string, cpf: string) {
  const product = productFor(code)!;
  await waitForIslands(page);
  await fillInsured(page, product, { cpf });
  for (const question of product.cadastroQuestions) await answer(page, question);
}

for (const generation of GENERATIONS) {
  test(`${generation.name}: Back right after the first save leads to the saved quote's cadastro, and saving it again makes no second quote`, async ({
    page,
  }) => {
    const cpf = nextCpf();
    await signIn(page, generation.account);
    await generation.start(page);
    await fillCadastro(page, generation.code, cpf);
    await page.getByRole('button', { name: 'Salvar cotação e continuar' }).click();
    await expect(page).toHaveURL(new RegExp(`${generation.base}/risco/\\d+/editar$`));
    const nrCotacao = (await page.getByTestId('nr-cotacao').textContent())!.trim();

    await page.goBack();
    await expect(page).toHaveURL(path(`${generation.base}/cadastro/${nrCotacao}/editar`));
    await expect(page.getByTestId('nr-cotacao')).toHaveText(nrCotacao);
    await waitForIslands(page);
    await expect(page.getByLabel('Nome completo')).toHaveValue('Mariana Alves Pereira');
    await page.getByRole('button', { name: 'Salvar e continuar' }).click();
    await expect(page).toHaveURL(new RegExp(`${generation.base}/risco/${nrCotacao}/editar$`));
    expect(await quotesOf(page, generation.api, generation.envelope, cpf)).toEqual([nrCotacao]);
  });

  test(`${generation.name}: a session that ends mid-form says why, and the sign-in returns to the step with what was typed`, async ({
    page,
    context,
  }) => {
    await signIn(page, generation.account);
    await generation.start(page);
    const start = new URL(page.url());
    await fillCadastro(page, generation.code, nextCpf());
    await page.getByLabel('Nome completo').fill('Renata Campos Lopes');
    await page.getByLabel('Cidade').fill('Campinas');

    await context.clearCookies(); // the session ends (idle, revoked, signed out in another tab)
    await page.getByRole('button', { name: 'Salvar cotação e continuar' }).click();

    await expect(page).toHaveURL(path(generation.login, `next=${encodeURIComponent(start.pathname + start.search)}&sessao=expirada`));
    await expect(page.getByRole('status')).toHaveText('Sua sessão expirou. Entre novamente.');
    await waitForIslands(page);
    await submitLogin(page, generation.account.email, DEMO_PASSWORD);

    await expect(page).toHaveURL(path(start.pathname, start.search.slice(1) || undefined));
    await waitForIslands(page);
    await expect(page.getByText('Recuperamos os dados que você havia preenchido.')).toBeVisible();
    await expect(page.getByLabel('Nome completo')).toHaveValue('Renata Campos Lopes');
    await expect(page.getByLabel('Cidade')).toHaveValue('Campinas');
    await expect(page.getByLabel('UF', { exact: true })).toHaveValue('SP');
    // Restored once: a reload shows the blank start form again.
    expect(await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('portal:rascunho:')))).toEqual([]);
    await page.reload();
    await waitForIslands(page);
    await expect(page.getByLabel('Nome completo')).toHaveValue('');
    await expect(page.getByText('Recuperamos os dados que você havia preenchido.')).toHaveCount(0);
  });
}

test('with the back/forward cache on, Back to the start form still leads to the saved quote', async ({ playwright, baseURL }) => {
  // Playwright turns the cache off in its own browsers; a partner's Chromium has it on.
  const browser = await playwright.chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
  });
  try {
    const page = await (await browser.newContext({ baseURL, locale: 'pt-BR' })).newPage();
    const cpf = nextCpf();
    await signIn(page, ACCOUNTS.partner);
    await GENERATIONS[0].start(page);
    await fillCadastro(page, 'IPU', cpf);
    await page.getByRole('button', { name: 'Salvar cotação e continuar' }).click();
    await expect(page).toHaveURL(/\/risco\/\d+\/editar$/);
    const nrCotacao = (await page.getByTestId('nr-cotacao').textContent())!.trim();
    await page.goBack();
    await expect(page.getByTestId('nr-cotacao')).toHaveText(nrCotacao);
    await waitForIslands(page);
    await page.getByRole('button', { name: 'Salvar e continuar' }).click();
    await expect(page).toHaveURL(new RegExp(`/risco/${nrCotacao}/editar$`));
    expect(await quotesOf(page, '/api/bff/v1', 'dado', cpf)).toEqual([nrCotacao]);
  } finally {
    await browser.close();
  }
});

test('a session that ends at contratação keeps the payment typed there', async ({ page, context }) => {
  const product = productFor('RES')!;
  await signIn(page, ACCOUNTS.partner);
  await page.goto('/v2/home/res');
  await page.waitForURL(/\/cadastro\/iniciar\//);
  await fillCadastro(page, 'RES', nextCpf());
  await page.getByRole('button', { name: 'Salvar cotação e continuar' }).click();
  await expect(page).toHaveURL(/\/planos\//);
  await waitForIslands(page);
  await page.getByRole('button', { name: `Escolher ${product.plans[0]!.name}` }).click();
  await expect(page).toHaveURL(/\/contratacao\/\d+\/editar$/);
  const contratacao = new URL(page.url()).pathname;
  await waitForIslands(page);
  await page.getByRole('radio', { name: 'Débito em conta' }).check();
  await page.getByLabel('Banco').selectOption('341');
  await page.getByLabel('Agência').fill('0123');
  await page.getByLabel('Conta com dígito').fill('12345-6');

  await context.clearCookies();
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(path('/v2/login', `next=${encodeURIComponent(contratacao)}&sessao=expirada`));
  await waitForIslands(page);
  await submitLogin(page, ACCOUNTS.partner.email, DEMO_PASSWORD);
  await expect(page).toHaveURL(path(contratacao));
  await waitForIslands(page);
  await expect(page.getByText('Recuperamos os dados que você havia preenchido.')).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Débito em conta' })).toBeChecked();
  await expect(page.getByLabel('Conta com dígito')).toHaveValue('12345-6');
});

const LONG_OPTIONS = [
  {
    line: 'Empresarial Individual',
    home: '/v2/home/evi',
    select: 'Atividade do MEI',
    option: 'servicos',
    next: (page: Page) => page.getByRole('radio').first(),
  },
  {
    line: 'Vida',
    home: '/v2/home/veu',
    select: 'Categoria da profissão',
    option: 'risco',
    next: (page: Page) => page.getByRole('checkbox', { name: 'Fumante' }),
  },
] as const;

for (const width of [1366, 390]) {
  for (const { line, home, select, option, next } of LONG_OPTIONS) {
    test(`${line} at ${width} px: a long option keeps '${select}' in its cell, and the next field can be clicked`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await signIn(page, ACCOUNTS.partner);
      await page.goto(home);
      await page.waitForURL(/\/cadastro\/iniciar\//);
      await waitForIslands(page);
      const field = page.getByLabel(select, { exact: true });
      await field.selectOption(option);
      const box = (await field.boundingBox())!;
      const cell = (await field.locator('xpath=ancestor::div[@data-field][1]').boundingBox())!;
      const grid = (await field.locator('xpath=ancestor::div[contains(@class, "step-grid")][1]').boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(cell.x + cell.width + 0.5);
      expect(cell.x + cell.width).toBeLessThanOrEqual(grid.x + grid.width + 0.5);
      await next(page).click({ timeout: 5_000 });
      await expect(next(page)).toBeChecked();
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    });
  }
}

test('a name over the limit cannot be typed, and the API says the limit', async ({ page }) => {
  await signIn(page, ACCOUNTS.partner);
  await page.goto('/v2/home/ipu');
  await page.waitForURL(/\/cadastro\/iniciar\//);
  await waitForIslands(page);
  const name = page.getByLabel('Nome completo');
  await expect(name).toHaveAttribute('maxlength', '120');
  await name.fill(`Maria ${'a'.repeat(494)}`);
  expect((await name.inputValue()).length).toBe(120);
  // The cut is said, not silent.
  await expect(name).toHaveAccessibleDescription('Limite de 120 caracteres atingido.');
  await expect(page.getByLabel('Logradouro')).toHaveAttribute('maxlength', '120');
  await expect(page.getByLabel('Complemento (opcional)')).toHaveAttribute('maxlength', '60');

  const nrOferta = Number(new URL(page.url()).pathname.split('/').pop());
  const refused = await page.request.post('/api/bff/v1/cotacoes', {
    headers: { 'x-portal-session': 'cookie', origin: new URL(page.url()).origin },
    data: { nrOferta, segurado: { tipoPessoa: 'PF', nome: `Maria ${'a'.repeat(494)}` }, respostas: {} },
  });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).erros['segurado.nome']).toEqual(['Use no máximo 120 caracteres.']);
});

/** Cadastro and planos of a quote of `code`, choosing its last plan; returns what the plan card promised. */
async function toContratacao(page: Page, account: DemoAccount, home: string, code: string) {
  const product = productFor(code)!;
  await signIn(page, account);
  await page.goto(home);
  await page.waitForURL(/\/cadastro\/iniciar\//);
  await fillCadastro(page, code, nextCpf());
  await page.getByRole('button', { name: 'Salvar cotação e continuar' }).click();
  await expect(page).toHaveURL(/\/planos\//);
  await waitForIslands(page);
  const plan = product.plans.at(-1)!;
  const promise = (await page.getByRole('region', { name: plan.name }).locator('.plan-price').textContent()) ?? '';
  await page.getByRole('button', { name: `Escolher ${plan.name}` }).click();
  await expect(page).toHaveURL(/\/contratacao\/\d+\/editar$/);
  await waitForIslands(page);
  return promise;
}

test('the Vida plan card promises only the interest-free installments the contratação offers as it opens', async ({ page }) => {
  const promise = await toContratacao(page, ACCOUNTS.partner, '/v2/home/veu', 'VEU');
  const offered = /ou (\d+)x de (R\$ [\d.]+,\d{2}) sem juros no boleto/.exec(promise);
  expect(offered, promise).not.toBeNull();
  await expect(page.getByRole('radio', { name: 'Boleto bancário' })).toBeChecked();
  // The options are 1x, 2x, … in order: as many interest-free ones as the card promised, the last at its value.
  const options = await page.getByLabel('Parcelas').locator('option').allTextContents();
  const interestFree = options.filter((o) => o.endsWith('sem juros'));
  expect(interestFree).toHaveLength(Number(offered![1]) - 1);
  expect(interestFree.at(-1)).toContain(`x de ${offered![2]} sem juros`);
});

test('Residencial with Pix: no due day asked; resumo and finalização tell the due date, the coverages add up, no e-mail is promised', async ({
  page,
}) => {
  await toContratacao(page, ACCOUNTS.partner, '/v2/home/res', 'RES');
  await expect(page.getByLabel('Dia de vencimento')).toBeVisible();
  await page.getByRole('radio', { name: 'Pix (à vista)' }).check();
  await expect(page.getByLabel('Dia de vencimento')).toHaveCount(0);
  await expect(page.getByText('O Pix é pago à vista: vence 3 dias após a emissão da apólice.')).toBeVisible();
  await page.getByRole('button', { name: 'Continuar' }).click();

  await expect(page).toHaveURL(/\/resumo\/\d+\/editar$/);
  const nrCotacao = (await page.getByTestId('nr-cotacao').textContent())!.trim();
  // Not issued yet: the day a policy issued today would charge (decision 074).
  await expect(page.getByText(/^À vista, 3 dias após a emissão da apólice \(\d{2}\/\d{2}\/\d{4}, se emitida hoje\)$/)).toBeVisible();
  // The coverages' premiums add up to the net premium.
  const cents = (text: string) => Number(text.replace(/\D/g, ''));
  const premiums = await page.locator('.summary-table').first().locator('tbody tr td:nth-child(3)').allTextContents();
  const net = await page.locator('dt', { hasText: 'Prêmio líquido' }).locator('xpath=following-sibling::dd').textContent();
  expect(formatBRL(premiums.reduce((sum, p) => sum + cents(p), 0))).toBe(net);

  await waitForIslands(page);
  await page.getByLabel('Li e aceito o termo de presente proposta.').check();
  await page.getByRole('button', { name: 'Enviar proposta' }).click();
  await expect(page).toHaveURL(/\/finalizacao\/\d+\/visualizar$/);
  // Accepted at once: the policy's page holds its installments, and the insured was e-mailed its link.
  const nrApolice = (await page.getByTestId('nr-apolice').textContent())!.trim();
  await expect(page.getByTestId('como-pagar')).toContainText('O segurado recebeu por e-mail o link da apólice em PDF.');
  await expect(page.getByTestId('como-pagar').getByRole('link')).toHaveAttribute('href', `/v2/apolices/${nrApolice}`);

  const text = (await pdfText(new Uint8Array(await (await page.request.get(`/v2/relatorios/pdf/proposta/${nrCotacao}`)).body()))).replace(
    /\s+/g,
    ' ',
  );
  // Issued at once: the day its policy charges, the same as the policy's page.
  const due = text.match(/Vencimento À vista, em (\d{2}\/\d{2}\/\d{4}) \(3 dias após a emissão da apólice\)/)?.[1];
  expect(due).toBeDefined();
  await page.goto(`/v2/apolices/${nrApolice}`);
  await expect(page.getByTestId('parcela-1')).toContainText(due!);
  expect(text).toContain(net!);
});
