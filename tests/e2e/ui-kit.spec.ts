import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import { test } from './fixtures';
import { gotoHydrated } from './helpers';

/**
 * The UI kit as a user meets it, on the developer page /dev/kit-ui (open outside production; e2e
 * runs with PORTAL_ENV=TEST): masks (SPEC §5), the confirmation dialog, toasts (SPEC §9), the
 * paginated table, the stepper and keyboard focus.
 */

const KIT = '/dev/kit-ui';

const field = (page: Page, label: string): Locator => page.getByLabel(label, { exact: true });

/** axe-core's serious and critical violations (WCAG 2.x A/AA and best practices) of the page or a part. */
async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  const builder = include ? new AxeBuilder({ page }).include(include) : new AxeBuilder({ page });
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')} — ${v.help}`);
}

/** Types like a person (one key at a time), then leaves the field, which commits the mask. */
async function typeAndLeave(input: Locator, text: string): Promise<void> {
  await input.click();
  await input.pressSequentially(text);
  await input.blur();
}

/** A real paste (Ctrl+V) of `text` from the clipboard into `input`. */
async function paste(page: Page, input: Locator, text: string): Promise<void> {
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await input.focus();
  await page.keyboard.press('ControlOrMeta+V');
}

test.describe('UI kit page', () => {
  test.beforeEach(async ({ page }) => {
    await gotoHydrated(page, KIT);
  });

  test('opens without signing in', async ({ page }) => {
    await expect(page).toHaveURL(/\/dev\/kit-ui$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Kit de interface' })).toBeVisible();
  });

  test('has no serious accessibility violation, with the dialog closed or open, at any width', async ({ page }) => {
    await page.getByRole('button', { name: 'Mostrar erro' }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Nova cotação' }).click();
    expect(await seriousViolations(page, 'dialog')).toEqual([]);
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('masked inputs show the SPEC §5 formats as the user types', async ({ page }) => {
    const cases = [
      { mask: 'money', label: 'Valor (R$)', typed: '1234,56', shown: 'R$ 1.234,56', unmasked: '1234.56' },
      { mask: 'number', label: 'Número', typed: '-1234,56789', shown: '-1.234,5678', unmasked: '-1234.5678' },
      { mask: 'percentage', label: 'Percentual (%)', typed: '123,456', shown: '12,45', unmasked: '12.45' },
      { mask: 'area', label: 'Área construída', typed: '123456789', shown: '12.345.678 m²', unmasked: '12345678' },
      { mask: 'cpf', label: 'CPF', typed: '52998224725', shown: '529.982.247-25', unmasked: '52998224725' },
      { mask: 'cnpj', label: 'CNPJ', typed: '12abc34501de35', shown: '12.ABC.345/01DE-35', unmasked: '12ABC34501DE35' },
      { mask: 'phone', label: 'Telefone', typed: '11987654321', shown: '(11) 98765-4321', unmasked: '11987654321' },
      { mask: 'document', label: 'CPF ou CNPJ', typed: '11222333000181', shown: '11.222.333/0001-81', unmasked: '11222333000181' },
    ];
    for (const { mask, label, typed, shown, unmasked } of cases) {
      const input = field(page, label);
      await typeAndLeave(input, typed);
      await expect(input, label).toHaveValue(shown);
      await expect(page.getByTestId(`valor-${mask}`), label).toHaveText(shown);
      await expect(page.getByTestId(`sem-mascara-${mask}`), label).toHaveText(unmasked);
    }
  });

  test('money pads its cents when left and refuses a minus sign', async ({ page }) => {
    const money = field(page, 'Valor (R$)');
    await money.click();
    await money.press('-');
    await expect(money).toHaveValue('');
    await money.pressSequentially('-250');
    await expect(money).toHaveValue('R$ 250');
    await money.blur();
    await expect(money).toHaveValue('R$ 250,00');

    // The number mask, by contrast, takes negatives.
    await typeAndLeave(field(page, 'Número'), '-7');
    await expect(field(page, 'Número')).toHaveValue('-7');
  });

  test('the document field switches from CPF to CNPJ as the user types', async ({ page }) => {
    const documentField = field(page, 'CPF ou CNPJ');
    await documentField.click();
    await documentField.pressSequentially('52998224725');
    await expect(documentField).toHaveValue('529.982.247-25');
    await documentField.press('0');
    await expect(documentField).toHaveValue('52.998.224/7250');
    await documentField.press('Backspace');
    await expect(documentField).toHaveValue('529.982.247-25');
  });

  test('a pasted CPF or CNPJ is formatted, in the document field and in a plain text field', async ({ page, context, baseURL }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
    for (const label of ['CPF ou CNPJ', 'Texto livre']) {
      const input = field(page, label);
      await input.fill('');
      await paste(page, input, '52998224725');
      await expect(input, label).toHaveValue('529.982.247-25');
      await input.fill('');
      await paste(page, input, '11222333000181');
      await expect(input, label).toHaveValue('11.222.333/0001-81');
    }
    await expect(page.getByTestId('sem-mascara-document')).toHaveText('11222333000181');

    // Any other text is pasted as it is (less its '|').
    const text = field(page, 'Texto livre');
    await text.fill('');
    await paste(page, text, 'Maria | Silva');
    await expect(text).toHaveValue('Maria  Silva');
  });

  test("'|' never gets into a field", async ({ page }) => {
    await typeAndLeave(field(page, 'Texto livre'), 'a|b|c');
    await expect(field(page, 'Texto livre')).toHaveValue('abc');
    await typeAndLeave(field(page, 'CPF'), '529|982');
    await expect(field(page, 'CPF')).toHaveValue('529.982');
    await typeAndLeave(field(page, 'Número'), '|12');
    await expect(field(page, 'Número')).toHaveValue('12');
    await typeAndLeave(field(page, 'Valor (R$)'), '1|0');
    await expect(field(page, 'Valor (R$)')).toHaveValue('R$ 10,00');
  });

  test('masked inputs work inside a react-hook-form form', async ({ page }) => {
    const form = page.getByRole('form', { name: 'Formulário de exemplo' });
    await form.getByRole('button', { name: 'Enviar' }).click();
    await expect(form.getByText('Informe o CPF ou CNPJ.')).toBeVisible();
    await expect(field(page, 'Documento do segurado')).toHaveAttribute('aria-invalid', 'true');

    await typeAndLeave(field(page, 'Documento do segurado'), '52998224725');
    await typeAndLeave(field(page, 'Prêmio'), '99,9');
    await form.getByRole('button', { name: 'Enviar' }).click();
    await expect(page.getByTestId('formulario-enviado')).toHaveText(
      JSON.stringify({ documento: '529.982.247-25', premio: 'R$ 99,90', nome: '' }),
    );
  });

  test('the confirmation dialog takes focus, closes on Esc and gives focus back', async ({ page }) => {
    const opener = page.getByRole('button', { name: 'Nova cotação' });
    const choice = page.getByTestId('escolha-dialogo');
    const dialog = page.getByRole('dialog', { name: 'Atenção' });

    await opener.click();
    await expect(dialog).toBeVisible();
    await expect(dialog).toHaveAccessibleDescription('Esta ação irá interromper a simulação atual. Deseja iniciar uma nova cotação?');
    await expect(dialog.getByRole('button', { name: 'não' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'sim' })).toBeFocused();

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
    await expect(choice).toHaveText('fechado sem escolha');

    await opener.click();
    await dialog.getByRole('button', { name: 'sim' }).click();
    await expect(dialog).toBeHidden();
    await expect(choice).toHaveText('sim');
    await expect(opener).toBeFocused();

    await opener.press('Enter');
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'não' }).press('Enter');
    await expect(dialog).toBeHidden();
    await expect(choice).toHaveText('não');
    await expect(opener).toBeFocused();
  });

  test('a toast shows at the top right and hides after about 3 s (SPEC §9)', async ({ page }) => {
    await page.getByRole('button', { name: 'Mostrar erro' }).click();
    const shownAt = Date.now();
    const toast = page.getByRole('alert').filter({ hasText: 'Erro ao realizar requisição' });
    await expect(toast).toBeVisible();
    await expect(toast).toContainText('Tente novamente mais tarde!');

    const box = await toast.boundingBox();
    const viewport = page.viewportSize();
    expect(box && viewport).toBeTruthy();
    expect(box!.y).toBeLessThan(40);
    expect(viewport!.width - (box!.x + box!.width)).toBeLessThan(40);
    expect(box!.x).toBeGreaterThan(viewport!.width / 2);

    await expect(toast).toBeHidden({ timeout: 6000 });
    const elapsed = Date.now() - shownAt;
    expect(elapsed).toBeGreaterThan(2500);
    expect(elapsed).toBeLessThan(5000);
  });

  test('toasts of each kind, and closing one by hand', async ({ page }) => {
    await page.getByRole('button', { name: 'Mostrar sucesso' }).click();
    await page.getByRole('button', { name: 'Mostrar aviso' }).click();
    const success = page.getByRole('status').filter({ hasText: 'Cotação salva.' });
    const info = page.getByRole('status').filter({ hasText: 'A cotação vale por 30 dias.' });
    await expect(success).toBeVisible();
    await expect(info).toBeVisible();
    await success.getByRole('button', { name: 'Fechar' }).click();
    await expect(success).toBeHidden();
    await expect(info).toBeVisible();
  });

  test('the table pages through its rows', async ({ page }) => {
    const table = page.getByRole('table', { name: 'Cotações recentes' });
    const pagination = page.getByRole('navigation', { name: 'Paginação: Cotações recentes' });
    const rows = table.locator('tbody tr');

    await expect(rows).toHaveCount(5);
    await expect(rows.first()).toContainText('2026001');
    await expect(pagination.getByText('Página 1 de 5')).toBeVisible();
    await expect(pagination.getByRole('button', { name: 'Anterior' })).toBeDisabled();
    await expect(pagination.getByRole('button', { name: 'Página 1' })).toHaveAttribute('aria-current', 'page');

    await pagination.getByRole('button', { name: 'Próxima' }).click();
    await expect(pagination.getByText('Página 2 de 5')).toBeVisible();
    await expect(rows.first()).toContainText('2026006');
    await expect(pagination.getByRole('button', { name: 'Página 2' })).toHaveAttribute('aria-current', 'page');

    await pagination.getByRole('button', { name: 'Página 5' }).click();
    await expect(pagination.getByText('Página 5 de 5')).toBeVisible();
    await expect(rows).toHaveCount(3);
    await expect(rows.last()).toContainText('2026023');
    await expect(pagination.getByRole('button', { name: 'Próxima' })).toBeDisabled();

    await pagination.getByRole('button', { name: 'Anterior' }).click();
    await expect(pagination.getByText('Página 4 de 5')).toBeVisible();

    await expect(page.getByRole('table', { name: 'Apólices' })).toContainText('Nenhum registro encontrado.');
  });

  test('the table becomes cards on a narrow screen', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    const firstCell = page.getByRole('table', { name: 'Cotações recentes' }).locator('tbody td').first();
    await expect(firstCell).toHaveCSS('display', 'grid');
    await expect(page.getByRole('table', { name: 'Cotações recentes' }).locator('thead')).toHaveCSS('position', 'absolute');
  });

  test('the stepper marks the current step and links the completed ones', async ({ page }) => {
    const stepper = page.getByRole('navigation', { name: 'Etapas da cotação' });
    await expect(stepper.locator('[aria-current="step"]')).toContainText('Planos');
    await expect(stepper.getByRole('link', { name: 'Cadastro (concluída)' })).toHaveAttribute('href', '#etapa-cadastro');
    await expect(stepper.getByRole('link', { name: 'Risco (concluída)' })).toBeVisible();
    await expect(stepper.getByRole('link')).toHaveCount(2);

    await page.getByRole('button', { name: 'Próxima etapa' }).click();
    await expect(stepper.locator('[aria-current="step"]')).toContainText('Contratação');
    await expect(stepper.getByRole('link')).toHaveCount(3);
  });

  test('Tab reaches every control of the page, each with a visible focus', async ({ page }) => {
    // What a keyboard user can reach: enabled controls that are shown (not those of the closed dialog).
    const CONTROLS = 'main :is(a[href], button:not([disabled]), input:not([disabled]))';
    const expected = await page.evaluate(
      (selector) => [...document.querySelectorAll(selector)].filter((el) => el.checkVisibility()).length,
      CONTROLS,
    );
    expect(expected).toBeGreaterThan(30);

    const reached = new Set<number>();
    for (let i = 0; i < expected + 10 && reached.size < expected; i += 1) {
      await page.keyboard.press('Tab');
      const focus = await page.evaluate((selector) => {
        const controls = [...document.querySelectorAll(selector)].filter((el) => el.checkVisibility());
        const el = document.activeElement;
        if (!el || !controls.includes(el)) return null;
        const style = getComputedStyle(el);
        return {
          index: controls.indexOf(el),
          name: el.getAttribute('aria-label') ?? (el.textContent || el.id),
          outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
        };
      }, CONTROLS);
      if (!focus) continue;
      expect(focus.outline, `visible focus on ${focus.name}`).toBe(true);
      reached.add(focus.index);
    }
    expect(reached.size).toBe(expected);
  });
});

test('typing over a selected money value replaces it (the R$ prefix does not keep the old number)', async ({ page }) => {
  await gotoHydrated(page, '/dev/kit-ui');
  const premio = page.getByLabel('Prêmio');
  await premio.pressSequentially('100000');
  await premio.blur();
  await expect(premio).toHaveValue('R$ 100.000,00');
  await premio.click();
  await premio.press('Control+a');
  await premio.pressSequentially('30000');
  await premio.blur();
  await expect(premio).toHaveValue('R$ 30.000,00');
});
