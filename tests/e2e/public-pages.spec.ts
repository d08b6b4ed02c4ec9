import { expect } from '@playwright/test';
import { test } from './fixtures';
import { loginForm, path, SUBJECTS } from './helpers';

test.describe('landing page', () => {
  test('leads to the new portal and to the legacy portal', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Portal de Parceiros' })).toBeVisible();

    await page.getByRole('link', { name: 'Entrar no portal' }).click();
    await expect(page).toHaveURL(path('/v2/login'));
    await expect(loginForm(page).email).toBeVisible();

    await page.goto('/');
    await page.getByRole('link', { name: 'Acessar o portal legado' }).click();
    await expect(page).toHaveURL(path('/signin'));
    await expect(loginForm(page).email).toBeVisible();
  });
});

test.describe('public pages open without a session', () => {
  const pages = [
    { url: '/termo-de-uso', heading: 'Termos de Uso do Portal de Parceiros' },
    { url: '/termo-presente-proposta', heading: 'Termo de Ciência e Aceite da Proposta' },
    { url: '/template-email', heading: 'Modelos de e-mail' },
    { url: '/v2/template-email', heading: 'Modelos de e-mail' },
    { url: '/cadastro-realizado', heading: 'Cadastro realizado' },
    { url: '/v2/cadastro-realizado', heading: 'Cadastro realizado' },
  ];

  for (const { url, heading } of pages) {
    test(url, async ({ page }) => {
      const response = await page.goto(url);
      expect(response?.status()).toBe(200);
      await expect(page).toHaveURL(path(url));
      await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    });
  }

  test('the e-mail templates show the subjects the portal sends', async ({ page }) => {
    await page.goto('/v2/template-email');
    await expect(page.getByText(`Assunto: ${SUBJECTS.reset}`)).toBeVisible();
    await expect(page.getByText(`Assunto: ${SUBJECTS.firstAccess}`)).toBeVisible();
  });

  test('"Cadastro realizado" leads to the login of its generation', async ({ page }) => {
    await page.goto('/cadastro-realizado');
    await expect(page.getByRole('status')).toContainText('Sua senha foi cadastrada');
    await expect(page.getByRole('link', { name: 'Entrar no portal' })).toHaveAttribute('href', '/signin');
    await page.goto('/v2/cadastro-realizado');
    await expect(page.getByRole('link', { name: 'Entrar no portal' })).toHaveAttribute('href', '/v2/login');
  });
});

test.describe('not found', () => {
  test('an unknown path answers 404 with a link to the landing page', async ({ page }) => {
    const response = await page.goto('/pagina-que-nao-existe');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Desculpe, esta página não está disponível.' })).toBeVisible();
    const home = page.getByRole('link', { name: 'Página inicial' });
    await expect(home).toHaveAttribute('href', '/');
    await home.click();
    await expect(page).toHaveURL(path('/'));
  });

  test('an unknown /v2 path answers 404 with a link to the v2 login', async ({ page }) => {
    const response = await page.goto('/v2/pagina-que-nao-existe');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Desculpe, esta página não está disponível.' })).toBeVisible();
    const home = page.getByRole('link', { name: 'Página inicial' });
    await expect(home).toHaveAttribute('href', '/v2/login');
    await home.click();
    await expect(page).toHaveURL(path('/v2/login'));
  });
});
