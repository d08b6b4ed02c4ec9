import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, gotoHydrated, signIn, waitForIslands } from './helpers';

/**
 * /editar-simulador/{id} (issue 6): the legacy admin renames the Residencial simulator and the new
 * name is on the offer cards at once. The run shares one database, so the name is put back at the end.
 */
const NEW_NAME = 'Residencial Premium';

async function residencial(page: Page) {
  const list = await page.request.get('/api/plataforma/v1/simuladores', { headers: { 'x-portal-session': 'cookie' } });
  expect(list.status()).toBe(200);
  const { resultado } = (await list.json()) as {
    resultado: {
      id: number;
      nome: string;
      url: string;
      ativo: boolean;
      grupoProduto: string | null;
      tipoSimulador: { cdTipoSimulador: string };
    }[];
  };
  return resultado.find((s) => s.tipoSimulador.cdTipoSimulador === 'RES')!;
}

test('the legacy admin renames a simulator: the offer cards show the new name; invalid input saves nothing', async ({ page, browser }) => {
  await signIn(page, ACCOUNTS.legacyAdmin);
  const original = await residencial(page);
  const form = {
    name: page.getByLabel('Nome', { exact: true }),
    url: page.getByLabel('URL de início', { exact: true }),
    group: page.getByLabel('Grupo de produto', { exact: true }),
    active: page.getByLabel('Simulador ativo'),
    save: page.getByRole('button', { name: 'Salvar' }),
  };
  try {
    await gotoHydrated(page, `/editar-simulador/${original.id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Editar simulador' })).toBeVisible();
    await expect(form.name).toHaveValue('Residencial');
    await expect(form.url).toHaveValue(original.url);
    await expect(form.active).toBeChecked();

    // Invalid input: pt-BR messages beside each field, and nothing saved.
    await form.name.fill('R');
    await form.url.fill('http://residencial.example');
    await form.group.fill('12');
    await form.save.click();
    await expect(page.getByText('O nome do simulador deve ter entre 3 e 80 caracteres')).toBeVisible();
    await expect(
      page.getByText('Informe um caminho do portal iniciado por / (ex.: /simulador-residencial/cadastro) ou um endereço https://'),
    ).toBeVisible();
    await expect(page.getByText('O grupo de produto tem 4 dígitos (ex.: 0118)')).toBeVisible();
    await expect(form.name).toHaveAttribute('aria-invalid', 'true');
    expect((await residencial(page)).nome).toBe('Residencial');

    // A valid name saves. The admin gets there from the offers list.
    await page.goto('/ofertas/todas?produto=RES');
    await page.getByRole('link', { name: 'Editar simulador Residencial' }).first().click();
    await expect(page).toHaveURL(new RegExp(`/editar-simulador/${original.id}$`));
    await waitForIslands(page);
    await form.name.fill(NEW_NAME);
    await form.save.click();
    await expect(page.getByRole('status')).toHaveText(`Simulador “${NEW_NAME}” salvo.`);
    expect((await residencial(page)).nome).toBe(NEW_NAME);

    // The legacy home of the same admin shows it at once.
    await page.goto('/home');
    const legacyCards = page.getByRole('region', { name: 'Ofertas disponíveis' });
    await expect(legacyCards.getByRole('heading', { level: 3, name: NEW_NAME, exact: true })).toBeVisible();
    await expect(legacyCards.getByRole('heading', { level: 3, name: 'Residencial', exact: true })).toHaveCount(0);

    // The v2 home of a partner, in a session of its own.
    const partnerContext = await browser.newContext();
    const partnerPage = await partnerContext.newPage();
    await signIn(partnerPage, ACCOUNTS.partner);
    const cards = partnerPage.getByRole('region', { name: 'Ofertas disponíveis' });
    await expect(cards.getByRole('heading', { level: 3, name: NEW_NAME, exact: true })).toBeVisible();
    await expect(cards.getByRole('heading', { level: 3, name: 'Residencial', exact: true })).toHaveCount(0);
    await partnerContext.close();
  } finally {
    const restore = await page.request.put(`/api/plataforma/v1/simuladores/${original.id}`, {
      headers: { 'x-portal-session': 'cookie' },
      data: { nome: original.nome, urlInicio: original.url, ativo: original.ativo, grupoProduto: original.grupoProduto ?? '' },
    });
    expect(restore.status()).toBe(200);
  }
});

test('an unknown simulator is a 404 page', async ({ page }) => {
  await signIn(page, ACCOUNTS.legacyAdmin);
  const response = await page.goto('/editar-simulador/999999');
  expect(response?.status()).toBe(404);
});

test('only the legacy admin finds "Editar simulador" on the offers list', async ({ page }) => {
  await signIn(page, ACCOUNTS.legacySeller);
  await page.goto('/ofertas/todas');
  await expect(page.getByRole('link', { name: /^Simular / }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: /^Editar simulador/ })).toHaveCount(0);
});
