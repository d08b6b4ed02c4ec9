import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, gotoHydrated, path, signIn, waitForIslands } from './helpers';
import { brasiliaDay, formatIsoDate } from '../../src/lib/format';
import { demoOfferTerm } from '../../src/lib/offer-validity';

/**
 * Offers in the browser: the v2 home's offer cards, /v2/home/{code}, and the provider admin's offer
 * management. The admin's offers go to the Floresta simulator and the sub-delegated company, which
 * neither the partner nor the sub-delegated user sells, so the other journeys see the seed's offers.
 */

const offerCards = (page: Page) => page.getByRole('region', { name: 'Ofertas disponíveis' }).getByRole('article');

test('the sub-delegated user sees exactly the three offers they may sell', async ({ page }) => {
  await signIn(page, ACCOUNTS.subagent);
  const cards = offerCards(page);
  await expect(cards).toHaveCount(3);
  await expect(cards.getByRole('heading', { level: 3 })).toHaveText(['Itens Pessoais', 'Residencial', 'Vida']);
  const residencial = cards.filter({ has: page.getByRole('heading', { name: 'Residencial' }) });
  await expect(residencial).toContainText('Residencial — Horizonte');
  // The seed's term runs from the day the demo was made on the server's clock, which is the machine's:
  // the journey reads the same clock to know it.
  await expect(residencial).toContainText(`Vigente até ${formatIsoDate(demoOfferTerm(brasiliaDay(new Date())).fim)}`);
  await expect(residencial.getByRole('link', { name: 'Simular Residencial' })).toHaveAttribute('href', '/v2/home/res');
  // The offers come before the shortcuts.
  const headings = await page.getByRole('heading', { level: 2 }).allTextContents();
  expect(headings[0]).toBe('Ofertas disponíveis');
});

test('a product the sub-delegated user may not sell is refused (403); an unknown code is a 404', async ({ page }) => {
  await signIn(page, ACCOUNTS.subagent);
  const refused = await page.goto('/v2/home/afu');
  expect(refused?.status()).toBe(403);
  await expect(page.getByRole('heading', { level: 1, name: 'Você não tem permissão para acessar esta página.' })).toBeVisible();
  const unknown = await page.goto('/v2/home/xyz');
  expect(unknown?.status()).toBe(404);
});

test('the partner clicks Simular on the Residencial card and lands on the offer’s start route', async ({ page }) => {
  await signIn(page, ACCOUNTS.partner);
  const residencial = offerCards(page).filter({ has: page.getByRole('heading', { name: 'Residencial', exact: true }) });
  await residencial.getByRole('link', { name: 'Simular Residencial' }).click();
  await expect(page).toHaveURL(/\/v2\/simulador-residencial\/cadastro\/iniciar\/\d+\/\d+$/);
});

test('the provider admin creates an offer, finds it in the list and edits its commission', async ({ page }) => {
  await signIn(page, ACCOUNTS.insurerAdmin);
  await page.goto('/v2/ofertas');
  const newOffer = page.getByRole('link', { name: 'Nova oferta de Floresta' });
  const href = (await newOffer.getAttribute('href'))!;
  const idSimulador = /\/v2\/ofertas\/cadastro\/(\d+)$/.exec(href)![1]!;
  await newOffer.click();
  await expect(page).toHaveURL(path(`/v2/ofertas/cadastro/${idSimulador}`));
  await expect(page.getByRole('heading', { level: 1, name: 'Nova oferta — Floresta' })).toBeVisible();
  await waitForIslands(page);

  const name = `Floresta — campanha ${Date.now()}`;
  await page.getByLabel('Nome da oferta').fill(name);
  // Offers go to partners; a substabelecido's derive from its partner's (decision 052): it is not offered here.
  await expect(page.getByRole('checkbox', { name: /Vale Verde/ })).toHaveCount(0);
  await page.getByRole('checkbox', { name: /Horizonte/ }).check();
  // Next year's campaign: not in force yet, so the sellers of the journeys that follow see the same offers.
  await page.getByLabel('Início da vigência').fill('2027-01-01');
  await page.getByLabel('Fim da vigência').fill('2027-12-31');
  await page.getByLabel('Comissão (%)').fill('12,5');
  await page.getByRole('button', { name: 'Salvar' }).click();

  await expect(page).toHaveURL(/\/v2\/ofertas\?idSimulador=\d+&salvo=\d+$/);
  await expect(page.getByRole('status').filter({ hasText: 'Oferta salva com sucesso.' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Horizonte');
  await expect(row).toContainText('01/01/2027 a 31/12/2027');
  await expect(row).toContainText('12,50%');
  await expect(row).toContainText('Ativa');

  await row.getByRole('link', { name: /^Editar/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Editar oferta — Floresta' })).toBeVisible();
  await waitForIslands(page);
  const commission = page.getByLabel('Comissão (%)');
  await expect(commission).toHaveValue('12,50');
  await commission.fill('');
  await commission.pressSequentially('18');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page).toHaveURL(/salvo=\d+$/);
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText('18,00%');
});

test('invalid offer input shows pt-BR messages and saves nothing', async ({ page }) => {
  await signIn(page, ACCOUNTS.insurerAdmin);
  await page.goto('/v2/ofertas');
  const before = await page.getByRole('row').count();
  const href = (await page.getByRole('link', { name: 'Nova oferta de Floresta' }).getAttribute('href'))!;
  await gotoHydrated(page, href);

  let posted = false;
  page.on('request', (request) => {
    if (request.method() !== 'GET' && request.url().includes('/v1/ofertas')) posted = true;
  });
  await page.getByLabel('Nome da oferta').fill('ab');
  await page.getByLabel('Início da vigência').fill('2026-06-01');
  await page.getByLabel('Fim da vigência').fill('2026-01-01');
  await page.getByRole('button', { name: 'Salvar' }).click();

  await expect(page.getByText('O nome da oferta deve ter entre 3 e 120 caracteres')).toBeVisible();
  await expect(page.getByText('Selecione ao menos uma empresa')).toBeVisible();
  await expect(page.getByText('Informe a comissão entre 0 e 100%, com até 2 casas decimais')).toBeVisible();
  await expect(page.getByLabel('Nome da oferta')).toHaveAttribute('aria-invalid', 'true');

  // With the other fields fixed, the dates in the wrong order are refused too.
  await page.getByLabel('Nome da oferta').fill('Floresta — inválida');
  await page.getByRole('checkbox', { name: /Horizonte/ }).check();
  await page.getByLabel('Comissão (%)').fill('10');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('O fim da vigência não pode ser anterior ao início')).toBeVisible();
  await expect(page).toHaveURL(path(href));
  expect(posted).toBe(false);

  await page.goto('/v2/ofertas');
  await expect(page.getByRole('row')).toHaveCount(before);
  await expect(page.getByRole('row').filter({ hasText: 'Floresta — inválida' })).toHaveCount(0);
});

test('the offer form of an unknown simulator is a 404; the offers list is the provider admin’s', async ({ page }) => {
  await signIn(page, ACCOUNTS.insurerAdmin);
  expect((await page.goto('/v2/ofertas/cadastro/99999'))?.status()).toBe(404);
  expect((await page.goto('/v2/ofertas/cadastro/1?nrOferta=99999'))?.status()).toBe(404);
});

test('the offer pages have no serious or critical axe violations', async ({ page }) => {
  const scan = async (what: string) => {
    const { violations } = await new AxeBuilder({ page }).analyze();
    const serious = violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')} — ${v.help}`);
    expect(serious, what).toEqual([]);
  };
  await signIn(page, ACCOUNTS.insurerAdmin);
  await scan('/v2/home with offer cards');
  await gotoHydrated(page, '/v2/ofertas');
  await scan('/v2/ofertas');
  await gotoHydrated(page, '/v2/ofertas/cadastro/1');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Selecione ao menos uma empresa')).toBeVisible();
  await scan('the offer form showing its errors');
});
