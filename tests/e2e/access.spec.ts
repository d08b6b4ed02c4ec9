import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, DEMO_PASSWORD, HOME_PATH, openDrawer, path, signIn, type DemoAccount } from './helpers';

/**
 * Route guards (SPEC §6): the rules that hide a menu item also refuse its page, with HTTP 403 and the
 * "no permission" page at the same URL; unknown addresses answer 404 (SPEC §2). The JSON API
 * refuses the same way with a 403 body.
 */

const FORBIDDEN = 'Você não tem permissão para acessar esta página.';
const NOT_FOUND = 'Desculpe, esta página não está disponível.';

async function expectForbidden(page: Page, url: string) {
  const response = await page.goto(url);
  expect(response?.status(), `status of ${url}`).toBe(403);
  await expect(page, `${url} is refused in place (no redirect)`).toHaveURL(path(url));
  await expect(page.getByRole('heading', { level: 1, name: FORBIDDEN })).toBeVisible();
}

/** Allowed by the guard: whatever the page is (built or not yet), it is not the 403 page. */
async function expectNotForbidden(page: Page, url: string) {
  const response = await page.goto(url);
  expect(response?.status(), `status of ${url}`).not.toBe(403);
  await expect(page.getByRole('heading', { name: FORBIDDEN })).toHaveCount(0);
}

const FORBIDDEN_ROUTES: { account: DemoAccount; routes: [group: string, url: string][] }[] = [
  {
    account: ACCOUNTS.partner,
    routes: [
      ['Seguros', '/v2/ofertas'],
      ['Gestão', '/v2/log-acesso'],
      ['Dados › Relatórios', '/v2/relatorios/vendas/consulta'],
      ['Documentos', '/v2/documentos/consulta'],
      ['Financeiro › Informe', '/v2/informe-rendimentos'],
      ['Acesso › Parceiro', '/v2/parceiros/consulta'],
      ['Acesso › Usuários › Permissões', '/v2/usuario/permissoes/consulta'],
      ['Acesso › Usuários › Cadastro', '/v2/usuario/cadastro/consulta'],
    ],
  },
  {
    account: ACCOUNTS.subagent,
    routes: [
      ['Dados › Métricas', '/v2/metricas/evolucao-vendas'],
      ['Meus Clientes › 2ª via de boleto', '/v2/boleto'],
      ['Financeiro › Comissões (section)', '/v2/comissoes/nota-fiscal'],
      ['Acesso › Substabelecido (section)', '/v2/substabelecido/cadastro'],
      ['Acesso › Ponto de Venda', '/v2/ponto-venda/consulta'],
    ],
  },
  {
    account: ACCOUNTS.partnerAdmin,
    routes: [
      ['Seguros', '/v2/ofertas'],
      ['Gestão', '/v2/log-acesso'],
      ['Acesso › Parceiro (section)', '/v2/parceiros/cadastro'],
    ],
  },
  {
    account: ACCOUNTS.legacySeller,
    routes: [
      ['Acesso › Usuários', '/consulta-usuarios'],
      ['Acesso › Hierarquia', '/consulta-hierarquia'],
      ['Acesso › Usuários (section)', '/editar-usuario/3'],
      ['Documentos', '/documentos/consulta'],
      ['Financeiro', '/informe-rendimentos'],
      ['Módulos em homologação', '/relatorio-pagamento'],
      ['Módulos em homologação', '/importar-usuarios'],
    ],
  },
];

test.describe('403 on routes the user may not open', () => {
  for (const { account, routes } of FORBIDDEN_ROUTES) {
    test(`${account.email}: ${routes.map(([, url]) => url).join(', ')}`, async ({ page }) => {
      await signIn(page, account);
      for (const [, url] of routes) await expectForbidden(page, url);
    });
  }

  test('the 403 page leads back to the home of the generation', async ({ page }) => {
    await signIn(page, ACCOUNTS.partner);
    await expectForbidden(page, '/v2/ofertas');
    await page.getByRole('link', { name: 'Página inicial' }).click();
    await expect(page).toHaveURL(path('/v2/home'));
  });

  test('allowed menu routes are not refused', async ({ page }) => {
    // The insurer admin may open every v2 route; the partner the ones its menu shows.
    await signIn(page, ACCOUNTS.insurerAdmin);
    for (const url of [
      '/v2/ofertas',
      '/v2/log-acesso',
      '/v2/parceiros/consulta',
      '/v2/documentos/consulta',
      '/v2/usuario/permissoes/consulta',
    ]) {
      await expectNotForbidden(page, url);
    }
    await page.context().clearCookies();
    await signIn(page, ACCOUNTS.partner);
    // /v2/apolices: APOLICE_VENDEDOR opens it though its row lists only PARCEIRO_ADMIN (SPEC §6, decision 007).
    for (const url of ['/v2/metricas/evolucao-vendas', '/v2/boleto', '/v2/comissoes/extrato-comissoes', '/v2/apolices'])
      await expectNotForbidden(page, url);
  });
});

test.describe('404 on unknown addresses', () => {
  const cases = [
    { url: '/v2/x', signedOutHome: '/v2/login', account: ACCOUNTS.partner },
    { url: '/x', signedOutHome: '/', account: ACCOUNTS.legacySeller },
  ];

  /** The not-found page at `url`: status, address kept, text, image, the way home, and the frame. */
  async function expectNotFound(page: Page, url: string, home: string, signedIn: boolean) {
    const response = await page.goto(url);
    expect(response?.status(), `status of ${url}`).toBe(404);
    await expect(page).toHaveURL(path(url));
    await expect(page.getByRole('heading', { level: 1, name: NOT_FOUND })).toBeVisible();
    await expect(page.locator('.status-image')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Página inicial' })).toHaveAttribute('href', home);
    // Signed in, the page stays inside the portal: its header with the drawer, not the public one.
    await expect(page.getByRole('button', { name: 'Abrir menu' })).toHaveCount(signedIn ? 1 : 0);
    await expect(page.getByRole('navigation', { name: 'Links institucionais' })).toHaveCount(signedIn ? 0 : 1);
  }

  for (const { url, signedOutHome, account } of cases) {
    test(`${url} answers 404: signed out it leads to ${signedOutHome}, signed in it keeps the drawer and leads home`, async ({ page }) => {
      await expectNotFound(page, url, signedOutHome, false);
      await signIn(page, account);
      await expectNotFound(page, url, HOME_PATH[account.generation], true);
      const dialog = await openDrawer(page);
      await expect(dialog.locator('p.drawer-user')).toHaveText(account.name);
      await dialog.getByRole('button', { name: 'Fechar menu' }).click();
      await page.getByRole('link', { name: 'Página inicial' }).click();
      await expect(page).toHaveURL(path(HOME_PATH[account.generation]));
    });
  }

  test('the legacy and v2 not-found pages say the same', async ({ page }) => {
    const textOf = async (url: string) => {
      await page.goto(url);
      return page.locator('main').innerText();
    };
    expect(await textOf('/v2/nao-existe')).toBe(await textOf('/nao-existe'));
  });

  test('a signed-in user refused a page (403) keeps the drawer', async ({ page }) => {
    await signIn(page, ACCOUNTS.legacySeller);
    await expectForbidden(page, '/consulta-usuarios');
    const dialog = await openDrawer(page);
    await expect(dialog.getByRole('link', { name: 'Ver perfil' })).toHaveAttribute('href', '/perfil');
  });
});

test.describe('the JSON API refuses with 403', () => {
  test('GET /api/plataforma/v1/usuarios/filtro as the legacy seller (no USUARIOS permission)', async ({ request }) => {
    const login = await request.post('/api/plataforma/v1/login', {
      data: { user_name: ACCOUNTS.legacySeller.email, password: DEMO_PASSWORD },
    });
    expect(login.status()).toBe(200);
    const token: string = (await login.json()).resultado.token;
    expect(token).toBeTruthy();

    const response = await request.get('/api/plataforma/v1/usuarios/filtro', { headers: { authtoken: token } });
    expect(response.status()).toBe(403);
    expect(response.headers()['content-type']).toContain('application/json');
    const body = await response.json();
    expect(body).toEqual({ status: 403, message: expect.any(String) });
    expect(body.message.length).toBeGreaterThan(0);
  });
});
