import { expect, test, type Browser, type Page } from '@playwright/test';
import { ACCOUNTS, signIn, waitForIslands } from './helpers';
import { sellResidential } from './selling';
import { formatBRL } from '../../src/lib/products/money';
import { shortTermPercent } from '../../src/lib/refund';

/**
 * Issue 14, cancelling a policy as a partner does it, both generations: a fresh policy sold and paid
 * by Pix, then the steps — motivo, coberturas, resumo with the refund shown before confirming,
 * cadastro-conta, sucesso — a reload resuming each, bad input told in pt-BR, two tabs confirming
 * once; the policy shows cancelled after. Another company's user gets the 404 page.
 */
type Generation = 'v1' | 'v2';
const cents = (text: string) => Number(text.replace(/[^\d,]/g, '').replace(',', '.')) * 100;
const isoPlus = (days: number) => new Date(Date.now() - 3 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);

/** Sells a residential policy paid at once by Pix, pays it on the demo bank, and answers its numbers. */
async function paidPolicy(page: Page, browser: Browser, generation: Generation) {
  await sellResidential(page, { generation, method: 'Pix (à vista)' });
  await expect(page.getByTestId('situacao-proposta')).toHaveText('Aceita');
  const nrApolice = (await page.getByTestId('nr-apolice').textContent())!.trim();
  const prefix = generation === 'v2' ? '/v2' : '';
  await page.goto(`${prefix}/apolices/${nrApolice}`);
  const pix = (await page.getByTestId('pix-1').textContent())!.trim();
  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, ACCOUNTS.insurerAdmin);
  await admin.goto('/banco-demonstracao');
  await waitForIslands(admin);
  await admin.getByLabel('Linha digitável ou Pix copia e cola').fill(pix);
  await admin.getByRole('button', { name: 'Pagar' }).click();
  await expect(admin.getByRole('status')).toContainText('Pago:');
  await admin.context().close();
  await page.reload();
  const contrato = (await page
    .locator('dt', { hasText: /^Contrato$/ })
    .locator('+ dd')
    .textContent())!.trim();
  const net = cents((await page.locator('.premium div', { hasText: 'Prêmio líquido' }).locator('dd').textContent())!);
  const total = cents((await page.getByTestId('premio-total').textContent())!);
  return { nrApolice, idContratacao: Number(contrato), net, total, prefix };
}

async function reason(page: Page, requester: string, motivo: string, day: string) {
  await waitForIslands(page);
  await page.getByRole('radio', { name: requester }).check();
  await page.getByLabel('Motivo', { exact: true }).selectOption({ label: motivo });
  await page.getByLabel('Cancelar a partir de').fill(day);
  await page.getByRole('button', { name: 'Continuar' }).click();
}

for (const generation of ['v2', 'v1'] as const) {
  // The legacy admin may charge (BOLETOS) the policy it sells, so its page shows the Pix to pay.
  const account = generation === 'v2' ? ACCOUNTS.partner : ACCOUNTS.legacyAdmin;

  test(`${generation}: the insured cancels after 100 days — the short-term table's share is kept, the rest comes back by Pix`, async ({
    page,
    browser,
  }) => {
    await signIn(page, account);
    const policy = await paidPolicy(page, browser, generation);
    const start = `${policy.prefix}/endosso/cancelamento/motivo?contratacao=${policy.idContratacao}`;
    // From the policy's page, as a partner finds it.
    await page.getByRole('link', { name: 'Endossos' }).click();
    await page.getByRole('link', { name: 'Cancelar apólice' }).click();
    await expect(page).toHaveURL(start);
    // A step ahead of the draft goes back to the first it lacks.
    await page.goto(start.replace('motivo', 'resumo'));
    await expect(page).toHaveURL(start);

    // A day before the term is refused in pt-BR; nothing is kept.
    await reason(page, 'O segurado', 'Venda ou perda do bem segurado', '2020-01-01');
    await expect(page.getByText(/não pode valer antes do início da vigência/)).toBeVisible();
    await page.getByLabel('Cancelar a partir de').fill(isoPlus(100));
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page).toHaveURL(/\/cancelamento\/coberturas\?/);
    // A reload of the next step keeps the answer: going back shows it.
    await page.goBack();
    await waitForIslands(page);
    await expect(page.getByLabel('Cancelar a partir de')).toHaveValue(isoPlus(100));
    await page.goForward();
    await waitForIslands(page);
    await page.getByRole('radio', { name: 'Cancelar a apólice inteira' }).check();
    await page.getByRole('button', { name: 'Ver o resumo' }).click();
    await expect(page).toHaveURL(/\/cancelamento\/resumo\?/);

    const summary = page.getByTestId('resumo');
    await expect(summary.getByTestId('regra')).toHaveText('Pedido do segurado: tabela de prazo curto');
    const percent = shortTermPercent(100);
    const kept = Math.round((policy.net * percent) / 100);
    const refundRows = summary.getByTestId('restituicao');
    await expect(refundRows.getByRole('row', { name: /Prêmio retido/ })).toContainText(formatBRL(kept));
    await expect(refundRows.getByRole('row', { name: /Prêmio retido/ })).toContainText(`${percent.toLocaleString('pt-BR')} %`);
    await expect(refundRows.getByRole('row', { name: /Prêmio líquido a devolver/ })).toContainText(formatBRL(policy.net - kept));
    await expect(summary.getByTestId('premio-depois')).toHaveText(formatBRL(0));
    const refund = (await summary.getByTestId('total-restituir').textContent())!.trim();
    expect(cents(refund)).toBeGreaterThan(policy.net - kept); // the IOF comes back too

    await page.reload();
    await expect(page.getByTestId('total-restituir')).toHaveText(refund);
    await page.getByRole('link', { name: 'Informar a conta da restituição' }).click();
    await expect(page).toHaveURL(/\/cancelamento\/resumo\/cadastro-conta\?/);
    await waitForIslands(page);

    // Bad keys and someone else's account are refused before anything is cancelled.
    await page.getByLabel('Chave Pix').fill('chave errada');
    await page.getByRole('button', { name: 'Confirmar cancelamento' }).click();
    await expect(page.getByText('Chave Pix inválida: use CPF, CNPJ, e-mail, celular com DDD ou a chave aleatória.')).toBeVisible();
    await page.getByRole('radio', { name: 'Conta bancária' }).check();
    await page.getByLabel('Banco').selectOption('341');
    await page.getByLabel('Agência (sem dígito)').fill('1234');
    await page.getByLabel('Conta com dígito').fill('123456');
    await page.getByLabel('CPF/CNPJ do titular').pressSequentially('11144477735');
    await page.getByRole('button', { name: 'Confirmar cancelamento' }).click();
    await expect(page.getByText('A conta deve ser do segurado: o CPF/CNPJ do titular é diferente do segurado.')).toBeVisible();

    // Two tabs confirm the same draft: one cancellation, both land on its endorsement.
    const other = await page.context().newPage();
    await other.goto(page.url());
    await waitForIslands(other);
    await page.getByRole('radio', { name: 'Pix', exact: true }).check();
    await page.getByLabel('Chave Pix').fill('segurado@exemplo.com.br');
    await page.getByRole('button', { name: 'Confirmar cancelamento' }).click();
    await page.getByRole('button', { name: 'Sim, cancelar' }).click();
    await expect(page).toHaveURL(/\/cancelamento\/sucesso\?/);
    const nrEndosso = (await page.getByTestId('nr-endosso').textContent())!.trim();
    await expect(page.getByTestId('restituicao-valor')).toHaveText(refund);
    await expect(page.getByText('Pix (E-mail) s***@exemplo.com.br')).toBeVisible();

    await other.getByLabel('Chave Pix').fill('segurado@exemplo.com.br');
    await other.getByRole('button', { name: 'Confirmar cancelamento' }).click();
    await other.getByRole('button', { name: 'Sim, cancelar' }).click();
    await expect(other).toHaveURL(/\/cancelamento\/sucesso\?/);
    await expect(other.getByTestId('nr-endosso')).toHaveText(nrEndosso);

    await page.getByRole('link', { name: 'Ver a apólice' }).click();
    await expect(page.getByText('Cancelada').first()).toBeVisible();
    await expect(page.getByTestId('parcelas')).toContainText('Paga em');
    // A cancelled policy takes no other cancellation.
    await page.goto(start);
    await expect(page.getByText('Esta apólice está cancelada: não aceita endossos.')).toBeVisible();
  });
}

test('v2: cancelled within 7 days of contracting, everything paid comes back', async ({ page, browser }) => {
  await signIn(page, ACCOUNTS.partner);
  const policy = await paidPolicy(page, browser, 'v2');
  await page.goto(`/v2/endosso/cancelamento/motivo?contratacao=${policy.idContratacao}`);
  await reason(page, 'O segurado', 'Desistência da contratação', isoPlus(0));
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Ver o resumo' }).click();
  await expect(page.getByTestId('regra')).toHaveText('Arrependimento em até 7 dias (CDC, art. 49): devolução integral');
  await expect(page.getByTestId('total-restituir')).toHaveText(formatBRL(policy.total));
});

test('v2: a partial cancellation drops an additional coverage and keeps the policy in force', async ({ page, browser }) => {
  await signIn(page, ACCOUNTS.partner);
  const policy = await paidPolicy(page, browser, 'v2');
  await page.goto(`/v2/endosso/cancelamento/motivo?contratacao=${policy.idContratacao}`);
  await reason(page, 'O segurado', 'Contratou outro seguro', isoPlus(30));
  await waitForIslands(page);
  await page.getByRole('radio', { name: 'Cancelar só algumas coberturas adicionais' }).check();
  await page.getByRole('button', { name: 'Ver o resumo' }).click();
  await expect(page.getByText('Escolha ao menos uma cobertura adicional a cancelar.')).toBeVisible();
  await page.getByRole('checkbox', { name: /Danos elétricos/ }).check();
  await page.getByRole('button', { name: 'Ver o resumo' }).click();
  await expect(page.getByTestId('resumo')).toContainText('Danos elétricos');
  const after = cents((await page.getByTestId('premio-depois').textContent())!);
  expect(after).toBeGreaterThan(0);
  expect(after).toBeLessThan(policy.total);
  await page.getByRole('link', { name: /Informar a conta|Continuar/ }).click();
  await waitForIslands(page);
  if (await page.getByLabel('Chave Pix').isVisible()) await page.getByLabel('Chave Pix').fill('segurado@exemplo.com.br');
  await page.getByRole('button', { name: 'Confirmar cancelamento' }).click();
  await page.getByRole('button', { name: 'Sim, cancelar' }).click();
  await expect(page.getByRole('heading', { name: 'Coberturas canceladas' })).toBeVisible();
  await page.getByRole('link', { name: 'Ver a apólice' }).click();
  await expect(page.getByTestId('premio-total')).toHaveText(formatBRL(after));
  await expect(page.getByText('Vigente').first()).toBeVisible();

  // Another company's user: the same 404 as a contract that does not exist.
  const stranger = await (await browser.newContext()).newPage();
  await signIn(stranger, ACCOUNTS.subagent);
  await stranger.goto(`/v2/endosso/cancelamento/motivo?contratacao=${policy.idContratacao}`);
  await expect(stranger.getByText('Desculpe, esta página não está disponível.')).toBeVisible();
});
