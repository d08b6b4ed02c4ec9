import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, signIn, waitForIslands, type DemoAccount } from './helpers';

/**
 * Renewals (issue 31), in both generations: a partner opens Renovações from the menu, finds the seed's
 * policy ending in about 30 days, clicks Renovar, walks the simulator's steps — each already filled
 * from the policy — to the proposal, accepted at once, and the old policy says it was renewed; a
 * second Renovar is refused in pt-BR.
 */
const JOURNEYS: { account: DemoAccount; base: string; simulator: string; policies: string; worklist: string; insured: string }[] = [
  {
    account: ACCOUNTS.partner,
    base: '/v2/renovacoes',
    simulator: '/v2/simulador-residencial',
    policies: '/v2/apolices',
    worklist: '/v2/pendencias',
    insured: 'Helena Duarte Vasconcelos',
  },
  {
    account: ACCOUNTS.legacySeller,
    base: '/renovacoes',
    simulator: '/simulador-residencial',
    policies: '/apolices',
    worklist: '/pendencias',
    insured: 'Rafael Moreira Antunes',
  },
];

async function walkSteps(page: Page, simulator: string): Promise<string> {
  await expect(page).toHaveURL(new RegExp(`${simulator}/cadastro/\\d+/editar$`));
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Salvar e continuar' }).click();
  await expect(page).toHaveURL(new RegExp(`${simulator}/planos/\\d+/editar$`));
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Continuar com este plano' }).click();
  await expect(page).toHaveURL(new RegExp(`${simulator}/contratacao/\\d+/editar$`));
  await waitForIslands(page);
  await expect(page.getByRole('radio', { name: 'Pix' })).toBeChecked();
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(new RegExp(`${simulator}/resumo/\\d+`));
  await waitForIslands(page);
  await page.getByLabel('Li e aceito o termo de presente proposta.').check();
  await page.getByRole('button', { name: 'Enviar proposta' }).click();
  await expect(page).toHaveURL(new RegExp(`${simulator}/finalizacao/\\d+/visualizar$`));
  return (await page.getByTestId('nr-proposta').textContent())!.trim();
}

for (const { account, base, simulator, policies, worklist, insured } of JOURNEYS) {
  test(`${account.generation}: renews a policy ending in about 30 days and sells the renewal`, async ({ page }) => {
    await signIn(page, account);
    // The menu leads there, beside Apólices.
    await expect(page.locator(`a[href="${base}"]`).first()).toBeAttached();
    await page.goto(base);
    await expect(page.getByRole('heading', { level: 1, name: 'Renovações' })).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: insured });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(/faltam (2[5-9]|3[0-5]) dias/);
    await expect(row).toContainText('Não renovada');
    const nrApolice = (await row.getByRole('cell').nth(1).textContent())!.trim();

    await row.getByRole('link', { name: `Renovar a apólice ${nrApolice}` }).click();
    await expect(page).toHaveURL(`${base}/${nrApolice}`);
    await expect(page.getByText('Próxima vigência')).toBeVisible();
    // Who will sell it, said before the click (issue 42): the policy's own seller.
    await expect(page.getByTestId('renovacao-vendedor')).toHaveText('A cotação da renovação fica em seu nome, como esta apólice.');
    await page.getByRole('button', { name: 'Renovar', exact: true }).click();
    // The simulator says it is a renewal, of which policy and for which term.
    await expect(page.getByTestId('cotacao-renovacao')).toContainText(
      new RegExp(`^Renovação da apólice nº ${nrApolice},\\s+para a vigência de \\d{2}/\\d{2}/\\d{4} a \\d{2}/\\d{2}/\\d{4}\\.$`),
    );
    const nrProposta = await walkSteps(page, simulator);
    expect(nrProposta).toMatch(/^\d{12}$/);

    await page.goto(`${policies}/${nrApolice}`);
    const renewedBy = page.getByTestId('renovada-por');
    await expect(renewedBy).toContainText('Renovada pela apólice');
    await renewedBy.getByRole('link').click();
    await expect(page.getByTestId('renovacao-de')).toContainText(`Renovação da apólice ${nrApolice}`);
    // The renewal begins the day after the old term ends: not "Vigente" yet (issue 42).
    await expect(page.getByText('A iniciar', { exact: true }).first()).toBeVisible();
    await expect(page.getByText('Vigente', { exact: true })).toHaveCount(0);

    await page.goto(base);
    const renewed = page.getByRole('row').filter({ hasText: insured });
    await expect(renewed).toContainText('Renovada');
    await expect(renewed.getByRole('link', { name: /^Renovar/ })).toHaveCount(0);
    // Nor is it still to renew in the worklist (issue 42: it stayed there, and in the bell).
    await page.goto(`${worklist}?tipo=RENOVACAO`);
    await expect(page.getByRole('heading', { name: 'Pendências', level: 1 })).toBeVisible();
    await expect(page.locator('[data-live-region="pendencias"] li', { hasText: nrApolice })).toHaveCount(0);
    await page.goto(`${base}/${nrApolice}`);
    await expect(page.getByRole('button', { name: 'Renovar', exact: true })).toHaveCount(0);
    await expect(page.getByRole('status')).toContainText('Renovada pela apólice');
  });
}

test('390 px: a renewal card keeps each value’s second line beside its label, not under it', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, ACCOUNTS.partner);
  await page.goto('/v2/renovacoes');
  const cells = page
    .locator('td[data-label="Fim da vigência"], td[data-label="Vendedor e ponto de venda"]')
    .filter({ has: page.locator('.muted-line') });
  await expect(cells.first()).toBeVisible();
  for (const cell of (await cells.all()).slice(0, 6)) {
    const td = (await cell.boundingBox())!;
    const line = (await cell.locator('.muted-line').first().boundingBox())!;
    // The label takes the first 2/5 of the card: the second line starts past it.
    expect(line.x - td.x).toBeGreaterThan(td.width * 0.35);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
