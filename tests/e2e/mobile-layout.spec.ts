import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { routeOfPageFile } from '../../src/lib/page-routes';
import { productFor } from '../../src/lib/products/catalog';
import { ACCOUNTS, signIn, waitForIslands, type DemoAccount } from './helpers';
import { answer, fillInsured } from './selling';

/**
 * Phones (issue 11): no page of either generation may scroll sideways at 360, 390 or 414 px, no
 * element may stick out of the screen (a table too wide for it scrolls inside its own box), the
 * signed-in header keeps every control inside its 68 px, and the floating chat link can be scrolled
 * clear of the content (SPEC §9).
 *
 * The pages come from data, so a new one is not forgotten: every page file under src/pages must
 * have a row below (or say why it is left out); each account also opens every internal link of its
 * menu and of its home, and walks every step of real saved quotes (the demo seed's, and one sold
 * here in each generation) through the stepper's links.
 */

const WIDTHS = [390, 360, 414] as const;
const SMALL_HEADER = 68;

/** The seed's renewable policies (issue 31): residential (branch 0114), sold 335 days ago, the 5th and 6th policies issued. */
const RENEWAL_YEAR = new Date(Date.now() - 335 * 86_400_000).getFullYear();
const RENEWABLE = { v2: `/v2/renovacoes/0114${RENEWAL_YEAR}0000005`, v1: `/renovacoes/0114${RENEWAL_YEAR}0000006` };

type Account = 'anon' | 'vendedor' | 'consultor' | 'adminLegado' | 'adminV2' | 'parceiroAdmin' | 'parceiro' | 'substabelecido';
const SIGN_IN: Record<Exclude<Account, 'anon'>, DemoAccount> = {
  vendedor: ACCOUNTS.legacySeller,
  consultor: ACCOUNTS.legacyConsultant,
  adminLegado: ACCOUNTS.legacyAdmin,
  adminV2: ACCOUNTS.insurerAdmin,
  parceiroAdmin: ACCOUNTS.partnerAdmin,
  parceiro: ACCOUNTS.partner,
  substabelecido: ACCOUNTS.subagent,
};

/** Page routes (as files name them) → what each account opens of it; a string says why it is left out. */
const PAGES: Record<string, Partial<Record<Account, string[]>> | string> = {
  '/': { anon: ['/'] },
  '/403': { anon: ['/403'], vendedor: ['/consulta-usuarios'], parceiro: ['/v2/ofertas'] },
  '/404': { anon: ['/nao-existe', '/v2/nao-existe'], vendedor: ['/nao-existe'], parceiro: ['/v2/nao-existe'] },
  '/410': { anon: ['/410'], parceiro: ['/410'] },
  '/500': { anon: ['/500'] },
  '/afs/receptor': { anon: ['/afs/receptor'] },
  '/cadastro-login': { anon: ['/cadastro-login'] },
  '/cadastro-realizado': { anon: ['/cadastro-realizado'] },
  '/caixa-postal': { anon: ['/caixa-postal'] },
  '/dev/kit-ui': { anon: ['/dev/kit-ui'] },
  '/editar-simulador/[id]': { adminLegado: ['/editar-simulador/1'] },
  '/esqueci-senha': { anon: ['/esqueci-senha'] },
  '/historico': { vendedor: ['/historico'], adminLegado: ['/historico'] },
  // The worklist (issue 31): the bell in the header, items that wrap on a phone.
  '/pendencias': { vendedor: ['/pendencias'], adminLegado: ['/pendencias'] },
  '/home': { vendedor: ['/home'], consultor: ['/home'], adminLegado: ['/home'] },
  '/login': { anon: ['/login'] },
  '/mapa-dev-test': { anon: ['/mapa-dev-test'] },
  '/ofertas-disponiveis': { vendedor: ['/ofertas-disponiveis'] },
  '/ofertas': { vendedor: ['/ofertas'] },
  '/ofertas/[tab]': { vendedor: ['/ofertas/encerradas', '/ofertas/todas'] },
  '/perfil': { vendedor: ['/perfil'] },
  // Issue 32: the security page; the second step of sign-in without a challenge (its enrol and verify
  // views are checked at 390 px by second-factor.spec.ts, which opens them).
  '/perfil/seguranca': { vendedor: ['/perfil/seguranca'] },
  '/signin/segundo-fator': { anon: ['/signin/segundo-fator'] },
  '/v2/login/segundo-fator': { anon: ['/v2/login/segundo-fator'] },
  '/redefinir-senha': { anon: ['/redefinir-senha?token=nao-existe-este-token'] },
  '/reenviar-codigo-validacao': { anon: ['/reenviar-codigo-validacao'] },
  '/relatorios/[type]/[nrCotation]': 'PDF documents, not pages',
  '/relatorios/[type]/apolice/[nrApolice]': 'PDF documents, not pages',
  '/apolice-digital/[token]': 'the insured’s policy PDF, not a page',
  '/boleto-digital/[token]/boleto.pdf': 'the insured’s boleto PDF, not a page',
  // Issue 31: the insured's links open with a token an e-mail carries; the journeys
  // (insured-messages.spec.ts) check both pages at 390 px with real tokens.
  '/boleto-digital/[token]': 'checked at 390 px by insured-messages.spec.ts (needs a token from the mailbox)',
  '/lembretes/[token]': 'checked at 390 px by insured-messages.spec.ts (needs a token from the mailbox)',
  '/sair': 'POST only: signs out and redirects',
  '/signin': { anon: ['/signin'] },
  // The plain cadastro of each line (the agricultural one lists its offers); the steps of a saved
  // quote are walked below.
  '/simulador-[linha]/[...passo]': {
    vendedor: ['residencial', 'agricola', 'vida', 'maquinas', 'empresarial'].map((line) => `/simulador-${line}/cadastro`),
  },
  '/simulador-agricola-antigo': { vendedor: ['/simulador-agricola-antigo'] },
  // The embedded issuance apps' pages (decision 054); their steps are shot by tests/e2e/emissao.spec.ts.
  '/emissao/consulta-cotacao/[...rota]': { vendedor: ['/emissao/consulta-cotacao', '/emissao/consulta-cotacao/iniciar/empresarial'] },
  '/emissao/itens-pessoais/[...rota]': {
    vendedor: ['/emissao/itens-pessoais/iniciar/itens-pessoais', '/emissao/itens-pessoais/nao-existe'],
  },
  '/emissao/cotacao/vida/[...rota]': { vendedor: ['/emissao/cotacao/vida/nova-cotacao'] },
  '/template-email': { anon: ['/template-email'] },
  '/template-email/[template]': 'an e-mail body (HTML for mail clients), shown inside /template-email',
  '/termo-de-uso': { anon: ['/termo-de-uso'] },
  '/termo-presente-proposta': { anon: ['/termo-presente-proposta'] },
  '/v2/cadastro-realizado': { anon: ['/v2/cadastro-realizado'] },
  '/v2/esqueci-senha': { anon: ['/v2/esqueci-senha'] },
  // Managers' history has the seller's column.
  '/v2/pendencias': { parceiro: ['/v2/pendencias'], parceiroAdmin: ['/v2/pendencias'], adminV2: ['/v2/pendencias'] },
  '/v2/historico': {
    parceiro: ['/v2/historico'],
    parceiroAdmin: ['/v2/historico'],
    substabelecido: ['/v2/historico'],
    adminV2: ['/v2/historico'],
  },
  '/v2/home': { parceiro: ['/v2/home'], parceiroAdmin: ['/v2/home'], substabelecido: ['/v2/home'], adminV2: ['/v2/home'] },
  '/v2/home/[codigo]': { parceiro: ['/v2/home/res'] },
  '/v2/login': { anon: ['/v2/login'] },
  '/v2/login/session/[idSessaoSSO]': { anon: ['/v2/login/session/sessao-sso-inexistente'] },
  '/v2/ofertas': { adminV2: ['/v2/ofertas'] },
  '/v2/ofertas/cadastro/[idSimulador]': { adminV2: ['/v2/ofertas/cadastro/1'] },
  '/v2/propostas/analise': { adminV2: ['/v2/propostas/analise'] },
  '/v2/propostas/analise/documentos/[id]': 'a file download, not a page',
  // The access log (issue 17): a page of long rows (e-mails, addresses, details) and the form refused.
  '/v2/log-acesso': { adminV2: ['/v2/log-acesso', '/v2/log-acesso?de=2026-13-01&evento=x&usuario=admin'] },
  '/v2/log-acesso/exportar.csv': 'a CSV download, not a page',
  '/v2/apolices': { parceiro: ['/v2/apolices'] },
  // Endorsements (issue 14) of the seed's policies: the partner's life policy (contract 100001,
  // proposal 1) and the legacy seller's residential one (contract 100004, proposal 6).
  '/v2/endosso/home/[idContratacao]': { parceiro: ['/v2/endosso/home/100001'] },
  '/v2/endosso/contato/[idProposta]/[idContratacao]': { parceiro: [`/v2/endosso/contato/${new Date().getFullYear()}00000001/100001`] },
  '/endosso/home/[idContratacao]': { vendedor: ['/endosso/home/100004'] },
  // The cancellation's first step (the others need a draft: tests/e2e/cancellation.spec.ts).
  '/v2/endosso/cancelamento/[...passo]': { parceiro: ['/v2/endosso/cancelamento/motivo?contratacao=100001'] },
  '/endosso/cancelamento/[...passo]': { vendedor: ['/endosso/cancelamento/motivo?contratacao=100004'] },
  '/endosso/contato/[idProposta]/[idContratacao]': { vendedor: [`/endosso/contato/${new Date().getFullYear()}00000006/100004`] },
  // The seed's one policy: the partner's life proposal, accepted straight through (branch 1391, sequence 1).
  '/v2/apolices/[nrApolice]': { parceiro: [`/v2/apolices/1391${new Date().getFullYear()}0000001`] },
  '/apolices': { vendedor: ['/apolices'] },
  // Renewals (issue 31): the lists (one with a field error) and the seed's renewable policies' pages.
  '/v2/renovacoes': { parceiro: ['/v2/renovacoes', '/v2/renovacoes?produto=xyz'], parceiroAdmin: ['/v2/renovacoes'] },
  '/renovacoes': { vendedor: ['/renovacoes'] },
  '/v2/renovacoes/[nrApolice]': { parceiro: [RENEWABLE.v2] },
  '/renovacoes/[nrApolice]': { vendedor: [RENEWABLE.v1] },
  '/banco-demonstracao': { adminV2: ['/banco-demonstracao'] },
  // The seed's policy (open or, after the payments journey, paid) and a search's field error.
  '/v2/boleto/recebimentos': { adminV2: ['/v2/boleto/recebimentos', '/v2/boleto/recebimentos?page=abc'] },
  '/restituicoes': { adminLegado: ['/restituicoes', '/restituicoes?situacao=pagas'] },
  '/v2/restituicoes': { adminV2: ['/v2/restituicoes', '/v2/restituicoes?situacao=devolvidas', '/v2/restituicoes?nrApolice=abc'] },
  '/apolices/[nrApolice]/extrato.csv': 'a CSV download, not a page',
  '/v2/apolices/[nrApolice]/extrato.csv': 'a CSV download, not a page',
  '/v2/boleto': { parceiro: ['/v2/boleto', `/v2/boleto?nrApolice=1391${new Date().getFullYear()}0000001`, '/v2/boleto?segurado=ab'] },
  '/consulta-pagamento': {
    adminLegado: ['/consulta-pagamento', '/consulta-pagamento?segurado=ab', '/consulta-pagamento?segurado=Marina'],
  },
  '/relatorio-pagamento': { adminLegado: ['/relatorio-pagamento', '/relatorio-pagamento?de=2026-01-01&ate=2027-06-30'] },
  '/relatorio-pagamento/exportar.csv': 'a CSV download, not a page',
  '/apolices/[nrApolice]': 'the legacy demo data holds no policy; the page is the v2 one (features/policies/PolicyPage.astro)',
  '/v2/perfil': { parceiro: ['/v2/perfil'] },
  '/v2/perfil/seguranca': { parceiro: ['/v2/perfil/seguranca'] },
  '/v2/reenviar-codigo-validacao': { anon: ['/v2/reenviar-codigo-validacao'] },
  '/v2/relatorios/pdf/[type]/[nrCotation]': 'PDF documents, not pages',
  '/v2/relatorios/pdf/[type]/apolice/[nrApolice]': 'PDF documents, not pages',
  '/v2/senha': { anon: ['/v2/senha?token=nao-existe-este-token'] },
  // Every line's start comes from the offers on /v2/home; the steps of saved quotes are walked below.
  '/v2/simulador-[linha]/[...passo]': { parceiro: ['/v2/simulador-residencial/planos'] },
  '/v2/template-email': { anon: ['/v2/template-email'] },
  // Documents (issue 14): the list with its filters (and their field errors), the upload page's search,
  // and the upload page of the seed's policy.
  '/v2/documentos/consulta': {
    parceiroAdmin: [
      '/v2/documentos/consulta',
      '/v2/documentos/consulta?segurado=ab&de=2026-13-01',
      '/v2/documentos/consulta?categoria=OUTRO',
    ],
  },
  '/documentos/consulta': { adminLegado: ['/documentos/consulta', '/documentos/consulta?nrProposta=abc'] },
  '/v2/documentos/envio': {
    parceiro: [
      '/v2/documentos/envio',
      '/v2/documentos/envio?proposta=abc',
      `/v2/documentos/envio?apolice=1391${new Date().getFullYear()}0000001`,
    ],
  },
  '/documentos/envio': { vendedor: ['/documentos/envio'] },
  '/documentos/arquivo/[id]': 'a file download, not a page',
  '/v2/documentos/arquivo/[id]': 'a file download, not a page',
  // Commissions and income statements (issue 15): the pages with data are shot at 1366 and 390 px by
  // tests/e2e/commissions.spec.ts; here each opens as its accounts see it, a field error included.
  '/v2/comissoes/extrato-comissoes': {
    parceiroAdmin: ['/v2/comissoes/extrato-comissoes', '/v2/comissoes/extrato-comissoes?competencia=2026-13'],
    adminV2: ['/v2/comissoes/extrato-comissoes'],
  },
  '/v2/comissoes/extrato-comissoes/exportar.csv': 'a CSV download, not a page',
  '/v2/comissoes/envio-nota': { parceiro: ['/v2/comissoes/envio-nota'], adminV2: ['/v2/comissoes/envio-nota'] },
  '/v2/comissoes/nota-fiscal': {
    parceiroAdmin: ['/v2/comissoes/nota-fiscal', '/v2/comissoes/nota-fiscal?status=X'],
    adminV2: ['/v2/comissoes/nota-fiscal'],
  },
  '/v2/comissoes/nota-fiscal/arquivo/[id]': 'a file download, not a page',
  // Sales reports (issue 15): the request form, with field errors, and the list.
  '/relatorio-vendas': { vendedor: ['/relatorio-vendas'] },
  '/novo-relatorio-vendas': { vendedor: ['/novo-relatorio-vendas'] },
  '/relatorio-vendas/arquivo/[id]': 'a file download, not a page',
  '/v2/relatorios/vendas/consulta': {
    parceiroAdmin: ['/v2/relatorios/vendas/consulta'],
    substabelecido: ['/v2/relatorios/vendas/consulta'],
  },
  '/v2/relatorios/vendas/cadastro': {
    parceiroAdmin: ['/v2/relatorios/vendas/cadastro'],
    substabelecido: ['/v2/relatorios/vendas/cadastro'],
  },
  '/v2/relatorios/vendas/arquivo/[id]': 'a file download, not a page',
  // Metrics (issue 15): charts, tables, the ranking and the target form with a field error.
  '/evolucao-vendas': { adminLegado: ['/evolucao-vendas', '/evolucao-vendas?produto=XX'], vendedor: ['/evolucao-vendas'] },
  '/atingir-meta': { adminLegado: ['/atingir-meta', '/atingir-meta?ranking=vendedores'] },
  '/v2/metricas/evolucao-vendas': {
    parceiroAdmin: ['/v2/metricas/evolucao-vendas'],
    parceiro: ['/v2/metricas/evolucao-vendas?produto=RES'],
  },
  '/v2/metricas/atingimento-meta': {
    adminV2: ['/v2/metricas/atingimento-meta', '/v2/metricas/atingimento-meta?mes=2026-13'],
    parceiroAdmin: ['/v2/metricas/atingimento-meta?ranking=vendedores'],
  },
  '/informe-rendimentos': { adminLegado: ['/informe-rendimentos'] },
  '/v2/informe-rendimentos': { parceiroAdmin: ['/v2/informe-rendimentos'] },
  '/relatorios/[type]/[nmCpfCnpj]/[nmPrestador]/[nrAno]': 'PDF documents, not pages',
  '/v2/relatorios/pdf/[type]/[nmCpfCnpj]/[nmPrestador]/[nrAno]': 'PDF documents, not pages',
  // Users (issue 16): lists, the legacy form with its errors, the v2 steps of a new and an existing user.
  '/consulta-usuarios': {
    adminLegado: ['/consulta-usuarios', '/consulta-usuarios?pagina=2', '/consulta-usuarios?pagina=x', '/consulta-usuarios?tamanho=50'],
  },
  '/cadastrar-usuario': { adminLegado: ['/cadastrar-usuario'] },
  // A page per user and the pending invitations (issue 32): menus, histories and actions on a phone.
  '/consulta-usuarios/[id]': { adminLegado: ['/consulta-usuarios/2', '/consulta-usuarios/3?entradas-pagina=x'] },
  '/consulta-usuarios/convites': { adminLegado: ['/consulta-usuarios/convites'] },
  '/v2/usuario/[id]': { adminV2: ['/v2/usuario/8', '/v2/usuario/12'], parceiroAdmin: ['/v2/usuario/10'] },
  '/v2/usuario/convites': { parceiroAdmin: ['/v2/usuario/convites'] },
  // Bulk actions (issue 32): the list with its checkboxes and bigger pages; the preview answers a POST and the
  // job page a job of the viewer's, both walked at 390 px by the bulk journey (tests/e2e/user-bulk.spec.ts).
  '/consulta-usuarios/lote': 'answers the bulk form’s POST: laid out at 390 px in tests/e2e/user-bulk.spec.ts',
  '/consulta-usuarios/lote/[id]': 'a job of the viewer’s: laid out at 390 px in tests/e2e/user-bulk.spec.ts',
  '/consulta-usuarios/exportar.csv': 'a CSV download, not a page',
  '/consulta-usuarios/exportar.xlsx': 'an XLSX download, not a page',
  '/v2/usuario/cadastro/lote': 'answers the bulk form’s POST: laid out at 390 px in tests/e2e/user-bulk.spec.ts',
  '/v2/usuario/cadastro/lote/[id]': 'a job of the viewer’s: laid out at 390 px in tests/e2e/user-bulk.spec.ts',
  '/v2/usuario/cadastro/exportar.csv': 'a CSV download, not a page',
  '/v2/usuario/cadastro/exportar.xlsx': 'an XLSX download, not a page',
  '/editar-usuario/[id]': { adminLegado: ['/editar-usuario/2'] },
  '/editar-usuario/[id]/segundo-fator': { adminLegado: ['/editar-usuario/2/segundo-fator'] },
  '/v2/usuario/segundo-fator/[id]': { parceiroAdmin: ['/v2/usuario/segundo-fator/8'] },
  '/v2/usuario/cadastro/consulta': {
    parceiroAdmin: ['/v2/usuario/cadastro/consulta'],
    adminV2: ['/v2/usuario/cadastro/consulta?status=X'],
  },
  '/v2/usuario/cadastro/[...passo]': {
    parceiroAdmin: [
      '/v2/usuario/cadastro/dados-pessoais',
      '/v2/usuario/cadastro/dados-pessoais/71428793860/editar',
      '/v2/usuario/cadastro/vincular-usuario/71428793860/editar',
      '/v2/usuario/cadastro/finalizacao?cpf=71428793860&acao=editar',
    ],
  },
  // Groups (issue 16): the channels' legacy groups, one read and one edited; the v2 groups, a new one, a view.
  '/grupo-acesso': { adminLegado: ['/grupo-acesso'] },
  '/grupo-acesso/[grupo]/[canal]/[action]': {
    adminLegado: [
      '/grupo-acesso/VENDEDOR/portal/editar',
      '/grupo-acesso/ADMINISTRADOR/portal/visualizar',
      '/grupo-acesso/novo/varejo/novo',
    ],
  },
  '/v2/usuario/permissoes/consulta': {
    parceiroAdmin: ['/v2/usuario/permissoes/consulta'],
    adminV2: ['/v2/usuario/permissoes/consulta?pagina=x'],
  },
  '/v2/usuario/permissoes/cadastro': { parceiroAdmin: ['/v2/usuario/permissoes/cadastro'] },
  '/v2/usuario/permissoes/[id]/[cdCnpjEmpresa]/[action]': {
    parceiroAdmin: ['/v2/usuario/permissoes/1/11222333000181/visualizar', '/v2/usuario/permissoes/1/11222333000181/editar'],
  },
  '/v2/usuario/permissoes/sucesso': { parceiroAdmin: ['/v2/usuario/permissoes/sucesso?grupo=1&empresa=11222333000181'] },
  // Hierarchy and channels (issue 17): the whole tree, a search with the way to it opened, the channel forms.
  '/consulta-hierarquia': {
    adminLegado: ['/consulta-hierarquia', '/consulta-hierarquia?busca=vendedor%40legado.demo', '/consulta-hierarquia?busca=Savassi'],
  },
  '/cadastrar-canal': { adminLegado: ['/cadastrar-canal'] },
  '/editar-canal/[id]': { adminLegado: ['/editar-canal/1', '/editar-canal/2'] },
  // Bulk import (issue 16): the upload page with its columns; the steps of an import are in user-import.spec.ts.
  // Points of sale (issue 17): the list (and a filter's error), the new form, the seed's first one
  // viewed and edited, and the page after a save.
  '/v2/ponto-venda/consulta': { parceiroAdmin: ['/v2/ponto-venda/consulta', '/v2/ponto-venda/consulta?situacao=X'] },
  '/v2/ponto-venda/cadastro': { parceiroAdmin: ['/v2/ponto-venda/cadastro'], adminV2: ['/v2/ponto-venda/cadastro'] },
  '/v2/ponto-venda/cadastro/[idPontoVenda]/[action]': {
    parceiroAdmin: ['/v2/ponto-venda/cadastro/1/visualizar', '/v2/ponto-venda/cadastro/1/editar'],
  },
  '/v2/ponto-venda/sucesso': { parceiroAdmin: ['/v2/ponto-venda/sucesso?pontoVenda=1&aviso=alterado'] },
  '/importar-usuarios': { adminLegado: ['/importar-usuarios'] },
  '/importar-usuarios/modelo.csv': 'a CSV download, not a page',
  '/importar-usuarios/resultado/[id]': 'a CSV download, not a page',
  '/v2/usuario/importacao/[etapa]': { parceiroAdmin: ['/v2/usuario/importacao/upload'] },
  '/v2/usuario/importacao/modelo.csv': 'a CSV download, not a page',
  '/v2/usuario/importacao/resultado/[id]': 'a CSV download, not a page',
  '/revisao-acessos': { adminLegado: ['/revisao-acessos'] },
  '/v2/usuario/revisao-acessos': { parceiroAdmin: ['/v2/usuario/revisao-acessos'] },
  // Partners and substabelecidos (issue 17): the lists, the steps (new, edit, view) and the offers' rows.
  '/v2/parceiros/consulta': { adminV2: ['/v2/parceiros/consulta', '/v2/parceiros/consulta?status=x'] },
  '/v2/parceiros/etapas/[...passo]': {
    adminV2: [
      '/v2/parceiros/etapas/empresa',
      '/v2/parceiros/etapas/financeiro/11222333000181/conta/editar',
      '/v2/parceiros/etapas/ofertas/11222333000181/produtos/editar',
      '/v2/parceiros/etapas/administrador/11222333000181/usuario/editar',
      '/v2/parceiros/etapas/revisao/11222333000181/resumo/visualizar?operacao=suspender',
    ],
  },
  '/v2/substabelecido/consulta': { parceiroAdmin: ['/v2/substabelecido/consulta'] },
  '/v2/substabelecido/consulta/[action]': { parceiroAdmin: ['/v2/substabelecido/consulta/alterado'] },
  '/v2/substabelecido/etapas/[...passo]': {
    parceiroAdmin: [
      '/v2/substabelecido/etapas/empresa',
      '/v2/substabelecido/etapas/ofertas/33444555000181/produtos/editar',
      '/v2/substabelecido/etapas/revisao/33444555000181/resumo/visualizar',
    ],
  },
};

const isPage = (href: string) =>
  href.startsWith('/') && !href.startsWith('//') && !/\/relatorios\//.test(href) && !href.startsWith('/sair');

function pageFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? pageFiles(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

test('every page file has a row (or a reason to be left out)', () => {
  const pagesDir = join(process.cwd(), 'src/pages');
  const routes = pageFiles(pagesDir)
    .map((file) => routeOfPageFile(`/pages/${relative(pagesDir, file)}`))
    .filter((r): r is string => Boolean(r));
  expect(
    routes.filter((route) => !PAGES[route]),
    'pages without a row',
  ).toEqual([]);
  expect(
    Object.keys(PAGES).filter((route) => !routes.includes(route)),
    'rows of pages that no longer exist',
  ).toEqual([]);
});

/** What is wrong with the layout of the open page at the current width (empty: nothing). */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate((smallHeader) => {
    const problems: string[] = [];
    const width = window.innerWidth;
    const describeElement = (el: Element) => {
      const r = el.getBoundingClientRect();
      const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 30);
      return `<${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? ` class="${el.className}"` : ''}> "${text}" [${Math.round(r.left)}…${Math.round(r.right)}]`;
    };
    if (document.documentElement.scrollWidth > width)
      problems.push(`scrolls sideways: ${document.documentElement.scrollWidth} px in ${width}`);

    // An element outside the screen, unless a box around it clips or scrolls it (that box is checked instead).
    const clips = (el: Element) => {
      const style = getComputedStyle(el);
      return style.overflowX !== 'visible' || style.clipPath !== 'none';
    };
    const stickingOut: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const out = r.right > width + 0.5 || (r.left < -0.5 && r.right > 0); // wholly off to the left: a skip link
      if (!out || !el.checkVisibility({ visibilityProperty: true })) continue;
      let inside = false;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement)
        if (clips(a)) {
          inside = true;
          break;
        }
      if (!inside) stickingOut.push(describeElement(el));
    }
    if (stickingOut.length > 0) problems.push(`sticks out: ${stickingOut.slice(0, 5).join('; ')}`);

    // The header of either frame: its height, and nothing of it cut off or wrapped out of it (the
    // signed-in one also holds the floating chat link, which is not part of the bar).
    const header = document.querySelector('header.portal-header, header.site-header');
    if (header) {
      const h = header.getBoundingClientRect();
      if (Math.round(h.height) !== smallHeader) problems.push(`header is ${h.height} px high, not ${smallHeader}`);
      for (const el of header.querySelectorAll('.shell-bar a, .shell-bar button, .site-header a')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || !el.checkVisibility()) continue;
        if (r.top < h.top - 0.5 || r.bottom > h.bottom + 0.5 || r.right > width + 0.5)
          problems.push(`header control cut off: ${describeElement(el)}`);
      }
    }
    return problems;
  }, SMALL_HEADER);
}

/**
 * At the bottom of the page the chat link (SPEC §9: visible footer + 180 px) covers nothing of the
 * page's content: the content keeps room for it, so everything can be scrolled clear of it.
 */
async function chatCoverage(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const chat = document.querySelector('[data-testid="chat-link"] .chat-button');
    if (!chat) return [];
    // 'instant': the page scrolls smoothly otherwise, and would still be on its way.
    window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' });
    window.dispatchEvent(new Event('scroll'));
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    const c = chat.getBoundingClientRect();
    const covered: string[] = [];
    for (const el of document.querySelectorAll('main *')) {
      const ownText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '');
      if (!ownText && !el.matches('a, button, input, select, textarea, img, svg')) continue;
      if (!el.checkVisibility({ visibilityProperty: true })) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.left < c.right && r.right > c.left && r.top < c.bottom && r.bottom > c.top) {
        covered.push(`<${el.tagName.toLowerCase()}> "${(el.textContent ?? '').trim().slice(0, 30)}"`);
      }
    }
    window.scrollTo({ top: 0, behavior: 'instant' });
    return covered.length > 0 ? [`the chat link covers ${covered.slice(0, 3).join(', ')}`] : [];
  });
}

/** Opens `url` and checks it at every width; returns the problems found, each prefixed by where. */
async function checkPage(page: Page, url: string): Promise<string[]> {
  await page.setViewportSize({ width: WIDTHS[0], height: 844 });
  await page.goto(url);
  // A page may move on by itself (the AFS redirect posts its form at once): check where it lands.
  for (let attempt = 1; ; attempt++) {
    try {
      return await checkOpenPage(page);
    } catch (error) {
      if (attempt === 3 || !String(error).includes('Execution context was destroyed')) throw error;
      await page.waitForLoadState();
    }
  }
}

async function checkOpenPage(page: Page): Promise<string[]> {
  await waitForIslands(page);
  const where = page.url().replace(/^https?:\/\/[^/]+/, '');
  const problems: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 844 });
    for (const problem of await layoutProblems(page)) problems.push(`${where} at ${width} px: ${problem}`);
  }
  await page.setViewportSize({ width: WIDTHS[0], height: 844 });
  for (const problem of await chatCoverage(page)) problems.push(`${where} at ${WIDTHS[0]} px: ${problem}`);
  return problems;
}

/** The internal pages a signed-in user reaches from the menu (every item, open or not) and the home. */
async function linksOf(page: Page, home: string): Promise<string[]> {
  await page.goto(home);
  const hrefs = await page
    .locator('dialog.drawer a.menu-link, main a')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  return hrefs.filter(isPage);
}

/** The stepper's links of the simulator step that is open: every step the quote has reached. */
const stepLinks = (page: Page) => page.locator('.stepper a').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));

/**
 * Sells `code` up to its resumo from the start page that is open, answering from the catalog's
 * questions as a partner would; returns the resumo's address.
 */
async function sellToResumo(page: Page, code: string): Promise<string> {
  const product = productFor(code)!;
  await waitForIslands(page);
  await fillInsured(page, product);
  for (const question of product.cadastroQuestions) await answer(page, question);
  await page.getByRole('button', { name: 'Salvar cotação e continuar' }).click();
  if (product.riskQuestions.length > 0) {
    await page.waitForURL(/\/risco\/\d+\/editar$/);
    await waitForIslands(page);
    for (const question of product.riskQuestions) await answer(page, question);
    await page.getByRole('button', { name: 'Continuar' }).click();
  }
  await page.waitForURL(/\/planos\/\d+\/editar$/);
  await waitForIslands(page);
  await page.getByRole('button', { name: `Escolher ${product.plans[0]!.name}` }).click();
  await page.waitForURL(/\/contratacao\/\d+\/editar$/);
  await waitForIslands(page);
  await page.getByRole('radio', { name: 'Boleto bancário' }).check();
  await page.getByRole('button', { name: 'Continuar' }).click();
  await page.waitForURL(/\/resumo\/\d+/);
  return page.url();
}

async function sendProposal(page: Page) {
  await waitForIslands(page);
  await page.getByLabel('Li e aceito o termo de presente proposta.').check();
  await page.getByRole('button', { name: 'Enviar proposta' }).click();
  await page.waitForURL(/\/(proposta|finalizacao)\/\d+\/visualizar$/);
}

/** Walks every step of the quote whose step page is open, then sends it and walks its steps again (read-only). */
async function walkQuote(page: Page, resumo: string, visit: (url: string) => Promise<void>) {
  await page.goto(resumo);
  for (const href of await stepLinks(page)) await visit(href);
  await page.goto(resumo);
  await sendProposal(page);
  const done = page.url();
  for (const href of [done, ...(await stepLinks(page))]) await visit(href);
}

/** The menu and home links checked so far, per generation. */
const REACHED = { v1: new Set<string>(), v2: new Set<string>() };

/** The rows of PAGES for one account. */
const listedFor = (account: Account) => Object.values(PAGES).flatMap((row) => (typeof row === 'string' ? [] : (row[account] ?? [])));

test.describe('no page scrolls sideways on a phone', () => {
  test.use({ viewport: { width: WIDTHS[0], height: 844 } });

  test('public pages', async ({ page }) => {
    const problems: string[] = [];
    for (const url of listedFor('anon')) problems.push(...(await checkPage(page, url)));
    expect(problems).toEqual([]);
  });

  for (const account of Object.keys(SIGN_IN) as Exclude<Account, 'anon'>[]) {
    test(`signed in as ${SIGN_IN[account].email}`, async ({ page }) => {
      test.setTimeout(240_000);
      const demo = SIGN_IN[account];
      await signIn(page, demo);
      const home = demo.generation === 'v1' ? '/home' : '/v2/home';
      const seen = new Set<string>();
      const problems: string[] = [];
      const visit = async (url: string) => {
        if (seen.has(url)) return;
        seen.add(url);
        problems.push(...(await checkPage(page, url)));
      };
      for (const url of listedFor(account)) await visit(url);
      // Menu and home links another account of the generation has checked are not checked again
      // (most are the same pages); a retry checks everything.
      const reached = test.info().retry === 0 ? REACHED[demo.generation] : new Set<string>();
      for (const url of await linksOf(page, home)) {
        if (!reached.has(url)) await visit(url);
        reached.add(url);
      }

      if (account === 'parceiro') {
        // The demo seed's quotes (one at planos, one sent, one expired) and every step they reached.
        await page.goto('/v2/historico');
        const quotes = (await page.locator('main table a').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''))).filter(
          isPage,
        );
        for (const quote of quotes) {
          await visit(quote);
          for (const step of await stepLinks(page)) await visit(step);
        }
        // A machinery quote sold here: it has every step, risco included, editable and then sent.
        await page.goto('/v2/home/mu');
        await walkQuote(page, await sellToResumo(page, 'MU'), visit);
      }
      if (account === 'vendedor') {
        // A residential quote sold in legacy, down to its finalização.
        await page.goto('/simulador-residencial/cadastro');
        await walkQuote(page, await sellToResumo(page, 'RES'), visit);
      }
      expect(problems).toEqual([]);
    });
  }
});
