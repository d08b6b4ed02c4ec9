import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, signIn, waitForIslands, type DemoAccount } from './helpers';

/**
 * Renewals (issue 31), in both generations: a partner opens Renovações from the menu, finds the seed's
 * policy ending in about 30 days, clicks Renovar, walks the simulator's steps — each already filled
 * from the policy — to the proposal, accepted at once, and the old policy says it was renewed; a
 * second Renovar is refused in pt-BR.
 */
const JOURNEYS: { account: DemoAccount; base: string; simulator: string; policies: string; insured: string }[] = [
  {
    account: ACCOUNTS.partner,
    base: '/v2/renovacoes',
    simulator: '/v2/simulador-residencial',
    policies: '/v2/apolices',
    insured: 'Helena Duarte Vasconcelos',
  },
  {
    account: ACCOUNTS.legacySeller,
    base: '/renovacoes',
    simulator: '/simulador-residencial',
    policies: '/apolices',
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

for (const { account, base, simulator, policies, insured } of JOURNEYS) {
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
    await page.getByRole('button', { name: 'Renovar', exact: true }).click();
    const nrProposta = await walkSteps(page, simulator);
    expect(nrProposta).toMatch(/^\d{12}$/);

    await page.goto(`${policies}/${nrApolice}`);
    const renewedBy = page.getByTestId('renovada-por');
    await expect(renewedBy).toContainText('Renovada pela apólice');
    await renewedBy.getByRole('link').click();
    await expect(page.getByTestId('renovacao-de')).toContainText(`Renovação da apólice ${nrApolice}`);

    await page.goto(base);
    await expect(page.getByRole('row').filter({ hasText: insured })).toContainText('Renovada');
    await page.goto(`${base}/${nrApolice}`);
    await expect(page.getByRole('button', { name: 'Renovar', exact: true })).toHaveCount(0);
    await expect(page.getByRole('status')).toContainText('Renovada pela apólice');
  });
}
