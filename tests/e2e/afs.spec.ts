import { expect } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, gotoHydrated, path, signIn } from './helpers';

/**
 * The AFS redirect (issue 6, decision 020): the legacy seller opens the old agricultural simulator,
 * the portal form-POSTs a one-time key to the receiver, which verifies it once; a replay is refused.
 * The legacy home does not list offers in this branch yet (issue6-sell builds it), so the journey
 * opens the AFS start page — the start URL of the AFS offer's 'Simular' — directly.
 */
const AFS_PAGE = '/simulador-agricola-antigo';
const REFUSED = 'Chave inválida, expirada ou já utilizada. Volte ao portal e tente novamente.';

test('the seller reaches the receiver with a verified key; replaying the same form is refused', async ({ page }) => {
  await signIn(page, ACCOUNTS.legacySeller);
  // What the browser's form really sent to the receiver (the key and the app token as fields).
  const formPost = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/afs/receptor');
  // From the AFS offer card on the legacy home, as a seller starts it.
  await page.goto('/home');
  await page.getByRole('link', { name: 'Simular Agrícola (antigo)', exact: true }).click();
  const sent = await formPost;
  const fields = new URLSearchParams(sent.postData() ?? '');
  const chaveBroto = fields.get('chaveBroto')!;
  const authorization = fields.get('Authorization')!;
  expect(chaveBroto).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(authorization).toMatch(/^Bearer portal-parceiros\.[A-Za-z0-9_-]{43}$/);

  // The form submits itself: the browser lands on the receiver, which shows who arrived.
  await expect(page).toHaveURL(path('/afs/receptor'));
  await expect(page.getByRole('heading', { level: 1, name: 'Simulador agrícola (AFS)' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('Chave verificada. Você chegou ao simulador agrícola pelo Portal de Parceiros.');
  await expect(page.getByText('Bruno Carvalho', { exact: true })).toBeVisible();
  await expect(page.getByText('Agrícola (antigo)', { exact: true })).toBeVisible();
  // Said as a partner reads it: no configuration names on screen (issue 11).
  await expect(page.getByText('Esta é uma página de demonstração do portal', { exact: false })).toBeVisible();
  await expect(page.locator('main')).not.toContainText(/[A-Z]+_[A-Z_]+/);
  // No secret on the page.
  const html = await page.content();
  expect(html).not.toContain(chaveBroto);
  expect(html).not.toContain(authorization.slice('Bearer '.length));

  // The same fields posted again: the key was used.
  const replay = await page.request.post(sent.url(), { form: { chaveBroto, Authorization: authorization } });
  expect(replay.status()).toBe(410);
  expect(await replay.text()).toContain(REFUSED);

  // Shown in the browser as well: a page that re-posts the used key.
  await page.setContent(
    `<form method="post" action="${sent.url()}"><input name="chaveBroto" value="${chaveBroto}">` +
      `<input name="Authorization" value="${authorization}"><button>Reenviar</button></form>`,
  );
  await page.getByRole('button', { name: 'Reenviar' }).click();
  await expect(page.getByRole('alert')).toHaveText(REFUSED);
  await expect(page.getByRole('link', { name: 'Voltar ao portal' })).toHaveAttribute('href', '/home');
});

test('a tampered app token is refused (401) and a GET explains the receiver (405)', async ({ page }) => {
  await signIn(page, ACCOUNTS.legacySeller);
  const answer = await page.request.get('/api/plataforma/v1/simuladores/redirect?tipo=AFS', { headers: { 'x-portal-session': 'cookie' } });
  const { resultado } = (await answer.json()) as { resultado: { link: string; chaveBroto: string; tokenApp: string } };
  const forged = await page.request.post(resultado.link, {
    form: { chaveBroto: resultado.chaveBroto, Authorization: `Bearer ${resultado.tokenApp}x` },
  });
  expect(forged.status()).toBe(401);
  expect(await forged.text()).toContain(REFUSED);

  const get = await page.goto('/afs/receptor');
  expect(get?.status()).toBe(405);
  await expect(page.getByText('Envie o formulário pelo portal.', { exact: false })).toBeVisible();
});

test('the redirect page shows pt-BR errors: refused by the server, and no network', async ({ page }) => {
  await signIn(page, ACCOUNTS.legacySeller);
  await page.route('**/api/plataforma/v1/simuladores/redirect**', (route) =>
    route.fulfill({
      status: 403,
      contentType: 'application/json',
      body: JSON.stringify({ status: 403, message: 'Você não tem permissão para este simulador.' }),
    }),
  );
  await gotoHydrated(page, AFS_PAGE);
  await expect(page.getByRole('alert')).toHaveText('Você não tem permissão para este simulador.');
  await expect(page).toHaveURL(path(AFS_PAGE));

  await page.unroute('**/api/plataforma/v1/simuladores/redirect**');
  await page.route('**/api/plataforma/v1/simuladores/redirect**', (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: 'Tentar novamente' }).click();
  await expect(page.getByRole('alert')).toHaveText('Não foi possível falar com o portal. Verifique sua conexão e tente novamente.');

  // Back online, 'Tentar novamente' goes through to the receiver.
  await page.unroute('**/api/plataforma/v1/simuladores/redirect**');
  await page.getByRole('button', { name: 'Tentar novamente' }).click();
  await expect(page).toHaveURL(path('/afs/receptor'));
  await expect(page.getByRole('heading', { level: 1, name: 'Simulador agrícola (AFS)' })).toBeVisible();
});
