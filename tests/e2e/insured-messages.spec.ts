import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures';
import { ACCOUNTS, BASE_URL, latestEmail, screenshotsAt, signIn, waitForIslands, type Generation, apiSignIn } from './helpers';
import { sellResidential } from './selling';
import { startOwnServer, type OwnServer, ownPort } from './own-server';
import { addDays } from '../../src/lib/calendar';
import { brasiliaDay, formatIsoDate } from '../../src/lib/format';
import { OVERDUE_SECOND_COPY_DAYS, overdueSendNote } from '../../src/lib/insured-messages';

/**
 * Issue 31, the insured kept informed, in both generations: the partner sends the insured an
 * installment's boleto and Pix from the policy page, the message is in the demo mailbox, and its link
 * opens the boleto without an account, with a "Copiar" that copies; an overdue installment produces
 * one reminder however often the job runs (a restart included); the insured stops the reminders
 * through the reminder's link; an overdue installment is offered in the share box, and its send
 * issues the 2ª via once (issue 42 item 16).
 */
const INSURED = 'mariana.pereira@exemplo.com.br';
const POLICIES = { v1: '/apolices', v2: '/v2/apolices' } as const;

async function sellAndOpenPolicy(page: Page, generation: Generation): Promise<string> {
  await sellResidential(page, { generation, method: 'Boleto bancário' });
  await expect(page.getByTestId('situacao-proposta')).toHaveText('Aceita');
  const nrApolice = (await page.getByTestId('nr-apolice').textContent())!.trim();
  await page.goto(`${POLICIES[generation]}/${nrApolice}`);
  await waitForIslands(page);
  return nrApolice;
}

for (const [generation, account] of [
  ['v2', ACCOUNTS.partner],
  ['v1', ACCOUNTS.legacySeller],
] as const) {
  test(`${generation}: the boleto sent from the policy page reaches the mailbox and its link opens it with a working Copiar`, async ({
    page,
    browser,
  }) => {
    await signIn(page, account);
    const nrApolice = await sellAndOpenPolicy(page, generation);
    const section = page.getByRole('region', { name: 'Enviar ao segurado' });

    // Another address, mistyped: a pt-BR field error, nothing sent.
    await section.getByRole('radio', { name: 'Outro e-mail' }).check();
    await section.getByRole('textbox', { name: 'E-mail' }).fill('mariana@');
    await section.getByTestId('envio-apolice').getByRole('button', { name: 'Enviar apólice por e-mail' }).click();
    await expect(section.getByText('E-mail inválido')).toBeVisible();

    // The insured's own address: the 1st installment's boleto and Pix.
    await section.getByRole('radio', { name: /E-mail do segurado/ }).check();
    const first = section.getByTestId('envio-boleto-1');
    await first.getByRole('button', { name: 'Enviar boleto/Pix por e-mail' }).click();
    await expect(first.getByRole('status')).toHaveText(`Enviado para ${INSURED}.`);

    // The WhatsApp share link carries an expiring boleto link.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await first.getByRole('button', { name: /Copiar link para WhatsApp/ }).click();
    const whatsapp = first.getByTestId('link-whatsapp');
    await expect(whatsapp).toHaveAttribute('href', /^https:\/\/wa\.me\/\?text=.*boleto-digital%2F[\w-]{43}$/);

    const mail = await latestEmail(page, INSURED, `Boleto e Pix da 1ª parcela — apólice ${nrApolice}`);
    const link = mail.links.find((href) => /\/boleto-digital\/[\w-]{43}$/.test(href));
    expect(link, mail.text).toBeDefined();

    // The insured, with no account, opens it.
    const insured = await browser.newContext({ baseURL: BASE_URL, permissions: ['clipboard-read', 'clipboard-write'] });
    const boleto = await insured.newPage();
    await boleto.goto(new URL(link!).pathname);
    await expect(boleto.getByRole('heading', { level: 1 })).toHaveText('Boleto e Pix da 1ª parcela');
    await expect(boleto.getByTestId('nr-apolice')).toHaveText(nrApolice);
    const line = (await boleto.getByTestId('linha').textContent())!.trim();
    expect(line).toMatch(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
    await boleto.getByRole('button', { name: 'Copiar linha digitável' }).click();
    await expect(boleto.getByRole('status').first()).toHaveText('Copiado!');
    expect(await boleto.evaluate(() => navigator.clipboard.readText())).toBe(line.replace(/\D/g, ''));
    await boleto.getByRole('button', { name: 'Copiar Pix copia e cola' }).click();
    expect(await boleto.evaluate(() => navigator.clipboard.readText())).toBe((await boleto.getByTestId('pix').textContent())!.trim());
    const pdf = await boleto.request.get((await boleto.getByTestId('boleto-pdf').getAttribute('href'))!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    await screenshotsAt(boleto, 'insured-messages', `boleto-digital-${generation}`);
    await insured.close();

    // The send is in the policy's access log (the insurer's admin reads it).
    if (generation === 'v2') {
      const admin = await (await browser.newContext({ baseURL: BASE_URL })).newPage();
      await signIn(admin, ACCOUNTS.insurerAdmin);
      await admin.goto(`/v2/log-acesso?${new URLSearchParams({ registro: nrApolice })}`);
      await expect(admin.getByText('Boleto e Pix enviados por e-mail ao segurado').first()).toBeVisible();
      await admin.context().close();
    }
    await screenshotsAt(page, 'insured-messages', `apolice-enviar-${generation}`);
  });
}

// ─── The reminders, on a server of the test's own with its clock set ahead ──────────────────────

const PORT = ownPort('insured-messages');
let first: OwnServer | undefined;
let later: OwnServer | undefined;
let again: OwnServer | undefined;
let sold: OwnServer | undefined;
let overdue: OwnServer | undefined;
test.afterAll(() => {
  overdue?.dispose();
  sold?.dispose();
  again?.dispose();
  later?.dispose();
  first?.dispose();
});

/** The mailbox of a server of our own: the messages to `to` whose subject holds `subject`. */
async function mailbox(browser: Browser, base: string, to: string, subject: string) {
  const context = await browser.newContext({ baseURL: base });
  await apiSignIn(context, ACCOUNTS.insurerAdmin, { base });
  const page = await context.newPage();
  await page.goto(`/caixa-postal?${new URLSearchParams({ para: to, assunto: subject })}`);
  const articles = page.getByRole('article');
  const found = await Promise.all(
    (await articles.all()).map(async (a) => ({
      text: (await a.textContent()) ?? '',
      links: await a.getByRole('link').evaluateAll((links) => links.map((l) => (l as HTMLAnchorElement).href)),
    })),
  );
  await context.close();
  return found;
}

test('an overdue installment produces one reminder, whatever the turns and restarts; the insured opts out through its link', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  first = await startOwnServer(PORT);
  const sale = await (await browser.newContext({ baseURL: first.base })).newPage();
  await signIn(sale, ACCOUNTS.partner);
  await sellResidential(sale, { method: 'Boleto bancário' });
  const nrApolice = (await sale.getByTestId('nr-apolice').textContent())!.trim();
  await sale.goto(`/v2/apolices/${nrApolice}`);
  const due = (await sale.getByTestId('parcela-1').getByRole('cell').nth(1).textContent())!.trim().split('/').reverse().join('-');
  await sale.context().close();
  first.child.kill('SIGTERM');
  expect(await first.exited).toBe(0);

  // Two days after the due date: the job's first turn (5 s after the start) sends the notice.
  const today = brasiliaDay(new Date());
  const offset = String(Math.round((Date.parse(addDays(due, 2)) - Date.parse(today)) / 86_400_000));
  const subject = `Parcela vencida — 2ª via da 1ª parcela da apólice ${nrApolice}`;
  later = await startOwnServer(PORT, { CLOCK_OFFSET_DAYS: offset }, first);
  let notices: Awaited<ReturnType<typeof mailbox>> = [];
  await expect(async () => {
    notices = await mailbox(browser, later!.base, INSURED, subject);
    expect(notices).toHaveLength(1);
  }).toPass({ timeout: 60_000 });
  later.child.kill('SIGTERM');
  expect(await later.exited).toBe(0);

  // Restarted on the same data: its turns find the reminder decided.
  again = await startOwnServer(PORT, { CLOCK_OFFSET_DAYS: offset }, first);
  await new Promise((done) => setTimeout(done, 8_000)); // past the first turn (5 s)
  expect(await mailbox(browser, again.base, INSURED, subject)).toHaveLength(1);

  // The insured opens "Parar de receber lembretes" from the notice.
  const optOut = notices[0]!.links.find((href) => /\/lembretes\/[\w-]{43}$/.test(href));
  expect(optOut, notices[0]!.text).toBeDefined();
  const insured = await (await browser.newContext({ baseURL: again.base })).newPage();
  await insured.goto(new URL(optOut!).pathname);
  await expect(insured.getByRole('heading', { level: 1 })).toHaveText('Lembretes do seguro');
  await insured.getByRole('button', { name: 'Parar de receber lembretes' }).click();
  await expect(insured.getByTestId('confirmacao')).toContainText('você não receberá mais lembretes');
  await expect(insured.getByRole('button', { name: 'Voltar a receber lembretes' })).toBeVisible();
  await screenshotsAt(insured, 'insured-messages', 'lembretes');
  // Reversible.
  await insured.getByRole('button', { name: 'Voltar a receber lembretes' }).click();
  await expect(insured.getByTestId('confirmacao')).toContainText('você voltará a receber');
});

// The spec's second own port (the first is the reminders' server), so both may be up at once.
const OVERDUE_PORT = ownPort('insured-messages', 1);

test('an overdue installment is offered in the share box of both generations; its send issues the 2ª via once', async ({ browser }) => {
  test.setTimeout(480_000); // two sales, two servers, two generations
  sold = await startOwnServer(OVERDUE_PORT);
  const policies: Partial<Record<Generation, string>> = {};
  let due = '';
  for (const [generation, account] of [
    ['v2', ACCOUNTS.partner],
    ['v1', ACCOUNTS.legacySeller],
  ] as const) {
    const sale = await (await browser.newContext({ baseURL: sold.base })).newPage();
    await signIn(sale, account);
    await sellResidential(sale, { generation, method: 'Boleto bancário' });
    policies[generation] = (await sale.getByTestId('nr-apolice').textContent())!.trim();
    await sale.goto(`${POLICIES[generation]}/${policies[generation]}`);
    due = (await sale.getByTestId('parcela-1').getByRole('cell').nth(1).textContent())!.trim().split('/').reverse().join('-');
    await sale.context().close();
  }
  sold.child.kill('SIGTERM');
  expect(await sold.exited).toBe(0);

  // Twelve days after the due date: past the overdue notice's window (the job issues no 2ª via), nothing payable.
  const today = brasiliaDay(new Date());
  const later = addDays(due, 12);
  const offset = String(Math.round((Date.parse(later) - Date.parse(today)) / 86_400_000));
  overdue = await startOwnServer(OVERDUE_PORT, { CLOCK_OFFSET_DAYS: offset }, sold);
  const secondCopyDue = formatIsoDate(addDays(later, OVERDUE_SECOND_COPY_DAYS));

  for (const [generation, account] of [
    ['v2', ACCOUNTS.partner],
    ['v1', ACCOUNTS.legacySeller],
  ] as const) {
    const page = await (await browser.newContext({ baseURL: overdue.base })).newPage();
    await signIn(page, account);
    await page.goto(`${POLICIES[generation]}/${policies[generation]}`);
    await waitForIslands(page);
    const section = page.getByRole('region', { name: 'Enviar ao segurado' });
    await expect(section.getByTestId('nota-boleto-1')).toHaveText(overdueSendNote(secondCopyDue));
    await screenshotsAt(page, 'insured-messages', `apolice-vencida-enviar-${generation}`);
    await section.screenshot({ path: `test-results/insured-messages/enviar-vencida-${generation}.png` });
    await section.getByTestId('envio-boleto-1').getByRole('button', { name: 'Enviar boleto/Pix por e-mail' }).click();
    await expect(section.getByTestId('envio-boleto-1').getByRole('status')).toHaveText(`Enviado para ${INSURED}.`);

    // The 2ª via is payable now: offered as it is, and sent again without another one.
    await page.reload();
    await waitForIslands(page);
    await expect(section.getByTestId('nota-boleto-1')).toHaveCount(0);
    await expect(section.getByText(`1ª parcela — vencimento ${secondCopyDue}`)).toBeVisible();
    await section.getByTestId('envio-boleto-1').getByRole('button', { name: 'Enviar boleto/Pix por e-mail' }).click();
    await expect(section.getByTestId('envio-boleto-1').getByRole('status')).toHaveText(`Enviado para ${INSURED}.`);
    await page.context().close();

    const mails = await mailbox(browser, overdue.base, INSURED, `Boleto e Pix da 1ª parcela — apólice ${policies[generation]}`);
    expect(mails).toHaveLength(2);
    for (const mail of mails) expect(mail.text).toContain(secondCopyDue);
  }

  // One 2ª via issued, in the policy's access log.
  const admin = await (await browser.newContext({ baseURL: overdue.base })).newPage();
  await signIn(admin, ACCOUNTS.insurerAdmin);
  await admin.goto(`/v2/log-acesso?${new URLSearchParams({ registro: policies.v2! })}`);
  await expect(admin.getByText(`2ª via emitida com vencimento em ${secondCopyDue}`)).toHaveCount(1);
  await admin.context().close();
});
