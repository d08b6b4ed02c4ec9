import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, signIn, waitForIslands } from './helpers';
import { productFor } from '../../src/lib/products/catalog';
import { answerMessages } from '../../src/lib/products/questions';

/**
 * The behaviour around the steps (issue 5): bad input at risco and contratacao, going back keeps
 * what was saved, a reload resumes the step, and the simulator header's 'Nova Simulação' and
 * 'Histórico' lead where SPEC §2 says.
 */

async function personalItemsAtRisco(page: Page) {
  await signIn(page, ACCOUNTS.partner);
  await page.goto('/v2/home/ipu');
  await page.waitForURL(/\/cadastro\/iniciar\//);
  await waitForIslands(page);
  await page.getByLabel('Nome completo').fill('Rafael Costa Lima');
  await page.getByLabel('CPF').pressSequentially('11144477735');
  await page.getByLabel('Data de nascimento').fill('1990-02-20');
  await page.getByLabel('E-mail').fill('rafael.lima@exemplo.com.br');
  await page.getByLabel('Telefone').pressSequentially('21987654321');
  await page.getByLabel('CEP').fill('22071000');
  await page.getByLabel('Logradouro').fill('Avenida Atlântica');
  await page.getByLabel('Número', { exact: true }).fill('120');
  await page.getByLabel('Bairro').fill('Copacabana');
  await page.getByLabel('Cidade').fill('Rio de Janeiro');
  await page.getByLabel('UF', { exact: true }).selectOption('RJ');
  await page.getByRole('button', { name: 'Salvar cotação e continuar' }).click();
  await expect(page).toHaveURL(/\/v2\/simulador-itens-pessoais\/risco\/\d+\/editar$/);
  await waitForIslands(page);
}

test('risco refuses empty answers with pt-BR messages and keeps the quote where it was', async ({ page }) => {
  const product = productFor('IPU')!;
  await personalItemsAtRisco(page);
  const url = page.url();
  await page.getByRole('button', { name: 'Continuar' }).click();
  const tipoItem = product.riskQuestions.find((q) => q.name === 'tipoItem')!;
  const valorBem = product.riskQuestions.find((q) => q.name === 'valorBem')!;
  await expect(page.getByText(answerMessages.choose(tipoItem))).toBeVisible();
  await expect(page.getByText(answerMessages.required(valorBem))).toBeVisible();
  expect(page.url()).toBe(url);
  // The planos step is not reached yet: its address leads back to risco.
  await page.goto(url.replace('/risco/', '/planos/'));
  await expect(page).toHaveURL(url);
});

test('going back keeps what was saved, and a reload resumes the step', async ({ page }) => {
  await personalItemsAtRisco(page);
  await page.getByRole('link', { name: 'Voltar' }).click();
  await expect(page).toHaveURL(/\/cadastro\/\d+\/editar$/);
  await waitForIslands(page);
  await expect(page.getByLabel('Nome completo')).toHaveValue('Rafael Costa Lima');
  await expect(page.getByLabel('CPF')).toHaveValue('111.444.777-35');
  await expect(page.getByLabel('UF', { exact: true })).toHaveValue('RJ');
  await page.reload();
  await waitForIslands(page);
  await expect(page.getByLabel('Cidade')).toHaveValue('Rio de Janeiro');
});

test('life contracting refuses beneficiary shares that do not sum 100 %', async ({ page }) => {
  await signIn(page, ACCOUNTS.partner);
  await page.goto('/v2/home/veu');
  await page.waitForURL(/\/cadastro\/iniciar\//);
  await waitForIslands(page);
  await page.getByLabel('Nome completo').fill('Beatriz Souza Rocha');
  await page.getByLabel('CPF').pressSequentially('52998224725');
  await page.getByLabel('Data de nascimento').fill('1980-06-15');
  await page.getByLabel('E-mail').fill('beatriz@exemplo.com.br');
  await page.getByLabel('Telefone').pressSequentially('31987654321');
  await page.getByLabel('CEP').fill('30140071');
  await page.getByLabel('Logradouro').fill('Rua da Bahia');
  await page.getByLabel('Número', { exact: true }).fill('50');
  await page.getByLabel('Bairro').fill('Centro');
  await page.getByLabel('Cidade').fill('Belo Horizonte');
  await page.getByLabel('UF', { exact: true }).selectOption('MG');
  await page.getByLabel('Categoria da profissão').selectOption({ index: 1 });
  await page.getByRole('button', { name: 'Salvar cotação e continuar' }).click();
  await expect(page).toHaveURL(/\/planos\//);
  await waitForIslands(page);
  await page
    .getByRole('button', { name: /^Escolher / })
    .first()
    .click();
  await expect(page).toHaveURL(/\/contratacao\//);
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Adicionar beneficiário' }).click();
  await page.getByLabel('Nome do beneficiário 1').fill('Carlos Souza Rocha');
  await page.getByLabel('Parentesco').selectOption('conjuge');
  await page.getByLabel('Percentual (%)').fill('60');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByText('Os percentuais dos beneficiários devem somar 100%.')).toBeVisible();
  await expect(page).toHaveURL(/\/contratacao\//);
});

test("the header's 'Nova Simulação' asks first, then starts over; 'Histórico' opens the history of this product", async ({ page }) => {
  await personalItemsAtRisco(page);
  await page.getByRole('button', { name: 'Nova Simulação' }).click();
  const dialog = page.getByRole('dialog', { name: 'Atenção' });
  await expect(dialog).toContainText('Esta ação irá interromper a simulação atual. Deseja iniciar uma nova cotação?');
  await dialog.getByRole('button', { name: 'não' }).click();
  await expect(page).toHaveURL(/\/risco\//);
  await page.getByRole('button', { name: 'Nova Simulação' }).click();
  await page.getByRole('dialog', { name: 'Atenção' }).getByRole('button', { name: 'sim' }).click();
  await expect(page).toHaveURL(/\/v2\/simulador-itens-pessoais\/cadastro\/iniciar\/\d+$/);

  await page.getByRole('link', { name: 'Histórico' }).click();
  await expect(page).toHaveURL(/\/v2\/historico\?simulador=IPU$/);
  await expect(page.getByLabel('Produto')).toHaveValue('IPU');
  await expect(page.getByRole('link', { name: 'Histórico' })).toHaveCount(0);
});
