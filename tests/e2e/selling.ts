import { expect, type Page } from '@playwright/test';
import { productFor } from '../../src/lib/products/catalog';
import type { ProductDef, Question } from '../../src/lib/products/types';
import { HOME_PATH, waitForIslands, type Generation } from './helpers';

/**
 * Filling the simulator steps as a partner does, shared by the v2 and the legacy selling journeys:
 * the forms are filled from the catalog's own questions, so a line that gains a question is still sold.
 */

/** A valid answer inside the question's bounds, typed as a person types it. */
export async function answer(page: Page, question: Question) {
  const field = page.getByLabel(question.label, { exact: true });
  switch (question.kind) {
    case 'select':
      return field.selectOption({ index: 1 });
    case 'radio':
      return page.getByRole('group', { name: question.label }).getByRole('radio').first().check();
    case 'boolean':
      return undefined;
    case 'money': {
      const min = question.min ?? 1_000_00;
      const cents = Math.min(min * 3, question.max ?? Number.MAX_SAFE_INTEGER);
      return field.pressSequentially(String(Math.round(cents / 100)));
    }
    case 'integer':
    case 'area':
      return field.pressSequentially(String(Math.max(question.min ?? 1, Math.min(question.max ?? 10, 10))));
    case 'date':
      return field.fill('1985-04-12');
    default:
      return field.fill('Modelo de teste 2026');
  }
}

/** A valid CPF (11 digits) of its own for each seed: a journey can find its quotes by the insured's document. */
export function cpfFor(seed: number): string {
  const base = String(100_000_000 + (Math.abs(Math.trunc(seed)) % 899_999_999))
    .split('')
    .map(Number);
  const digit = (digits: number[]) => ((digits.reduce((sum, d, i) => sum + d * (digits.length + 1 - i), 0) * 10) % 11) % 10;
  const first = digit(base);
  return [...base, first, digit([...base, first])].join('');
}

export async function fillInsured(page: Page, product: ProductDef, options: { cpf?: string } = {}) {
  if (product.insured === 'PJ') {
    await page.getByLabel('Razão social').fill('Comércio Horizonte Ltda');
    await page.getByLabel('CNPJ').pressSequentially('11222333000181');
  } else {
    await page.getByLabel('Nome completo').fill('Mariana Alves Pereira');
    await page.getByLabel('CPF').pressSequentially(options.cpf ?? '52998224725');
    await page.getByLabel('Data de nascimento').fill('1985-04-12');
  }
  await page.getByLabel('E-mail').fill('mariana.pereira@exemplo.com.br');
  await page.getByLabel('Telefone').pressSequentially('11987654321');
  await page.getByLabel('CEP').fill('01310-100');
  await page.getByLabel('Logradouro').fill('Avenida Paulista');
  await page.getByLabel('Número', { exact: true }).fill('1000');
  await page.getByLabel('Bairro').fill('Bela Vista');
  await page.getByLabel('Cidade').fill('São Paulo');
  await page.getByLabel('UF', { exact: true }).selectOption('SP');
}

/**
 * Sells a residential quote from the signed-in home through every step to its proposal page, on the
 * first plan, and answers the proposal's number: `mixed` answers 'Mista' to the construction (a
 * proposal the rules refer for analysis), `method` is the payment method's radio.
 */
export async function sellResidential(
  page: Page,
  { generation = 'v2', mixed = false, method = 'Cartão de crédito' }: { generation?: Generation; mixed?: boolean; method?: string } = {},
): Promise<string> {
  const product = productFor('RES')!;
  await page.goto(HOME_PATH[generation]);
  await page.getByRole('link', { name: 'Simular Residencial', exact: true }).click();
  await page.waitForURL(/\/cadastro(\/iniciar\/|\?oferta=)/);
  await waitForIslands(page);
  await fillInsured(page, product, { cpf: cpfFor(Date.now()) });
  for (const question of product.cadastroQuestions) await answer(page, question);
  if (mixed)
    await page.getByRole('group', { name: 'Tipo de construção' }).getByRole('radio', { name: 'Mista (alvenaria e madeira)' }).check();
  await page.getByRole('button', { name: 'Salvar cotação e continuar' }).click();
  await expect(page).toHaveURL(/\/planos\/\d+\/editar$/);
  await waitForIslands(page);
  await page.getByRole('button', { name: `Escolher ${product.plans[0]!.name}` }).click();
  await expect(page).toHaveURL(/\/contratacao\/\d+\/editar$/);
  await waitForIslands(page);
  await page.getByRole('radio', { name: method }).check();
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(/\/resumo\/\d+/);
  await waitForIslands(page);
  await page.getByLabel('Li e aceito o termo de presente proposta.').check();
  await page.getByRole('button', { name: 'Enviar proposta' }).click();
  await expect(page).toHaveURL(/\/finalizacao\/\d+\/visualizar$/);
  return (await page.getByTestId('nr-proposta').textContent())!.trim();
}
