import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { pdfText } from '../fixtures/pdf';
import { ACCOUNTS, latestEmail, signIn, waitForIslands } from './helpers';
import { sellResidential } from './selling';

/**
 * Issue 14, the contact endorsement in both generations as a partner does it: from the policy's page
 * to its endorsements, the contact form (a bad CEP told in pt-BR, unchanged data refused), the
 * endorsement's number, its PDF in the history, and the policy showing the new contact. Another
 * company's user (legacy: another seller) gets the 404 page for the same address.
 */
const POLICIES = { v1: '/apolices', v2: '/v2/apolices' } as const;

async function openPdf(page: Page, href: string): Promise<string> {
  const response = await page.request.get(href);
  expect(response.status(), href).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  const body = await response.body();
  expect(body.subarray(0, 5).toString()).toBe('%PDF-');
  return (await pdfText(new Uint8Array(body))).replace(/\s+/g, ' ');
}

for (const [generation, account, stranger] of [
  ['v2', ACCOUNTS.partner, ACCOUNTS.subagent],
  ['v1', ACCOUNTS.legacySeller, ACCOUNTS.legacyConsultant],
] as const) {
  test(`${generation}: policy → Endossos → Alterar dados cadastrais → endorsement, its PDF and the new contact`, async ({
    page,
    browser,
  }) => {
    await signIn(page, account);
    await sellResidential(page, { generation, method: 'Boleto bancário' });
    await expect(page.getByTestId('situacao-proposta')).toHaveText('Aceita');
    const nrApolice = (await page.getByTestId('nr-apolice').textContent())!.trim();
    await page.goto(`${POLICIES[generation]}/${nrApolice}`);
    await expect(page.getByRole('region', { name: 'Contato do segurado' })).toContainText('(11) 98765-4321');

    await page.getByRole('link', { name: 'Endossos', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${generation === 'v2' ? '/v2' : ''}/endosso/home/\\d+$`));
    const home = new URL(page.url()).pathname;
    await expect(page.getByRole('heading', { level: 1, name: 'Endossos' })).toBeVisible();
    await expect(page.getByText('Nenhum endosso emitido para esta apólice.')).toBeVisible();
    await expect(page.getByRole('link', { name: /Cancelar apólice/ })).toHaveAttribute(
      'href',
      new RegExp(`^${generation === 'v2' ? '/v2' : ''}/endosso/cancelamento/motivo\\?contratacao=\\d+$`),
    );

    await page.getByRole('link', { name: /Alterar dados cadastrais/ }).click();
    await expect(page).toHaveURL(/\/endosso\/contato\/\d+\/\d+$/);
    await waitForIslands(page);
    // Nothing changed yet: nothing is issued.
    await page.getByRole('button', { name: 'Emitir endosso' }).click();
    await expect(page.getByRole('alert')).toHaveText('Nenhum dado foi alterado.');

    const phone = page.getByLabel('Telefone');
    await phone.click();
    await phone.press('Control+a');
    await phone.pressSequentially('11912345678');
    await expect(phone).toHaveValue('(11) 91234-5678');
    await page.getByLabel('CEP').fill('0145');
    await page.getByLabel('Logradouro').fill('Rua Açaí');
    await page.getByLabel('Número', { exact: true }).fill('7');
    await page.getByLabel('Complemento (opcional)').fill('apto 12');
    await page.getByLabel('Bairro').fill('Jardim Paulistano');
    await page.getByRole('button', { name: 'Emitir endosso' }).click();
    await expect(page.getByText('Informe o CEP com 8 dígitos.')).toBeVisible();
    await page.getByLabel('CEP').fill('01451-000');
    await page.getByRole('button', { name: 'Emitir endosso' }).click();

    const issued = page.getByTestId('endosso-emitido');
    await expect(issued).toContainText('emitido');
    const nrEndosso = (await page.getByTestId('nr-endosso').textContent())!.trim();
    expect(nrEndosso).toMatch(/^\d{12}$/);

    await issued.getByRole('link', { name: 'Voltar aos endossos da apólice' }).click();
    await expect(page).toHaveURL(new RegExp(`${home}$`));
    const row = page.getByTestId('endossos').getByRole('row').filter({ hasText: nrEndosso });
    await expect(row).toContainText('Alteração de dados cadastrais');
    // The insured is told what changed (issue 27, item 6); the e-mail stayed, so one notice, to it.
    const notice = await latestEmail(page, 'mariana.pereira@exemplo.com.br', `Dados de contato alterados — apólice ${nrApolice}`);
    expect(notice.text).toContain('telefone e endereço');
    expect(notice.text).toContain('Se você não pediu esta alteração');
    const pdfHref = (await row.getByRole('link', { name: `PDF do endosso ${nrEndosso}` }).getAttribute('href'))!;
    const pdf = await openPdf(page, pdfHref);
    expect(pdf).toContain(`Nº do endosso ${nrEndosso}`);
    expect(pdf).toContain(`Nº da apólice ${nrApolice}`);
    expect(pdf).toContain('Telefone (alterado) (11) 98765-4321 (11) 91234-5678');
    expect(pdf).toContain('Rua Açaí, 7, apto 12 — Jardim Paulistano');

    await page.getByRole('link', { name: `Apólice nº ${nrApolice}` }).click();
    const contact = page.getByRole('region', { name: 'Contato do segurado' });
    await expect(contact).toContainText('(11) 91234-5678');
    await expect(contact).toContainText('Rua Açaí, 7, apto 12 — Jardim Paulistano, São Paulo/SP — CEP 01451-000');

    const other = await (await browser.newContext()).newPage();
    await signIn(other, stranger);
    await other.goto(home);
    await expect(other.getByText('Desculpe, esta página não está disponível.')).toBeVisible();
    await other.context().close();
  });
}
