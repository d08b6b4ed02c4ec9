import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import {
  ACCOUNTS,
  BASE_URL,
  completeFirstAccess,
  gotoHydrated,
  path,
  screenshotsAt,
  signIn,
  submitLogin,
  passSecondFactor,
} from './helpers';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { cpfFor, sellResidential } from './selling';

/**
 * Issue 17's whole story, as the insurer onboards a broker (decisions 049–052): the legacy admin
 * opens a sales channel; the insurer's admin registers a partner in it through every step, leaves
 * midway and resumes from the list's "Continuar cadastro" in another session, activates it; its first
 * administrator takes the code from the demo mailbox, completes the first access, signs in, opens a
 * point of sale where they work and sells there — the sale shows in the metrics filtered by that point
 * of sale — and onboards a substabelecido with a subset of the partner's offers (a remuneration above
 * the partner's refused on screen). The legacy admin finds it all in the hierarchy under the new
 * channel; the insurer's admin finds these actions and the view of the insured's policy in the access
 * log and exports them. Then the suspension: the partner's users are signed out and refused until it
 * is reactivated. Screenshots under test-results/partners-screens at 1366 and 390 px.
 */
const stamp = () => `${Date.now()}`.slice(-8);
const shoot = (page: Page, name: string) => screenshotsAt(page, 'partners-screens', name);

/** A valid CNPJ from a seed: 8 base digits, branch 0001, check digits. */
function cnpjFor(seed: number): string {
  const base = `${String(10_000_000 + (Math.abs(Math.trunc(seed)) % 89_999_999))}0001`.split('').map(Number);
  const digit = (digits: number[]) => {
    const weights = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2].slice(13 - digits.length);
    const rest = digits.reduce((sum, d, i) => sum + d * weights[i]!, 0) % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  const first = digit(base);
  return [...base, first, digit([...base, first])].join('');
}
const masked = (cnpj: string) => cnpj.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5');

async function fillAddress(page: Page) {
  await page.getByLabel('CEP').fill('30130-000');
  await page.getByLabel('Logradouro').fill('Avenida Afonso Pena');
  await page.getByLabel('Número').fill('1500');
  await page.getByLabel('Bairro').fill('Centro');
  await page.getByLabel('Cidade').fill('Belo Horizonte');
  await page.getByLabel('UF').selectOption('MG');
  await page.getByRole('button', { name: 'Continuar' }).click();
}

async function fillPeople(page: Page, id: number, cnpj: string) {
  await page.getByLabel('Nome completo').fill('Helena Aurora Reis');
  await page.getByLabel('CPF').fill(cpfFor(id + 11));
  await page.getByLabel('Cargo').fill('Sócia-administradora');
  await page.getByLabel('E-mail').fill(`helena.${id}@exemplo.com.br`);
  await page.getByLabel('Celular').fill('(31) 99876-5432');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(new RegExp(`/etapas/contatos/${cnpj}/comercial/novo$`));
}

async function fillContactsAndAccount(page: Page, id: number, cnpj: string) {
  await page.getByLabel('E-mail comercial').fill(`comercial.${id}@exemplo.com.br`);
  await page.getByLabel('Telefone').fill('(31) 3222-1000');
  await page.getByLabel('E-mail do financeiro').fill(`financeiro.${id}@exemplo.com.br`);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(new RegExp(`/etapas/financeiro/${cnpj}/conta/novo$`));
  // The account must be the company's: a person's CPF as holder is refused.
  await page.getByLabel('Banco').selectOption('341');
  await page.getByLabel('Agência').fill('1234');
  await page.getByLabel('Conta com dígito').fill('12345-6');
  await page.getByLabel('CNPJ do titular').fill(cpfFor(id + 11));
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByLabel('CNPJ do titular')).toHaveAccessibleDescription(
    'A conta deve ser da empresa: o CPF/CNPJ do titular é diferente da empresa.',
  );
  await page.getByLabel('CNPJ do titular').fill(masked(cnpj));
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(new RegExp(`/etapas/ofertas/${cnpj}/produtos/novo$`));
}

async function fillAdministrator(page: Page, id: number, email: string, name: string) {
  await page.getByLabel('CPF').fill(cpfFor(id + 29));
  await page.getByLabel('Nome completo').fill(name);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Celular').fill('(31) 98888-1111');
  await page.getByRole('button', { name: 'Continuar' }).click();
}

test('a channel; a partner onboarded in it (leaving and resuming midway), whose administrator opens a point of sale, sells there and onboards a substabelecido; the hierarchy and the access log show it all', async ({
  page,
  browser,
}) => {
  test.setTimeout(480_000);
  const id = Number(stamp());
  const cnpj = cnpjFor(id);
  const subCnpj = cnpjFor(id + 1);
  const adminEmail = `gestora.${id}@aurora.com.br`;
  const subAdminEmail = `gestor.${id}@campos.com.br`;
  const channel = { codigo: `rede-aurora-${id}`, nome: `Rede Aurora ${id}` };
  const shop = { codigo: `AU-${String(id).slice(-4)}`, nome: `Loja Aurora Savassi ${id}` };

  // The legacy admin opens the sales channel the partner will sell through.
  const legacy = await browser.newContext({ baseURL: BASE_URL });
  const legacyAdmin = await legacy.newPage();
  await signIn(legacyAdmin, ACCOUNTS.legacySupport);
  await legacyAdmin.goto('/cadastrar-canal');
  await legacyAdmin.getByLabel('Código').fill(channel.codigo);
  await legacyAdmin.getByLabel('Nome').fill(channel.nome);
  await legacyAdmin.getByLabel('Tipo').selectOption({ label: 'Corretoras' });
  await legacyAdmin.getByLabel('Canal pai').selectOption('portal');
  await legacyAdmin.getByRole('button', { name: 'Cadastrar canal' }).click();
  await expect(legacyAdmin.getByTestId('aviso')).toContainText(`Canal ${channel.nome} salvo.`);

  await signIn(page, ACCOUNTS.insurerAdmin);
  await page.goto('/v2/parceiros/consulta');
  await expect(page.getByRole('heading', { level: 1, name: 'Parceiros' })).toBeVisible();
  await shoot(page, 'partners-list');
  await page.getByTestId('novo').click();
  await expect(page).toHaveURL(path('/v2/parceiros/etapas/empresa'));

  // Company: an invalid CNPJ, and a broker without its SUSEP registration, are told on screen.
  await page.getByLabel('CNPJ').fill('11.222.333/0001-80');
  await page.getByLabel('Razão social').fill('Corretora Aurora Seguros Ltda.');
  await page.getByLabel('Nome fantasia').fill(`Aurora ${id}`);
  await page.getByRole('checkbox', { name: /É corretora de seguros/ }).check();
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByLabel('CNPJ')).toHaveAccessibleDescription(/CNPJ inválido/);
  // A CNPJ already registered is refused by name.
  await page.getByLabel('CNPJ').fill('11.222.333/0001-81');
  await page.getByLabel('Registro SUSEP').fill(`9${id}`);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByLabel('CNPJ')).toHaveAccessibleDescription('CNPJ já cadastrado no portal.');
  await page.getByLabel('CNPJ').fill(masked(cnpj));
  await page.getByLabel('Registro SUSEP').fill('');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByLabel('Registro SUSEP')).toHaveAccessibleDescription('Informe o registro SUSEP: é obrigatório para corretora.');
  await page.getByLabel('Registro SUSEP').fill(`9${id}`);
  await page.getByLabel('Canal de venda').selectOption({ label: channel.nome });
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(path(`/v2/parceiros/etapas/endereco/${cnpj}/sede/novo`));
  await shoot(page, 'partner-step-address');
  await fillAddress(page);
  await expect(page).toHaveURL(path(`/v2/parceiros/etapas/contatos/${cnpj}/responsavel/novo`));
  await fillPeople(page, id, cnpj);

  // Leaving midway: another session, another day — the list offers "Continuar cadastro".
  await page.context().close();
  const context = await browser.newContext({ baseURL: BASE_URL });
  const admin = await context.newPage();
  await signIn(admin, ACCOUNTS.insurerAdmin);
  await admin.goto('/v2/parceiros/consulta?status=em-cadastro');
  const draftRow = admin.getByTestId(`empresa-${cnpj}`);
  await expect(draftRow.getByTestId('situacao')).toHaveText('Em cadastro');
  await draftRow.getByRole('link', { name: /Continuar cadastro/ }).click();
  // Back at the first step the draft lacks, the earlier ones kept.
  await expect(admin).toHaveURL(path(`/v2/parceiros/etapas/contatos/${cnpj}/comercial/novo`));
  await admin.goto(`/v2/parceiros/etapas/empresa/${cnpj}/dados/novo`);
  await expect(admin.getByLabel('Nome fantasia')).toHaveValue(`Aurora ${id}`);
  await admin.goto(`/v2/parceiros/etapas/contatos/${cnpj}/comercial/novo`);
  await fillContactsAndAccount(admin, id, cnpj);

  // Offers: a remuneration above the product's limit is refused beside it.
  await admin.getByTestId('oferta-RES').getByRole('checkbox').check();
  await admin.getByLabel('Remuneração (%) — Residencial').fill('22,5');
  await admin.getByTestId('oferta-VEU').getByRole('checkbox').check();
  await admin.getByLabel('Remuneração (%) — Vida', { exact: true }).fill('25');
  await admin.getByTestId('oferta-AFU').getByRole('checkbox').check();
  await admin.getByLabel('Remuneração (%) — Agrícola', { exact: true }).fill('25');
  await admin.getByRole('button', { name: 'Continuar' }).click();
  await expect(admin.getByLabel('Remuneração (%) — Agrícola', { exact: true })).toHaveAccessibleDescription(
    'Remuneração acima do limite do produto (20,00%).',
  );
  await shoot(admin, 'partner-step-offers-error');
  await admin.getByLabel('Remuneração (%) — Agrícola', { exact: true }).fill('18');
  await admin.getByRole('button', { name: 'Continuar' }).click();
  await expect(admin).toHaveURL(path(`/v2/parceiros/etapas/administrador/${cnpj}/usuario/novo`));
  await fillAdministrator(admin, id, adminEmail, 'Gabriela Aurora Prado');

  // The review: every section with its "Alterar", the account masked; then the activation.
  await expect(admin).toHaveURL(path(`/v2/parceiros/etapas/revisao/${cnpj}/resumo/novo`));
  const review = admin.getByTestId('revisao');
  await expect(review).toContainText(`Aurora ${id}`);
  await expect(review).toContainText(channel.nome);
  await expect(review).toContainText('Residencial — 22,50% a partir de');
  await expect(review).toContainText('conta ***456');
  await expect(review.getByRole('link', { name: 'Alterar' })).toHaveCount(7);
  await shoot(admin, 'partner-review');
  await admin.getByRole('button', { name: 'Ativar parceiro' }).click();
  await expect(admin).toHaveURL(path('/v2/parceiros/consulta', 'aviso=cadastrado'));
  await expect(admin.getByTestId('aviso')).toContainText('Cadastro concluído');
  await admin.getByLabel('CNPJ').fill(masked(cnpj));
  await admin.getByRole('button', { name: 'Filtrar' }).click();
  await expect(admin.getByTestId(`empresa-${cnpj}`).getByTestId('situacao')).toHaveText('Ativo');
  await context.close();

  // The first administrator: the code from the demo mailbox, the first access, the sign-in.
  const first = await completeFirstAccess(browser, adminEmail, 'v2', 'Primeiro#Acesso17');
  const partnerAdmin = first.page;

  // Their first point of sale, where they work themselves; they sell there.
  await partnerAdmin.goto('/v2/ponto-venda/cadastro');
  await partnerAdmin.getByLabel('Empresa').selectOption(cnpj);
  await partnerAdmin.getByLabel('Código').fill(shop.codigo);
  await partnerAdmin.getByLabel('Nome', { exact: true }).fill(shop.nome);
  await partnerAdmin.getByLabel('CEP').fill('30130-151');
  await partnerAdmin.getByLabel('Logradouro').fill('Rua Pernambuco');
  await partnerAdmin.getByLabel('Número', { exact: true }).fill('1200');
  await partnerAdmin.getByLabel('Bairro').fill('Savassi');
  await partnerAdmin.getByLabel('Cidade').fill('Belo Horizonte');
  await partnerAdmin.getByLabel('UF').selectOption('MG');
  await partnerAdmin.getByRole('checkbox', { name: new RegExp(adminEmail.replace(/\./g, '\\.')) }).check();
  await partnerAdmin.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(partnerAdmin.getByTestId('aviso')).toContainText('Ponto de venda cadastrado.');
  await expect(partnerAdmin.getByTestId('salvo').getByTestId('vendedores')).toContainText('Gabriela Aurora Prado');
  await sellResidential(partnerAdmin);
  const nrApolice = (await partnerAdmin.getByTestId('nr-apolice').textContent())!.trim();
  await partnerAdmin.goto(`/v2/apolices/${nrApolice}`);
  await expect(partnerAdmin.getByText(shop.nome)).toBeVisible();
  await partnerAdmin.goto(`/v2/metricas/evolucao-vendas?empresa=${cnpj}&pontoVenda=${shop.codigo}`);
  await expect(partnerAdmin.getByLabel('Ponto de venda').locator('option:checked')).toContainText(shop.nome);
  await expect(partnerAdmin.getByTestId('total-apolices')).toHaveText('1');

  await partnerAdmin.goto('/v2/substabelecido/consulta');
  await expect(partnerAdmin.getByRole('heading', { level: 1, name: 'Substabelecidos' })).toBeVisible();
  await partnerAdmin.getByTestId('novo').click();
  await partnerAdmin.getByLabel('CNPJ').fill(masked(subCnpj));
  await partnerAdmin.getByLabel('Razão social').fill('Campos Corretagem Ltda.');
  await partnerAdmin.getByLabel('Nome fantasia').fill(`Campos ${id}`);
  // Its own partner is the only one offered.
  await expect(partnerAdmin.getByLabel('Parceiro').locator('option')).toHaveText([new RegExp(`Aurora ${id}`)]);
  await partnerAdmin.getByRole('button', { name: 'Continuar' }).click();
  await expect(partnerAdmin).toHaveURL(path(`/v2/substabelecido/etapas/endereco/${subCnpj}/sede/novo`));
  await fillAddress(partnerAdmin);
  await fillPeople(partnerAdmin, id + 3, subCnpj);
  await fillContactsAndAccount(partnerAdmin, id + 3, subCnpj);

  // Only the partner's offers are offered; a remuneration above the partner's is refused.
  const offers = partnerAdmin.getByRole('group', { name: /Ofertas do parceiro/ });
  await expect(offers.getByRole('checkbox')).toHaveCount(3);
  await shoot(partnerAdmin, 'sub-step-offers');
  const residencial = offers.getByRole('listitem').filter({ hasText: 'Residencial' });
  await residencial.getByRole('checkbox').check();
  await residencial.getByRole('textbox', { name: /Remuneração/ }).fill('23');
  await partnerAdmin.getByRole('button', { name: 'Continuar' }).click();
  await expect(residencial.getByRole('textbox', { name: /Remuneração/ })).toHaveAccessibleDescription(
    'Remuneração acima da do parceiro nesta oferta (22,50%).',
  );
  await residencial.getByRole('textbox', { name: /Remuneração/ }).fill('15');
  await partnerAdmin.getByRole('button', { name: 'Continuar' }).click();
  await expect(partnerAdmin).toHaveURL(path(`/v2/substabelecido/etapas/administrador/${subCnpj}/usuario/novo`));
  await fillAdministrator(partnerAdmin, id + 3, subAdminEmail, 'Sérgio Campos Rocha');
  await expect(partnerAdmin.getByTestId('revisao')).toContainText('15,00%');
  await partnerAdmin.getByRole('button', { name: 'Ativar substabelecido' }).click();
  await expect(partnerAdmin).toHaveURL(path('/v2/substabelecido/consulta/cadastrado'));
  await expect(partnerAdmin.getByTestId(`empresa-${subCnpj}`).getByTestId('situacao')).toHaveText('Ativo');
  await shoot(partnerAdmin, 'sub-list');

  // The legacy admin finds the partner in the hierarchy, under its channel, with its shop and its sub.
  await legacyAdmin.goto(`/consulta-hierarquia?busca=${encodeURIComponent(`Aurora ${id}`)}`);
  const channelNode = legacyAdmin.locator(`li.node-canal[data-nome*="${channel.nome}"]`);
  const partnerNode = channelNode.locator(`li.node-empresa[data-nome*="Aurora ${id}"]`).first();
  await expect(partnerNode).toBeVisible();
  await legacyAdmin.goto(`/consulta-hierarquia?busca=${encodeURIComponent(channel.nome)}`);
  await expect(channelNode.locator(':scope > details > summary')).toContainText('1 parceiro, 1 substabelecido, 1 ponto de venda');
  await expect(channelNode.locator(`li.node-ponto-venda[data-nome*="${shop.nome}"]`)).toHaveCount(1);
  await expect(channelNode.locator(`li.node-empresa[data-nome*="Campos ${id}"]`)).toHaveCount(1);
  await legacy.close();

  // The insurer's admin finds these actions, and the view of the insured's policy, in the access log.
  const auditing = await browser.newContext({ baseURL: BASE_URL, acceptDownloads: true });
  const auditor = await auditing.newPage();
  await signIn(auditor, ACCOUNTS.insurerAdmin);
  await auditor.goto(`/v2/log-acesso?empresa=${cnpj}`);
  const events = auditor.getByTestId('evento');
  for (const label of ['Parceiro cadastrado', 'Ponto de venda cadastrado', 'Dados de segurado visualizados'])
    await expect(events.filter({ hasText: label }).first(), label).toBeVisible();
  await expect(events.filter({ hasText: 'Dados de segurado visualizados' }).filter({ hasText: nrApolice }).first()).toBeVisible();
  const [download] = await Promise.all([auditor.waitForEvent('download'), auditor.getByTestId('exportar-csv').click()]);
  const records = parse(readFileSync(await download.path()), { bom: true, delimiter: ';', columns: true }) as Record<string, string>[];
  const exported = records.map((r) => `${r.Evento} ${r.Registro}`);
  expect(exported).toContain('Parceiro cadastrado ');
  expect(exported).toContain('Ponto de venda cadastrado ');
  expect(exported).toContain(`Dados de segurado visualizados Apólice ${nrApolice}`);
  // The substabelecido's onboarding is its own company's event; the channel's, the legacy admin's.
  await auditor.goto(`/v2/log-acesso?empresa=${subCnpj}&evento=SUBSTABELECIDO_CADASTRADO`);
  await expect(events.filter({ hasText: 'Substabelecido cadastrado' })).toHaveCount(1);
  await auditor.goto(`/v2/log-acesso?usuario=${encodeURIComponent('suporte@legado.demo')}&evento=CANAL_CRIADO`);
  await expect(events.filter({ hasText: `canal ${channel.codigo}:` })).toHaveCount(1);
  await auditing.close();

  // Suspension: the insurer's admin suspends the partner with a reason; its administrator's next
  // page is the sign-in, which refuses them until the partner is reactivated.
  const insurer = await browser.newContext({ baseURL: BASE_URL });
  const admin2 = await insurer.newPage();
  await signIn(admin2, ACCOUNTS.insurerAdmin);
  await admin2.goto(`/v2/parceiros/consulta?cnpj=${cnpj}`);
  await admin2.getByRole('link', { name: `Suspender Aurora ${id}` }).click();
  await admin2.getByRole('button', { name: 'Confirmar suspensão' }).click();
  await expect(admin2.getByLabel('Motivo da suspensão')).toHaveAccessibleDescription(
    'Informe o motivo da suspensão (10 a 500 caracteres).',
  );
  await admin2.getByLabel('Motivo da suspensão').fill('Pendência documental junto à SUSEP');
  await shoot(admin2, 'partner-suspension');
  await admin2.getByRole('button', { name: 'Confirmar suspensão' }).click();
  await expect(admin2.getByTestId('aviso')).toContainText('Parceiro suspenso');
  await partnerAdmin.goto('/v2/substabelecido/consulta');
  await expect(partnerAdmin).toHaveURL(/\/v2\/login/);
  await gotoHydrated(partnerAdmin, '/v2/login');
  await submitLogin(partnerAdmin, adminEmail, 'Primeiro#Acesso17');
  await expect(partnerAdmin.getByText('O acesso da sua empresa ao portal está suspenso')).toBeVisible();
  await admin2.goto(`/v2/parceiros/etapas/revisao/${cnpj}/resumo/visualizar`);
  await expect(admin2.getByTestId('revisao')).toContainText('Pendência documental junto à SUSEP');
  await admin2.getByRole('button', { name: 'Reativar parceiro' }).click();
  await expect(admin2.getByTestId('aviso')).toContainText('Parceiro reativado');
  await submitLogin(partnerAdmin, adminEmail, 'Primeiro#Acesso17');
  await passSecondFactor(partnerAdmin, { email: adminEmail, generation: 'v2' });
  await expect(partnerAdmin).toHaveURL(path('/v2/home'));
  await insurer.close();
  await first.context.close();
});

test('the partners’ pages are the insurer’s: a partner’s administrator gets 403; a foreign or unknown address, 404', async ({ page }) => {
  await signIn(page, ACCOUNTS.partnerAdmin);
  expect((await page.goto('/v2/parceiros/consulta'))?.status()).toBe(403);
  expect((await page.goto('/v2/substabelecido/consulta'))?.status()).toBe(200);
  expect((await page.goto('/v2/substabelecido/consulta/apagado'))?.status()).toBe(404);
  expect((await page.goto('/v2/substabelecido/etapas/empresa/11222333000181/dados/editar'))?.status()).toBe(404);
  expect((await page.goto('/v2/substabelecido/etapas/desconhecida'))?.status()).toBe(404);
  await page.goto('/v2/substabelecido/etapas/revisao/33444555000181/resumo/visualizar');
  await expect(page.getByTestId('revisao')).toContainText('Pix (CNPJ)');
  await shoot(page, 'sub-review-vale-verde');
});

// Issue 27: an offer outside the partner's, injected in the browser, got messages of fields the page
// does not show; now the list says what is wrong, and nothing is saved.
test('an offer injected on the substabelecido’s offers step is named as outside the partner’s', async ({ page }) => {
  await signIn(page, ACCOUNTS.partnerAdmin);
  await page.goto('/v2/substabelecido/etapas/ofertas/33444555000181/produtos/editar');
  const first = page.locator('.offer-row input[type="checkbox"]').first();
  await first.check();
  // A checkbox's value changed by hand: an offer number the partner does not have.
  await first.evaluate((box: HTMLInputElement) => (box.value = '999999'));
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.locator('#empresa-ofertas-erro')).toHaveText('Oferta fora das ofertas vigentes do parceiro.');
  await expect(page.getByRole('group', { name: 'Ofertas do parceiro que o substabelecido pode vender' })).toHaveAccessibleDescription(
    'Oferta fora das ofertas vigentes do parceiro.',
  );
  await expect(page).toHaveURL(/\/ofertas\/33444555000181\/produtos\/editar$/);
});

test('the lists, a step with its errors and the review have no serious accessibility problem (axe)', async ({ page }) => {
  await signIn(page, ACCOUNTS.partnerAdmin);
  for (const url of [
    '/v2/substabelecido/consulta?status=x',
    '/v2/substabelecido/etapas/ofertas/33444555000181/produtos/editar',
    '/v2/substabelecido/etapas/revisao/33444555000181/resumo/visualizar?operacao=suspender',
  ]) {
    await page.goto(url);
    // Vale Verde, registered before substabelecidos had offers of their own, is told it sells its partner's.
    if (url.includes('/ofertas/')) await expect(page.getByTestId('herda-ofertas')).toBeVisible();
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(
      violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`),
      url,
    ).toEqual([]);
  }
  // A refused step, its messages tied to their fields.
  await page.goto('/v2/substabelecido/etapas/contatos/33444555000181/comercial/editar');
  await page.getByLabel('Telefone').fill('12');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByLabel('Telefone')).toHaveAccessibleDescription('Telefone inválido: use (DD) NNNN-NNNN ou (DD) 9NNNN-NNNN.');
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
});
