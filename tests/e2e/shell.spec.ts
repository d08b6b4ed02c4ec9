import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, DEMO_PASSWORD, drawer, gotoHydrated, openDrawer, path, signIn, waitForIslands } from './helpers';

/**
 * The signed-in frame of both generations (SPEC §2): header, drawer with the user and the menu,
 * floating chat link, footer, and the profile page with the password change.
 */

const BRAND_BLUE = 'rgb(11, 79, 156)';

/** Is the focused element inside the open drawer? */
const focusInsideDrawer = (page: Page) => page.evaluate(() => Boolean(document.activeElement?.closest('dialog.drawer[open]')));

/** A short description of the focused element ('BODY' when nothing in the page has focus). */
const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'BODY';
    return `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`;
  });

test.describe('drawer', () => {
  test('legacy: opens with the menu button and shows the user, last access, profile and sign-out', async ({ page }) => {
    await signIn(page, ACCOUNTS.legacySeller);
    const menuButton = page.getByRole('button', { name: 'Abrir menu' });
    await expect(page.locator('header.portal-header').getByRole('button', { name: 'Abrir menu' })).toBeVisible();
    await expect(drawer(page)).toBeHidden();
    await expect(menuButton).toHaveAttribute('aria-expanded', 'false');

    const dialog = await openDrawer(page);
    await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
    await expect(dialog.locator('p.drawer-user')).toHaveText(ACCOUNTS.legacySeller.name);
    await expect(dialog.getByText(/^Último acesso: \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/)).toBeVisible();
    await expect(dialog.getByRole('link', { name: 'Ver perfil' })).toHaveAttribute('href', '/perfil');
    await expect(dialog.getByRole('button', { name: 'Sair' })).toBeVisible();
    await expect(dialog.getByRole('navigation', { name: 'Menu' })).toBeVisible();

    await dialog.getByRole('button', { name: 'Fechar menu' }).click();
    await expect(dialog).toBeHidden();
    await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
  });

  test('v2: shows the user and profile link, without a last access line', async ({ page }) => {
    await signIn(page, ACCOUNTS.partner);
    const dialog = await openDrawer(page);
    await expect(dialog.locator('p.drawer-user')).toHaveText(ACCOUNTS.partner.name);
    await expect(dialog.getByText(/Último acesso/)).toHaveCount(0);
    await expect(dialog.getByRole('link', { name: 'Ver perfil' })).toHaveAttribute('href', '/v2/perfil');
    await expect(dialog.getByRole('button', { name: 'Sair' })).toBeVisible();

    await dialog.getByRole('link', { name: 'Ver perfil' }).click();
    await expect(page).toHaveURL(path('/v2/perfil'));
    await expect(page.getByRole('heading', { level: 1, name: 'Meu perfil' })).toBeVisible();
    await expect(drawer(page)).toBeHidden();
  });

  test('keyboard: Enter opens, focus moves in and stays in on Tab, Esc closes and focus returns', async ({ page }) => {
    await signIn(page, ACCOUNTS.legacySeller);
    await waitForIslands(page);
    const menuButton = page.getByRole('button', { name: 'Abrir menu' });
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const dialog = drawer(page);
    await expect(dialog).toBeVisible();
    expect(await focusInsideDrawer(page), 'focus moves into the drawer').toBe(true);

    // More presses than the drawer has controls: focus cycles through the drawer and never reaches
    // the page behind it. (Past the last control Chromium may hand focus to the browser's own UI —
    // document.body in a headless page — as native modal dialogs do; the next Tab comes back in.)
    const firstFocused = await focusedLabel(page);
    const controls = await dialog.locator('a[href], button:not([disabled])').count();
    const seen: string[] = [];
    for (let i = 0; i < controls + 3; i++) {
      await page.keyboard.press('Tab');
      const where = await focusedLabel(page);
      seen.push(where);
      expect((await focusInsideDrawer(page)) || where === 'BODY', `Tab #${i + 1} reached the page behind the drawer: ${where}`).toBe(true);
    }
    expect(seen, 'Tab wraps back to the first control of the drawer').toContain(firstFocused);
    await page.keyboard.press('Shift+Tab');
    expect((await focusInsideDrawer(page)) || (await focusedLabel(page)) === 'BODY', 'Shift+Tab stays in the drawer').toBe(true);

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(menuButton).toBeFocused();
  });

  test('a group expands, collapses and is highlighted; one group open per level', async ({ page }) => {
    await signIn(page, ACCOUNTS.legacySeller);
    const dialog = await openDrawer(page);
    const dados = dialog.getByRole('button', { name: 'Dados' });
    const campanhas = dialog.getByRole('button', { name: 'Campanhas' });
    const relatorios = dialog.getByRole('link', { name: 'Relatórios', exact: true });

    await expect(dados).toHaveAttribute('aria-expanded', 'false');
    await expect(relatorios).toBeHidden();
    await expect(dados).not.toHaveCSS('background-color', BRAND_BLUE);

    await dados.click();
    await expect(dados).toHaveAttribute('aria-expanded', 'true');
    await expect(relatorios).toBeVisible();
    await expect(dados.locator('xpath=..')).toHaveClass('menu-group open');
    await expect(dados).toHaveCSS('background-color', BRAND_BLUE);

    // A nested group opens inside its parent.
    const metricas = dialog.getByRole('button', { name: 'Métricas' });
    await metricas.click();
    await expect(dialog.getByRole('link', { name: 'Evolução de vendas' })).toBeVisible();
    await expect(metricas).toHaveCSS('background-color', BRAND_BLUE);
    await expect(dados).toHaveAttribute('aria-expanded', 'true');

    // Opening a sibling closes the open group.
    await campanhas.click();
    await expect(campanhas).toHaveAttribute('aria-expanded', 'true');
    await expect(dados).toHaveAttribute('aria-expanded', 'false');
    await expect(relatorios).toBeHidden();
    await expect(dados).not.toHaveCSS('background-color', BRAND_BLUE);

    // Clicking the open group collapses it.
    await campanhas.click();
    await expect(campanhas).toHaveAttribute('aria-expanded', 'false');
    await expect(dialog.getByRole('link', { name: /Biblioteca do parceiro/ })).toBeHidden();
    await expect(campanhas.locator('xpath=..')).toHaveClass('menu-group');
  });

  test('external links open in a new tab and carry the ↗ mark; internal ones do not', async ({ page }) => {
    await signIn(page, ACCOUNTS.partnerAdmin);
    const dialog = await openDrawer(page);
    await dialog.getByRole('button', { name: 'Campanhas' }).click();
    const biblioteca = dialog.locator('a.menu-link', { hasText: 'Biblioteca do parceiro' });
    await expect(biblioteca).toHaveAttribute('target', '_blank');
    await expect(biblioteca).toHaveAttribute('rel', /noopener/);
    await expect(biblioteca).toContainText('↗');
    await expect(biblioteca).toHaveAttribute('href', /^https?:\/\//);

    const conquista = dialog.locator('a.menu-link', { hasText: 'Conquista Premiada' });
    await expect(conquista).toHaveAttribute('target', '_blank');
    await expect(conquista).toContainText('↗');

    const home = dialog.getByRole('link', { name: 'Home', exact: true });
    expect(await home.getAttribute('target')).toBeNull();
    await expect(home).not.toContainText('↗');

    // Following one opens a new tab and closes the drawer of the portal's tab (the external site is stubbed).
    const externalHref = (await conquista.getAttribute('href'))!;
    await page.context().route(
      (url) => url.href.startsWith(new URL(externalHref).origin),
      (route) => route.fulfill({ contentType: 'text/html', body: '<title>externo</title>' }),
    );
    const [popup] = await Promise.all([page.waitForEvent('popup'), conquista.click()]);
    await expect(popup).toHaveURL(new URL(externalHref).href);
    await expect(drawer(page)).toBeHidden();
    await expect(page).toHaveURL(path('/v2/home'));
  });

  test('a menu link navigates and the new page starts with the drawer closed', async ({ page }) => {
    await signIn(page, ACCOUNTS.legacySeller);
    await gotoHydrated(page, '/perfil');
    const dialog = await openDrawer(page);
    const home = dialog.getByRole('link', { name: 'Home', exact: true });
    await expect(home).not.toHaveAttribute('aria-current', 'page');
    await home.click();
    await expect(page).toHaveURL(path('/home'));
    await expect(page.getByRole('heading', { level: 1, name: `Olá, ${ACCOUNTS.legacySeller.name}!` })).toBeVisible();
    await waitForIslands(page);
    await expect(drawer(page)).toBeHidden();

    // On its own page the link is marked as current.
    const reopened = await openDrawer(page);
    await expect(reopened.getByRole('link', { name: 'Home', exact: true })).toHaveAttribute('aria-current', 'page');
  });

  test('"Sair" in the drawer signs a legacy user out to /', async ({ page }) => {
    await signIn(page, ACCOUNTS.legacySeller);
    const dialog = await openDrawer(page);
    await dialog.getByRole('button', { name: 'Sair' }).click();
    await expect(page).toHaveURL(path('/'));
    await page.goto('/home');
    await expect(page).toHaveURL(path('/signin', `next=${encodeURIComponent('/home')}`));
  });

  test('"Sair" in the drawer signs a v2 user out to /v2/login', async ({ page }) => {
    await signIn(page, ACCOUNTS.partner);
    const dialog = await openDrawer(page);
    await dialog.getByRole('button', { name: 'Sair' }).click();
    await expect(page).toHaveURL(path('/v2/login'));
    await page.goto('/v2/home');
    await expect(page).toHaveURL(path('/v2/login', `next=${encodeURIComponent('/v2/home')}`));
  });
});

test.describe('header, chat link and footer', () => {
  test('the header is 83 px high on wide screens and 68 px on small ones', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, ACCOUNTS.partner);
    const header = page.locator('header.portal-header');
    await expect.soft.poll(async () => (await header.boundingBox())?.height, { timeout: 3_000 }).toBe(83);
    await expect(header).toHaveCSS('position', 'sticky');

    await page.setViewportSize({ width: 400, height: 800 });
    await expect.soft.poll(async () => (await header.boundingBox())?.height, { timeout: 3_000 }).toBe(68);
    await expect(page.getByRole('button', { name: 'Abrir menu' })).toBeVisible();
  });

  test('the chat link sits 80 px from the bottom, and clears the footer when it is in view', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 500 });
    await signIn(page, ACCOUNTS.legacySeller);
    // Make the page long enough for the footer to start out of view.
    // Through the CSSOM: the page's CSP refuses injected <style> elements.
    await page.evaluate(() => {
      document.querySelector<HTMLElement>('main.portal-content')!.style.minHeight = '2000px';
    });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.evaluate(() => window.dispatchEvent(new Event('resize')));

    const chat = page.getByTestId('chat-link');
    const footer = page.locator('footer.portal-footer');
    await expect(footer).not.toBeInViewport();
    const bottomOf = () => chat.evaluate((el) => Math.round(window.innerHeight - el.getBoundingClientRect().bottom));
    await expect.poll(bottomOf).toBe(80);

    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(footer).toBeInViewport();
    const visibleFooter = await footer.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0);
    });
    expect(visibleFooter).toBeGreaterThan(0);
    await expect
      .poll(async () => Math.abs((await bottomOf()) - (visibleFooter + 180)), {
        message: `chat bottom should be visible footer height (${visibleFooter}) + 180`,
      })
      .toBeLessThanOrEqual(2);

    // Back to the top: 80 px again.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(bottomOf).toBe(80);
  });

  test('the chat menu opens with "Fale conosco" and closes with Esc; the footer shows the numbers', async ({ page }) => {
    await signIn(page, ACCOUNTS.partner);
    const footer = page.locator('footer.portal-footer');
    await expect(footer).toContainText('Central de atendimento:');
    await expect(footer).toContainText('Chat:');
    const central = (await footer.getByRole('link').first().innerText()).trim();
    expect(central).toMatch(/\d/);
    const chatText = (await footer.locator('p', { hasText: 'Chat:' }).innerText()).replace('Chat:', '').trim();
    expect(chatText).toMatch(/\d/);

    const button = page.getByRole('button', { name: 'Fale conosco' });
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await button.click();
    const menu = page.getByRole('menu', { name: 'Fale conosco' });
    await expect(menu).toBeVisible();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    const whatsapp = menu.getByRole('menuitem', { name: `Chat no WhatsApp ${chatText}` });
    await expect(whatsapp).toBeVisible();
    await expect(whatsapp).toHaveAttribute('href', /^https:\/\/wa\.me\/55\d+$/);
    await expect(whatsapp).toHaveAttribute('target', '_blank');
    await expect(menu.getByRole('menuitem', { name: `Central de atendimento ${central}` })).toHaveAttribute('href', /^tel:\d+$/);

    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(button).toHaveAttribute('aria-expanded', 'false');

    // A click elsewhere closes it too.
    await button.click();
    await expect(menu).toBeVisible();
    await page.getByRole('heading', { level: 1 }).click();
    await expect(menu).toBeHidden();
  });
});

test.describe('profile page', () => {
  test('/v2/perfil shows the user data and the password form', async ({ page }) => {
    await signIn(page, ACCOUNTS.partner);
    await page.goto('/v2/perfil');
    await expect(page.getByRole('heading', { level: 1, name: 'Meu perfil' })).toBeVisible();
    const detail = (label: string) => page.locator('dl dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
    await expect(detail('Nome')).toHaveText(ACCOUNTS.partner.name);
    await expect(detail('E-mail')).toHaveText(ACCOUNTS.partner.email);
    await expect(detail('CPF')).toHaveText('***.***.***-60');
    await expect(detail('Perfil')).toHaveText('Parceiro');

    const form = page.getByRole('form', { name: 'Alterar senha' });
    await expect(form.getByLabel('Senha atual', { exact: true })).toBeVisible();
    await expect(form.getByLabel('Nova senha', { exact: true })).toBeVisible();
    await expect(form.getByLabel('Confirme a nova senha', { exact: true })).toBeVisible();
    await expect(form.getByRole('button', { name: 'Alterar senha' })).toBeVisible();
  });

  test('/perfil shows the legacy user data', async ({ page }) => {
    await signIn(page, ACCOUNTS.legacySeller);
    await page.goto('/perfil');
    const detail = (label: string) => page.locator('dl dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
    await expect(detail('Nome')).toHaveText(ACCOUNTS.legacySeller.name);
    await expect(detail('CPF')).toHaveText('***.***.***-35');
    await expect(page.getByRole('form', { name: 'Alterar senha' })).toBeVisible();
  });

  test('changing the password: a wrong current one is refused; a right one ends the other sessions', async ({ browser }) => {
    // substabelecido@ is signed in twice; its password is changed and then set back to the demo one.
    const NEW_PASSWORD = 'Nova@Senha2026';
    const a = await signedInContext(browser);
    const b = await signedInContext(browser);
    try {
      await gotoProfileForm(a);

      // The suite's one wrong current password (it counts toward the sign-in rate limit).
      await changePassword(a, 'Errada@2026', NEW_PASSWORD);
      await expect(a.getByText('Senha atual incorreta')).toBeVisible();

      await changePassword(a, DEMO_PASSWORD, NEW_PASSWORD);
      await expect(a.getByText('Senha alterada. As outras sessões abertas foram encerradas.')).toBeVisible();

      // B's session is revoked; A's is kept.
      await b.goto('/v2/home');
      await expect(b).toHaveURL(/\/v2\/login/);
      await a.goto('/v2/home');
      await expect(a).toHaveURL(path('/v2/home'));

      await gotoProfileForm(a);
      await changePassword(a, NEW_PASSWORD, DEMO_PASSWORD);
      await expect(a.getByText('Senha alterada. As outras sessões abertas foram encerradas.')).toBeVisible();
    } finally {
      await a.context().close();
      await b.context().close();
    }

    // The demo password works again (for the other specs).
    const c = await signedInContext(browser);
    await c.context().close();
  });
});

async function signedInContext(browser: Browser): Promise<Page> {
  const { baseURL, locale } = test.info().project.use;
  const context = await browser.newContext({ baseURL, locale });
  const page = await context.newPage();
  await signIn(page, ACCOUNTS.subagent);
  return page;
}

async function gotoProfileForm(page: Page) {
  await page.goto('/v2/perfil');
  const form = page.getByRole('form', { name: 'Alterar senha' });
  await form.scrollIntoViewIfNeeded();
  await waitForIslands(page); // the form hydrates when visible
}

async function changePassword(page: Page, current: string, next: string) {
  const form = page.getByRole('form', { name: 'Alterar senha' });
  await form.getByLabel('Senha atual', { exact: true }).fill(current);
  await form.getByLabel('Nova senha', { exact: true }).fill(next);
  await form.getByLabel('Confirme a nova senha', { exact: true }).fill(next);
  await form.getByRole('button', { name: 'Alterar senha' }).click();
}
