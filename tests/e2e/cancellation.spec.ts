import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, latestEmail, signIn, waitForIslands } from './helpers';
import { sellResidential } from './selling';
import { formatBRL } from '../../src/lib/products/money';
import { shortTermPercent } from '../../src/lib/refund';

/**
 * Issues 14 and 27, cancelling a policy as a partner does it, both generations: a fresh policy sold
 * and paid by Pix, then the steps — motivo, coberturas, resumo with the refund shown before
 * confirming, cadastro-conta, sucesso — a reload resuming each, bad input told in pt-BR, two tabs
 * confirming once; the policy shows cancelled after and the insured is told. A day ahead is scheduled
 * and can be undone; a day in the past is the insurer's staff's alone. Another company's user gets the 404.
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

/** The insured's own CPF, as the account step shows it: a refund goes only to the insured's document (decision 056). */
async function insuredCpf(page: Page): Promise<string> {
  const text = (await page.getByText(/^Titular esperado:/).textContent()) ?? '';
  return /\d{3}\.\d{3}\.\d{3}-\d{2}/.exec(text)![0];
}

const showDay = (iso: string) => iso.split('-').reverse().join('/');

for (const generation of ['v2', 'v1'] as const) {
  // The legacy admin may charge (BOLETOS) the policy it sells, so its page shows the Pix to pay.
  const account = generation === 'v2' ? ACCOUNTS.partner : ACCOUNTS.legacyAdmin;

  test(`${generation}: the insurer cancels today — pro rata, the premium paid comes back to the insured's own key, and the insured is told`, async ({
    page,
    browser,
  }) => {
    // Sells, pays, cancels and reads the insured's mailbox: a long walk on a busy machine.
    test.setTimeout(120_000);
    await signIn(page, account);
    const policy = await paidPolicy(page, browser, generation);
    const insuredEmail = (await page
      .locator('dt', { hasText: /^E-mail$/ })
      .locator('+ dd')
      .textContent())!.trim();
    const start = `${policy.prefix}/endosso/cancelamento/motivo?contratacao=${policy.idContratacao}`;
    // From the policy's page, as a partner finds it.
    await page.getByRole('link', { name: 'Endossos' }).click();
    await page.getByRole('link', { name: 'Cancelar apólice' }).click();
    await expect(page).toHaveURL(start);
    // A step ahead of the draft goes back to the first it lacks.
    await page.goto(start.replace('motivo', 'resumo'));
    await expect(page).toHaveURL(start);

    // A day before the term is refused in pt-BR; nothing is kept.
    await reason(page, 'A seguradora', 'Falta de pagamento', '2020-01-01');
    await expect(page.getByText(/não pode valer antes do início da vigência/)).toBeVisible();
    await page.getByLabel('Cancelar a partir de').fill(isoPlus(0));
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page).toHaveURL(/\/cancelamento\/coberturas\?/);
    // A reload of the next step keeps the answer: going back shows it.
    await page.goBack();
    await waitForIslands(page);
    await expect(page.getByLabel('Cancelar a partir de')).toHaveValue(isoPlus(0));
    await page.goForward();
    await waitForIslands(page);
    await page.getByRole('radio', { name: 'Cancelar a apólice inteira' }).check();
    await page.getByRole('button', { name: 'Ver o resumo' }).click();
    await expect(page).toHaveURL(/\/cancelamento\/resumo\?/);

    const summary = page.getByTestId('resumo');
    await expect(summary.getByTestId('regra')).toHaveText('Cancelamento pela seguradora: proporcional aos dias (pro rata die)');
    await expect(summary.getByTestId('quando')).toHaveText(`A partir de ${showDay(isoPlus(0))}: o endosso é emitido ao confirmar.`);
    const refundRows = summary.getByTestId('restituicao');
    await expect(refundRows.getByRole('row', { name: /Prêmio líquido a devolver/ })).toContainText(formatBRL(policy.net));
    await expect(summary.getByTestId('premio-depois')).toHaveText(formatBRL(0));
    const refund = (await summary.getByTestId('total-restituir').textContent())!.trim();
    expect(cents(refund)).toBeGreaterThan(policy.net); // the IOF comes back too

    await page.reload();
    await expect(page.getByTestId('total-restituir')).toHaveText(refund);
    await page.getByRole('link', { name: 'Informar a conta da restituição' }).click();
    await expect(page).toHaveURL(/\/cancelamento\/resumo\/cadastro-conta\?/);
    await waitForIslands(page);

    // Bad keys, a key that does not show whose it is (issue 27) and someone else's account are refused
    // before anything is cancelled.
    await page.getByLabel('Chave Pix').fill('chave errada');
    await page.getByRole('button', { name: 'Confirmar cancelamento' }).click();
    await expect(page.getByText('Chave Pix inválida: informe o CPF ou o CNPJ do segurado.')).toBeVisible();
    await page.getByLabel('Chave Pix').fill('terceiro.qualquer@gmail.com');
    await page.getByRole('button', { name: 'Confirmar cancelamento' }).click();
    await expect(page.getByText(/^Use a chave Pix de CPF\/CNPJ do segurado ou uma conta de que seja titular/)).toBeVisible();
    await page.getByRole('radio', { name: 'Conta bancária' }).check();
    await page.getByLabel('Banco').selectOption('341');
    await page.getByLabel('Agência (sem dígito)').fill('1234');
    await page.getByLabel('Conta com dígito').fill('123456');
    await page.getByLabel('CPF/CNPJ do titular').pressSequentially('11144477735');
    await page.getByRole('button', { name: 'Confirmar cancelamento' }).click();
    await expect(page.getByText('A conta deve ser do segurado: o CPF/CNPJ do titular é diferente do segurado.')).toBeVisible();

    // Two tabs confirm the same draft: one cancellation, both land on its endorsement.
    const cpf = await insuredCpf(page);
    const other = await page.context().newPage();
    await other.goto(page.url());
    await waitForIslands(other);
    await page.getByRole('radio', { name: 'Pix', exact: true }).check();
    await page.getByLabel('Chave Pix').fill(cpf);
    await page.getByRole('button', { name: 'Confirmar cancelamento' }).click();
    await page.getByRole('button', { name: 'Sim, cancelar' }).click();
    await expect(page).toHaveURL(/\/cancelamento\/sucesso\?/);
    const nrEndosso = (await page.getByTestId('nr-endosso').textContent())!.trim();
    await expect(page.getByTestId('restituicao-valor')).toHaveText(refund);
    await expect(page.getByText('A seguradora: Falta de pagamento')).toBeVisible();
    await expect(page.getByText(`Pix (CPF) *******${cpf.replace(/\D/g, '').slice(-4)}`)).toBeVisible();

    await other.getByLabel('Chave Pix').fill(cpf);
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

    // The insured is told when and how the refund is paid (issue 27).
    const notice = await latestEmail(page, insuredEmail, `Cancelamento da apólice ${policy.nrApolice} — endosso ${nrEndosso}`);
    expect(notice.text).toContain(`Você receberá a restituição de ${refund} até`);
    expect(notice.text).toContain('por decisão da seguradora (Falta de pagamento)');
  });

  // Issue 27: a day ahead used to cancel at once, leaving the coverage to run unpaid to that day.
  test(`${generation}: a day ahead is scheduled — the policy stays in force until then, and the schedule can be undone`, async ({
    page,
    browser,
  }) => {
    await signIn(page, account);
    const policy = await paidPolicy(page, browser, generation);
    const start = `${policy.prefix}/endosso/cancelamento/motivo?contratacao=${policy.idContratacao}`;
    const home = `${policy.prefix}/endosso/home/${policy.idContratacao}`;
    await page.goto(start);
    await reason(page, 'O segurado', 'Venda ou perda do bem segurado', isoPlus(100));
    await expect(page).toHaveURL(/\/cancelamento\/coberturas\?/);
    await waitForIslands(page);
    await page.getByRole('radio', { name: 'Cancelar a apólice inteira' }).check();
    await page.getByRole('button', { name: 'Ver o resumo' }).click();

    const summary = page.getByTestId('resumo');
    await expect(summary.getByTestId('quando')).toHaveText(
      `Agendado para ${showDay(isoPlus(100))}: a apólice segue em vigor até lá, e o endosso é emitido nesse dia.`,
    );
    await expect(summary.getByTestId('estimativa')).toBeVisible();
    await expect(summary.getByTestId('regra')).toHaveText('Pedido do segurado: tabela de prazo curto');
    const percent = shortTermPercent(100);
    const kept = Math.round((policy.net * percent) / 100);
    const refundRows = summary.getByTestId('restituicao');
    await expect(refundRows.getByRole('row', { name: /Prêmio retido/ })).toContainText(formatBRL(kept));
    await expect(refundRows.getByRole('row', { name: /Prêmio retido/ })).toContainText(`${percent.toLocaleString('pt-BR')} %`);
    await page.getByRole('link', { name: 'Informar a conta da restituição' }).click();
    await waitForIslands(page);
    await page.getByLabel('Chave Pix').fill(await insuredCpf(page));
    await page.getByRole('button', { name: 'Agendar cancelamento' }).click();
    await page.getByRole('button', { name: 'Sim, agendar' }).click();
    await expect(page).toHaveURL(/\/cancelamento\/sucesso\?/);
    await expect(page.getByRole('heading', { name: 'Cancelamento agendado' })).toBeVisible();
    await expect(page.getByTestId('agendado-para')).toHaveText(showDay(isoPlus(100)));

    // The policy goes on; its page and its endorsements say what is scheduled; no second cancellation.
    await page.getByRole('link', { name: 'Ver a apólice' }).click();
    await expect(page.getByText('Vigente').first()).toBeVisible();
    await expect(page.getByTestId('cancelamento-agendado')).toContainText(`Cancelamento agendado para ${showDay(isoPlus(100))}`);
    await page.goto(start);
    await expect(page.getByText(`Esta apólice já tem um cancelamento agendado para ${showDay(isoPlus(100))}`)).toBeVisible();
    await page.goto(home);
    await expect(page.getByRole('link', { name: 'Cancelar apólice' })).toHaveCount(0);
    await waitForIslands(page);
    await page.getByRole('button', { name: 'Desfazer o agendamento' }).click();
    await page.getByRole('button', { name: 'Sim, desfazer' }).click();
    await expect(page.getByRole('link', { name: 'Cancelar apólice' })).toBeVisible();
    await expect(page.getByTestId('cancelamento-agendado')).toHaveCount(0);
  });
}

// Issue 27: 45 days after contracting, a partner dated a cancellation to the term's start and was
// given a withdrawal's full refund for coverage already run.
test('a partner cannot date a cancellation back, in either generation; the insurer’s staff may, up to 30 days and with a reason', async ({
  page,
  browser,
}) => {
  await signIn(page, ACCOUNTS.partner);
  // The demo's policy sold 50 days ago (its 2nd installment overdue).
  await page.goto('/v2/apolices?segurado=Fernanda');
  await page
    .getByRole('link', { name: /^\d{15}$/ })
    .first()
    .click();
  await page.getByRole('link', { name: 'Endossos' }).click();
  await page.getByRole('link', { name: 'Cancelar apólice' }).click();
  const motivo = page.url();
  const termStart = /vigência de (\d{2})\/(\d{2})\/(\d{4})/.exec((await page.locator('.lead').textContent())!)!;
  const startIso = `${termStart[3]}-${termStart[2]}-${termStart[1]}`;
  await reason(page, 'O segurado', 'Contratou outro seguro', startIso);
  await expect(
    page.getByText(
      `Só a seguradora cancela com data retroativa: escolha hoje (${showDay(isoPlus(0))}) ou um dia adiante, que fica agendado.`,
    ),
  ).toBeVisible();
  await page.getByLabel('Cancelar a partir de').fill(isoPlus(0));
  await page.getByRole('button', { name: 'Continuar' }).click();
  await waitForIslands(page);
  await page.getByRole('radio', { name: 'Cancelar a apólice inteira' }).check();
  await page.getByRole('button', { name: 'Ver o resumo' }).click();
  await expect(page.getByTestId('regra')).toHaveText('Pedido do segurado: tabela de prazo curto');

  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, ACCOUNTS.insurerAdmin);
  await admin.goto(motivo);
  await reason(admin, 'O segurado', 'Contratou outro seguro', isoPlus(-40));
  await expect(
    admin.getByText(`Um cancelamento retroativo vale desde ${showDay(isoPlus(-30))}, no máximo: 30 dias antes de hoje.`),
  ).toBeVisible();
  await admin.getByLabel('Cancelar a partir de').fill(isoPlus(-10));
  await admin.getByRole('button', { name: 'Continuar' }).click();
  await expect(admin.getByText(/^Justifique a data retroativa/)).toBeVisible();
  await admin.getByLabel('Justificativa da data retroativa').fill('Pedido do segurado por carta, recebida há 10 dias.');
  await admin.getByRole('button', { name: 'Continuar' }).click();
  await expect(admin).toHaveURL(/\/cancelamento\/coberturas\?/);
  await waitForIslands(admin);
  await admin.getByRole('radio', { name: 'Cancelar a apólice inteira' }).check();
  await admin.getByRole('button', { name: 'Ver o resumo' }).click();
  await expect(admin.getByTestId('quando')).toHaveText(
    `Retroativo a ${showDay(isoPlus(-10))}, pela seguradora: o endosso é emitido ao confirmar.`,
  );
  await expect(admin.getByTestId('regra')).toHaveText('Pedido do segurado: tabela de prazo curto');
  await admin.context().close();

  // The legacy administrators' group is a partner's too (admin@legado belongs to Horizonte): it may not
  // date a cancellation back either. The demo's legacy policy was sold 20 days ago.
  const legacy = await (await browser.newContext()).newPage();
  await signIn(legacy, ACCOUNTS.legacyAdmin);
  await legacy.goto('/apolices?segurado=Ot%C3%A1vio');
  await legacy
    .getByRole('link', { name: /^\d{15}$/ })
    .first()
    .click();
  await legacy.getByRole('link', { name: 'Endossos' }).click();
  await legacy.getByRole('link', { name: 'Cancelar apólice' }).click();
  await reason(legacy, 'O segurado', 'Contratou outro seguro', isoPlus(-5));
  await expect(legacy.getByText(/^Só a seguradora cancela com data retroativa/)).toBeVisible();
  await expect(legacy.getByLabel('Observações (opcional)')).toBeVisible();
  await legacy.context().close();
});

test('v2: asked within the 7 days for a day ahead, the resumo says today would give everything back', async ({ page, browser }) => {
  await signIn(page, ACCOUNTS.partner);
  const policy = await paidPolicy(page, browser, 'v2');
  await page.goto(`/v2/endosso/cancelamento/motivo?contratacao=${policy.idContratacao}`);
  await reason(page, 'O segurado', 'Desistência da contratação', isoPlus(10));
  // The coverages step, hydrated: a click before its island wakes would post the bare form.
  await expect(page).toHaveURL(/\/cancelamento\/coberturas\?/);
  await waitForIslands(page);
  await page.getByRole('radio', { name: 'Cancelar a apólice inteira' }).check();
  await page.getByRole('button', { name: 'Ver o resumo' }).click();
  await expect(page.getByTestId('regra')).toHaveText('Pedido do segurado: tabela de prazo curto');
  await expect(page.getByTestId('arrependimento-hoje')).toContainText('cancelando a partir de hoje, tudo o que foi pago é devolvido');
  await page.getByTestId('arrependimento-hoje').getByRole('link', { name: 'Mudar a data' }).click();
  await waitForIslands(page);
  await page.getByLabel('Cancelar a partir de').fill(isoPlus(0));
  await page.getByRole('button', { name: 'Continuar' }).click();
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Ver o resumo' }).click();
  await expect(page.getByTestId('regra')).toHaveText('Arrependimento em até 7 dias (CDC, art. 49): devolução integral');
  await expect(page.getByTestId('arrependimento-hoje')).toHaveCount(0);
});

test('v2: cancelled within 7 days of contracting, everything paid comes back', async ({ page, browser }) => {
  await signIn(page, ACCOUNTS.partner);
  const policy = await paidPolicy(page, browser, 'v2');
  await page.goto(`/v2/endosso/cancelamento/motivo?contratacao=${policy.idContratacao}`);
  await reason(page, 'O segurado', 'Desistência da contratação', isoPlus(0));
  // The coverages step, hydrated: a click before its island wakes would post the bare form.
  await expect(page).toHaveURL(/\/cancelamento\/coberturas\?/);
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Ver o resumo' }).click();
  await expect(page.getByTestId('regra')).toHaveText('Arrependimento em até 7 dias (CDC, art. 49): devolução integral');
  await expect(page.getByTestId('total-restituir')).toHaveText(formatBRL(policy.total));
});

test('v2: a partial cancellation drops an additional coverage and keeps the policy in force', async ({ page, browser }) => {
  await signIn(page, ACCOUNTS.partner);
  const policy = await paidPolicy(page, browser, 'v2');
  await page.goto(`/v2/endosso/cancelamento/motivo?contratacao=${policy.idContratacao}`);
  await reason(page, 'O segurado', 'Contratou outro seguro', isoPlus(0));
  // The coverages step, hydrated: a click before its island wakes would post the bare form.
  await expect(page).toHaveURL(/\/cancelamento\/coberturas\?/);
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
  if (await page.getByLabel('Chave Pix').isVisible()) await page.getByLabel('Chave Pix').fill(await insuredCpf(page));
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
