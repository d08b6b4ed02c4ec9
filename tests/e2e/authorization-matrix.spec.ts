import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { test } from './fixtures';
import { api } from '../../src/server/api';
import { routeOfPageFile } from '../../src/lib/page-routes';
import { apiSignIn } from './helpers';

/**
 * The authorization matrix (issue 4): every page route and every API endpoint found in the source
 * tree, checked for an anonymous visitor and each demo account that can sign in. A route or endpoint
 * missing from the tables below fails the test, so nothing ships unchecked.
 *
 * Outcomes: an HTTP status, or 'v1' / 'v2' for a redirect to that generation's login (keeping the
 * path), or 'home' for a redirect to the user's home (a login page opened while signed in).
 */
type Account = 'anon' | 'vendedor' | 'adminLegado' | 'adminV2' | 'parceiroAdmin' | 'parceiro' | 'substabelecido';
type Outcome = number | 'v1' | 'v2' | 'home';
type Row = Record<Account, Outcome>;

const ACCOUNTS: Record<Exclude<Account, 'anon'>, { email: string; generation: 'v1' | 'v2' }> = {
  vendedor: { email: 'vendedor@legado.demo', generation: 'v1' },
  adminLegado: { email: 'admin@legado.demo', generation: 'v1' },
  adminV2: { email: 'admin@seguradora.demo', generation: 'v2' },
  parceiroAdmin: { email: 'parceiro.admin@parceiro.demo', generation: 'v2' },
  parceiro: { email: 'parceiro@parceiro.demo', generation: 'v2' },
  substabelecido: { email: 'substabelecido@parceiro.demo', generation: 'v2' },
};

const all = (outcome: Outcome): Row => ({
  anon: outcome,
  vendedor: outcome,
  adminLegado: outcome,
  adminV2: outcome,
  parceiroAdmin: outcome,
  parceiro: outcome,
  substabelecido: outcome,
});
const legacyOnly = (signedIn: Outcome, others: Outcome): Row => ({ ...all(others), vendedor: signedIn, adminLegado: signedIn });
const v2Only = (signedIn: Outcome, others: Outcome): Row => ({
  ...all(others),
  adminV2: signedIn,
  parceiroAdmin: signedIn,
  parceiro: signedIn,
  substabelecido: signedIn,
});

/** Page routes (as files name them) → the path requested and the outcome per account (PORTAL_ENV=TEST). */
const PAGES: Record<string, { path: string; expect: Row }> = {
  '/': { path: '/', expect: all(200) },
  '/403': { path: '/403', expect: all(403) },
  '/404': { path: '/404', expect: all(404) },
  // The page a failure renders (with the request's id): asked for directly, it is still an error page.
  '/500': { path: '/500', expect: all(500) },
  // What a route knows is gone (a paid, cancelled or expired boleto) is said there; asked directly, a plain 410.
  '/410': { path: '/410', expect: all(410) },
  '/signin': { path: '/signin', expect: legacyOnly('home', 200) },
  '/login': { path: '/login', expect: legacyOnly('home', 200) },
  '/esqueci-senha': { path: '/esqueci-senha', expect: all(200) },
  '/reenviar-codigo-validacao': { path: '/reenviar-codigo-validacao', expect: all(200) },
  '/redefinir-senha': { path: '/redefinir-senha?token=nao-existe-este-token', expect: all(410) },
  '/cadastro-login': { path: '/cadastro-login', expect: all(200) },
  '/cadastro-realizado': { path: '/cadastro-realizado', expect: all(200) },
  '/template-email': { path: '/template-email', expect: all(200) },
  '/template-email/[template]': { path: '/template-email/redefinir-senha', expect: all(200) },
  // The token is the credential: without a valid one, nobody — signed in or not — gets a policy.
  '/apolice-digital/[token]': { path: `/apolice-digital/${'A'.repeat(43)}`, expect: all(404) },
  // Issue 31: the insured's boleto link and the reminders' opt-out: the token is the credential.
  '/boleto-digital/[token]': { path: `/boleto-digital/${'A'.repeat(43)}`, expect: all(404) },
  '/boleto-digital/[token]/boleto.pdf': { path: `/boleto-digital/${'A'.repeat(43)}/boleto.pdf`, expect: all(404) },
  '/lembretes/[token]': { path: `/lembretes/${'A'.repeat(43)}`, expect: all(404) },
  '/termo-de-uso': { path: '/termo-de-uso', expect: all(200) },
  '/termo-presente-proposta': { path: '/termo-presente-proposta', expect: all(200) },
  '/mapa-dev-test': { path: '/mapa-dev-test', expect: all(200) },
  // Reset links and codes: the provider's admins only (issue 11).
  '/caixa-postal': { path: '/caixa-postal', expect: { ...all(403), anon: 401, adminLegado: 200, adminV2: 200 } },
  '/dev/kit-ui': { path: '/dev/kit-ui', expect: all(200) },
  // Pays installments: the provider's admins only, like the mailbox (issue 13).
  '/banco-demonstracao': { path: '/banco-demonstracao', expect: { ...all(403), anon: 401, adminLegado: 200, adminV2: 200 } },
  '/sair': { path: '/sair', expect: all(404) }, // POST only: a GET finds nothing
  '/home': { path: '/home', expect: legacyOnly(200, 'v1') },
  // Policies (issue 13): the page for whoever holds the permission, the scope decides which (lib/scope.ts).
  '/apolices': { path: '/apolices', expect: legacyOnly(200, 'v1') },
  '/apolices/[nrApolice]': { path: '/apolices/999999', expect: legacyOnly(404, 'v1') },
  '/v2/apolices': { path: '/v2/apolices', expect: { ...v2Only(200, 'v2'), substabelecido: 403 } },
  '/v2/apolices/[nrApolice]': { path: '/v2/apolices/999999', expect: { ...v2Only(404, 'v2'), substabelecido: 403 } },
  // Renewals (issue 31): guarded as the policies are (the same menu rule); a number outside the scope is a 404.
  '/renovacoes': { path: '/renovacoes', expect: legacyOnly(200, 'v1') },
  '/renovacoes/[nrApolice]': { path: '/renovacoes/999999', expect: legacyOnly(404, 'v1') },
  '/v2/renovacoes': { path: '/v2/renovacoes', expect: { ...v2Only(200, 'v2'), substabelecido: 403 } },
  '/v2/renovacoes/[nrApolice]': { path: '/v2/renovacoes/999999', expect: { ...v2Only(404, 'v2'), substabelecido: 403 } },
  // The policy's ledger as CSV (issue 31): scoped like the policy, so a number outside the scope is the 404 page.
  '/apolices/[nrApolice]/extrato.csv': { path: '/apolices/999999/extrato.csv', expect: legacyOnly(404, 'v1') },
  '/v2/apolices/[nrApolice]/extrato.csv': {
    path: '/v2/apolices/999999/extrato.csv',
    expect: { ...v2Only(404, 'v2'), substabelecido: 403 },
  },
  // The refunds queue (issue 31): the insurer's staff — the legacy administrators' group, the v2 ADMIN.
  '/restituicoes': { path: '/restituicoes', expect: { ...legacyOnly(403, 'v1'), adminLegado: 200 } },
  '/v2/restituicoes': { path: '/v2/restituicoes', expect: { ...v2Only(403, 'v2'), adminV2: 200 } },
  // Payment pages (issue 13): BOLETOS_* in v2 (not the sub-delegated user); CLIENTES_CONSULTA_PAGAMENTO
  // (the admin group only among these accounts), listed in the legacy menu's "Módulos em homologação"
  // outside production — the route answers in production too (decision 007; legacy-modules-production.test.ts).
  '/v2/boleto': { path: '/v2/boleto', expect: { ...v2Only(200, 'v2'), substabelecido: 403 } },
  // Receipts to look at (issue 27 item 13, decision 059): the insurer's money — its ADMIN only; the
  // others /v2/boleto lets in get the page's own 403.
  '/v2/boleto/recebimentos': { path: '/v2/boleto/recebimentos', expect: { ...v2Only(403, 'v2'), adminV2: 200 } },
  // Documents (issue 14, decision 040). Envio is hidden from the menu and guarded by its page: every
  // signed-in viewer opens its search, and a proposal outside their scope is a 404. Consulta follows
  // the menu (DOCUMENTO_CONSULTA_E_DOWNLOAD; PARCEIRO_ADMIN or DOCUMENTOS); a download outside the
  // scope — or of no document — is the 404 page.
  '/documentos/envio': { path: '/documentos/envio', expect: legacyOnly(200, 'v1') },
  '/v2/documentos/envio': { path: '/v2/documentos/envio?proposta=999999', expect: v2Only(404, 'v2') },
  '/documentos/consulta': { path: '/documentos/consulta', expect: { ...legacyOnly(403, 'v1'), adminLegado: 200 } },
  '/v2/documentos/consulta': { path: '/v2/documentos/consulta', expect: { ...v2Only(403, 'v2'), adminV2: 200, parceiroAdmin: 200 } },
  '/documentos/arquivo/[id]': { path: '/documentos/arquivo/999999', expect: legacyOnly(404, 'v1') },
  '/v2/documentos/arquivo/[id]': { path: '/v2/documentos/arquivo/999999', expect: v2Only(404, 'v2') },
  '/consulta-pagamento': { path: '/consulta-pagamento', expect: { ...legacyOnly(403, 'v1'), adminLegado: 200 } },
  '/relatorio-pagamento': { path: '/relatorio-pagamento', expect: { ...legacyOnly(403, 'v1'), adminLegado: 200 } },
  '/relatorio-pagamento/exportar.csv': {
    path: '/relatorio-pagamento/exportar.csv',
    expect: { ...legacyOnly(403, 'v1'), adminLegado: 200 },
  },
  // Legacy selling (issue 6): both legacy accounts hold every offer permission and the history ones.
  '/ofertas': { path: '/ofertas', expect: legacyOnly(200, 'v1') },
  '/ofertas/[tab]': { path: '/ofertas/encerradas', expect: legacyOnly(200, 'v1') },
  '/ofertas-disponiveis': { path: '/ofertas-disponiveis', expect: legacyOnly(200, 'v1') },
  '/historico': { path: '/historico?funcionalidade=residencial', expect: legacyOnly(200, 'v1') },
  // The worklist (issue 31): every signed-in user of the generation; it shows only what their scope allows.
  '/pendencias': { path: '/pendencias?tipo=RENOVACAO', expect: legacyOnly(200, 'v1') },
  // The plain cadastro starts a new simulation: machinery has one offer, started at once.
  '/simulador-[linha]/[...passo]': { path: '/simulador-maquinas/cadastro', expect: legacyOnly(200, 'v1') },
  '/relatorios/[type]/[nrCotation]': { path: '/relatorios/cotacao/999999', expect: legacyOnly(404, 'v1') },
  // A policy or boleto nobody's scope holds: the same 404 as a foreign one (issue 13).
  '/relatorios/[type]/apolice/[nrApolice]': { path: '/relatorios/apolice/apolice/999999', expect: legacyOnly(404, 'v1') },
  // Endorsements (issue 14): a contract outside the viewer's scope, existing or not, is the 404 page.
  '/endosso/home/[idContratacao]': { path: '/endosso/home/999999', expect: legacyOnly(404, 'v1') },
  '/endosso/contato/[idProposta]/[idContratacao]': { path: '/endosso/contato/202600000001/999999', expect: legacyOnly(404, 'v1') },
  '/v2/endosso/home/[idContratacao]': { path: '/v2/endosso/home/999999', expect: v2Only(404, 'v2') },
  '/v2/endosso/contato/[idProposta]/[idContratacao]': { path: '/v2/endosso/contato/202600000001/999999', expect: v2Only(404, 'v2') },
  '/endosso/cancelamento/[...passo]': { path: '/endosso/cancelamento/motivo?contratacao=999999', expect: legacyOnly(404, 'v1') },
  '/v2/endosso/cancelamento/[...passo]': { path: '/v2/endosso/cancelamento/motivo?contratacao=999999', expect: v2Only(404, 'v2') },
  '/perfil': { path: '/perfil', expect: legacyOnly(200, 'v1') },
  '/perfil/seguranca': { path: '/perfil/seguranca', expect: legacyOnly(200, 'v1') },
  '/signin/segundo-fator': { path: '/signin/segundo-fator', expect: legacyOnly('home', 200) },
  // The AFS redirect page (the seller and the admin group hold OFERTAS_DISPONIVEIS_AFS) and its
  // built-in receiver, public and POST-only: a GET explains itself with 405.
  '/simulador-agricola-antigo': { path: '/simulador-agricola-antigo', expect: legacyOnly(200, 'v1') },
  // The embedded issuance apps (decision 054): legacy pages for whoever holds their offer permissions.
  '/emissao/consulta-cotacao/[...rota]': { path: '/emissao/consulta-cotacao/iniciar/empresarial', expect: legacyOnly(200, 'v1') },
  '/emissao/itens-pessoais/[...rota]': { path: '/emissao/itens-pessoais/iniciar/itens-pessoais', expect: legacyOnly(200, 'v1') },
  '/emissao/cotacao/vida/[...rota]': { path: '/emissao/cotacao/vida/nova-cotacao', expect: legacyOnly(200, 'v1') },
  '/afs/receptor': { path: '/afs/receptor', expect: all(405) },
  // Only the legacy admin group edits simulators.
  '/editar-simulador/[id]': { path: '/editar-simulador/1', expect: { ...legacyOnly(403, 'v1'), adminLegado: 200 } },
  '/v2/login': { path: '/v2/login', expect: v2Only('home', 200) },
  '/v2/login/session/[idSessaoSSO]': { path: '/v2/login/session/sessao-sso-inexistente', expect: all(303) },
  // Issue 32: the second step of sign-in — without a challenge it says so (200, a link back to the login).
  '/v2/login/segundo-fator': { path: '/v2/login/segundo-fator', expect: v2Only('home', 200) },
  '/v2/perfil/seguranca': { path: '/v2/perfil/seguranca', expect: v2Only(200, 'v2') },
  '/v2/esqueci-senha': { path: '/v2/esqueci-senha', expect: all(200) },
  '/v2/reenviar-codigo-validacao': { path: '/v2/reenviar-codigo-validacao', expect: all(200) },
  '/v2/senha': { path: '/v2/senha?token=nao-existe-este-token', expect: all(410) },
  '/v2/cadastro-realizado': { path: '/v2/cadastro-realizado', expect: all(200) },
  '/v2/template-email': { path: '/v2/template-email', expect: all(200) },
  '/v2/home': { path: '/v2/home', expect: v2Only(200, 'v2') },
  '/v2/perfil': { path: '/v2/perfil', expect: v2Only(200, 'v2') },
  // Every v2 account sells the seed's one Residencial offer: straight to its start route.
  '/v2/home/[codigo]': { path: '/v2/home/res', expect: v2Only(303, 'v2') },
  '/v2/ofertas': { path: '/v2/ofertas', expect: { ...v2Only(403, 'v2'), adminV2: 200 } },
  '/v2/propostas/analise': { path: '/v2/propostas/analise', expect: { ...v2Only(403, 'v2'), adminV2: 200 } },
  // A document from the analysis queue (issue 27): the queue's guard, then no such document.
  '/v2/propostas/analise/documentos/[id]': {
    path: '/v2/propostas/analise/documentos/999999',
    expect: { ...v2Only(403, 'v2'), adminV2: 404 },
  },
  // The access log (issue 17, decision 049): Gestão › Log de Acesso is the insurer's ADMIN's alone,
  // its CSV too (a bad filter there is a 400 for the ADMIN and still a 403 for anyone else).
  '/v2/log-acesso': { path: '/v2/log-acesso', expect: { ...v2Only(403, 'v2'), adminV2: 200 } },
  '/v2/log-acesso/exportar.csv': { path: '/v2/log-acesso/exportar.csv?de=2026-13-01', expect: { ...v2Only(403, 'v2'), adminV2: 400 } },
  '/v2/ofertas/cadastro/[idSimulador]': { path: '/v2/ofertas/cadastro/1', expect: { ...v2Only(403, 'v2'), adminV2: 200 } },
  // Guarded like /v2/home: every v2 demo account may open the history (invalid filters are a 200 page too).
  '/v2/historico': { path: '/v2/historico?simulador=RES&de=2026-13-01', expect: v2Only(200, 'v2') },
  '/v2/pendencias': { path: '/v2/pendencias?tipo=DOCUMENTOS', expect: v2Only(200, 'v2') },
  // A step without a number resumes the latest quote (or goes home): 303; the sub-delegated user sells no agricultural product.
  '/v2/simulador-[linha]/[...passo]': { path: '/v2/simulador-agricola/cadastro', expect: { ...v2Only(303, 'v2'), substabelecido: 403 } },
  // Nobody sees a quote that does not exist (nor one they may not see): 404, never a PDF.
  '/v2/relatorios/pdf/[type]/[nrCotation]': { path: '/v2/relatorios/pdf/cotacao/999999', expect: v2Only(404, 'v2') },
  '/v2/relatorios/pdf/[type]/apolice/[nrApolice]': {
    path: '/v2/relatorios/pdf/boleto/apolice/999999?parcela=1',
    expect: v2Only(404, 'v2'),
  }, // Commissions (issue 15, decision 041): outside production (PORTAL_ENV=TEST here) the module opens to
  // ADMIN, PARCEIRO_ADMIN and PARCEIRO (SPEC §6), not to the sub-delegated user; each shows the
  // companies of the viewer's scope, and a file outside it — or of no nota — is the 404 page.
  '/v2/comissoes/extrato-comissoes': { path: '/v2/comissoes/extrato-comissoes', expect: { ...v2Only(200, 'v2'), substabelecido: 403 } },
  '/v2/comissoes/extrato-comissoes/exportar.csv': {
    path: '/v2/comissoes/extrato-comissoes/exportar.csv',
    expect: { ...v2Only(200, 'v2'), substabelecido: 403 },
  },
  '/v2/comissoes/envio-nota': { path: '/v2/comissoes/envio-nota', expect: { ...v2Only(200, 'v2'), substabelecido: 403 } },
  '/v2/comissoes/nota-fiscal': { path: '/v2/comissoes/nota-fiscal', expect: { ...v2Only(200, 'v2'), substabelecido: 403 } },
  '/v2/comissoes/nota-fiscal/arquivo/[id]': {
    path: '/v2/comissoes/nota-fiscal/arquivo/999999',
    expect: { ...v2Only(404, 'v2'), substabelecido: 403 },
  },
  // Income statements (issue 15): the menu's rule (FINANCEIRO_INFORME_RENDIMENTO; PARCEIRO_ADMIN or
  // INFORME_RENDIMENTO); a CPF/CNPJ the viewer does not act for is the 404 page, never a PDF.
  '/relatorio-vendas': { path: '/relatorio-vendas', expect: legacyOnly(200, 'v1') },
  '/novo-relatorio-vendas': { path: '/novo-relatorio-vendas', expect: legacyOnly(200, 'v1') },
  '/relatorio-vendas/arquivo/[id]': { path: '/relatorio-vendas/arquivo/999999', expect: legacyOnly(404, 'v1') },
  '/v2/relatorios/vendas/consulta': { path: '/v2/relatorios/vendas/consulta', expect: { ...v2Only(200, 'v2'), parceiro: 403 } },
  '/v2/relatorios/vendas/cadastro': { path: '/v2/relatorios/vendas/cadastro', expect: { ...v2Only(200, 'v2'), parceiro: 403 } },
  '/v2/relatorios/vendas/arquivo/[id]': { path: '/v2/relatorios/vendas/arquivo/999999', expect: { ...v2Only(404, 'v2'), parceiro: 403 } },
  '/evolucao-vendas': { path: '/evolucao-vendas', expect: legacyOnly(200, 'v1') },
  '/atingir-meta': { path: '/atingir-meta?mes=2026-13', expect: legacyOnly(400, 'v1') },
  '/v2/metricas/evolucao-vendas': { path: '/v2/metricas/evolucao-vendas', expect: { ...v2Only(200, 'v2'), substabelecido: 403 } },
  '/v2/metricas/atingimento-meta': { path: '/v2/metricas/atingimento-meta', expect: { ...v2Only(200, 'v2'), substabelecido: 403 } },
  '/informe-rendimentos': { path: '/informe-rendimentos', expect: { ...legacyOnly(403, 'v1'), adminLegado: 200 } },
  '/v2/informe-rendimentos': { path: '/v2/informe-rendimentos', expect: { ...v2Only(403, 'v2'), adminV2: 200, parceiroAdmin: 200 } },
  '/relatorios/[type]/[nmCpfCnpj]/[nmPrestador]/[nrAno]': {
    path: '/relatorios/informe-rendimentos/99888777000166/empresa/2026',
    expect: legacyOnly(404, 'v1'),
  },
  '/v2/relatorios/pdf/[type]/[nmCpfCnpj]/[nmPrestador]/[nrAno]': {
    path: '/v2/relatorios/pdf/informe-rendimentos/99888777000166/empresa/2026',
    expect: v2Only(404, 'v2'),
  },
  // Users (issue 16, decision 046): the legacy pages need USUARIOS (the admin group here; the seller
  // lacks it), the v2 ones the Acesso › Usuários › Cadastro rule (ADMIN, PARCEIRO_ADMIN, or
  // GERENCIAR_USUARIOS: the sub-delegated demo user holds it). A user outside the viewer's is a 404.
  '/consulta-usuarios': { path: '/consulta-usuarios', expect: { ...legacyOnly(403, 'v1'), adminLegado: 200 } },
  '/cadastrar-usuario': { path: '/cadastrar-usuario', expect: { ...legacyOnly(403, 'v1'), adminLegado: 200 } },
  '/editar-usuario/[id]': { path: '/editar-usuario/999999', expect: { ...legacyOnly(403, 'v1'), adminLegado: 404 } },
  // Issue 32: an administrator resets a managed user's second factor; a user not theirs is the 404 page.
  '/editar-usuario/[id]/segundo-fator': {
    path: '/editar-usuario/999999/segundo-fator',
    expect: { ...legacyOnly(403, 'v1'), adminLegado: 404 },
  },
  // Under /v2/usuario, guarded as the users list (a seller who may not list users: 403).
  '/v2/usuario/segundo-fator/[id]': { path: '/v2/usuario/segundo-fator/999999', expect: { ...v2Only(404, 'v2'), parceiro: 403 } },
  '/v2/usuario/cadastro/consulta': { path: '/v2/usuario/cadastro/consulta', expect: { ...v2Only(200, 'v2'), parceiro: 403 } },
  '/v2/usuario/cadastro/[...passo]': {
    path: '/v2/usuario/cadastro/dados-pessoais/52998224725/editar',
    expect: { ...v2Only(404, 'v2'), parceiro: 403 },
  },
  // Groups (issue 16, decision 047). Legacy: the menu's USUARIOS rule ("Módulos em homologação", listed
  // outside production; the route answers in every environment) reads them; only the admin group opens
  // a change (anyone else: the 404 page).
  // v2: the Permissões rule (ADMIN, PARCEIRO_ADMIN, or GERENCIAR_PERMISSOES, which no demo seller holds).
  '/grupo-acesso': { path: '/grupo-acesso', expect: { ...legacyOnly(403, 'v1'), adminLegado: 200 } },
  '/grupo-acesso/[grupo]/[canal]/[action]': {
    path: '/grupo-acesso/VENDEDOR/portal/editar',
    expect: { ...legacyOnly(403, 'v1'), adminLegado: 200 },
  },
  '/v2/usuario/permissoes/consulta': {
    path: '/v2/usuario/permissoes/consulta',
    expect: { ...v2Only(403, 'v2'), adminV2: 200, parceiroAdmin: 200 },
  },
  '/v2/usuario/permissoes/cadastro': {
    path: '/v2/usuario/permissoes/cadastro',
    expect: { ...v2Only(403, 'v2'), adminV2: 200, parceiroAdmin: 200 },
  },
  '/v2/usuario/permissoes/[id]/[cdCnpjEmpresa]/[action]': {
    path: '/v2/usuario/permissoes/999999/11222333000181/editar',
    expect: { ...v2Only(403, 'v2'), adminV2: 404, parceiroAdmin: 404 },
  },
  '/v2/usuario/permissoes/sucesso': {
    path: '/v2/usuario/permissoes/sucesso',
    expect: { ...v2Only(403, 'v2'), adminV2: 404, parceiroAdmin: 404 },
  },
  // Hierarchy and channels (issue 17, decision 050): the guard asks HIERARQUIA VIEW (the admin group
  // here; the seller lacks it); the channel forms are the admin group's (a HIERARQUIA holder: 403).
  '/consulta-hierarquia': { path: '/consulta-hierarquia', expect: { ...legacyOnly(403, 'v1'), adminLegado: 200 } },
  '/cadastrar-canal': { path: '/cadastrar-canal', expect: { ...legacyOnly(403, 'v1'), adminLegado: 200 } },
  '/editar-canal/[id]': { path: '/editar-canal/1', expect: { ...legacyOnly(403, 'v1'), adminLegado: 200 } },
  // Points of sale (issue 17, decision 051): Acesso › Ponto de Venda (ADMIN, PARCEIRO_ADMIN, or
  // GERENCIAR_PONTO_VENDA, which no demo seller holds); one outside the viewer's companies — or none —
  // is the 404 page, and so is the success page without a point of sale of theirs.
  '/v2/ponto-venda/consulta': { path: '/v2/ponto-venda/consulta', expect: { ...v2Only(403, 'v2'), adminV2: 200, parceiroAdmin: 200 } },
  '/v2/ponto-venda/cadastro': { path: '/v2/ponto-venda/cadastro', expect: { ...v2Only(403, 'v2'), adminV2: 200, parceiroAdmin: 200 } },
  '/v2/ponto-venda/cadastro/[idPontoVenda]/[action]': {
    path: '/v2/ponto-venda/cadastro/999999/editar',
    expect: { ...v2Only(403, 'v2'), adminV2: 404, parceiroAdmin: 404 },
  },
  '/v2/ponto-venda/sucesso': { path: '/v2/ponto-venda/sucesso', expect: { ...v2Only(403, 'v2'), adminV2: 404, parceiroAdmin: 404 } },
  // Bulk import (issue 16, decision 048): the legacy page needs USUARIOS EDIT (the admin group here),
  // the v2 ones the user administration rule and the right to change users; an import that is not
  // the viewer's — or none — is the 404 page; the template is a CSV for whoever may import.
  '/importar-usuarios': { path: '/importar-usuarios', expect: { ...legacyOnly(403, 'v1'), adminLegado: 200 } },
  '/importar-usuarios/modelo.csv': { path: '/importar-usuarios/modelo.csv', expect: { ...legacyOnly(403, 'v1'), adminLegado: 200 } },
  '/importar-usuarios/resultado/[id]': {
    path: '/importar-usuarios/resultado/999999',
    expect: { ...legacyOnly(403, 'v1'), adminLegado: 404 },
  },
  '/v2/usuario/importacao/[etapa]': { path: '/v2/usuario/importacao/upload', expect: { ...v2Only(200, 'v2'), parceiro: 403 } },
  '/v2/usuario/importacao/modelo.csv': { path: '/v2/usuario/importacao/modelo.csv', expect: { ...v2Only(200, 'v2'), parceiro: 403 } },
  '/v2/usuario/importacao/resultado/[id]': {
    path: '/v2/usuario/importacao/resultado/999999',
    expect: { ...v2Only(404, 'v2'), parceiro: 403 },
  },
  // Bulk actions and export (issue 32, decision 070): the list's guard covers them; a GET of the
  // preview goes back to the list (it only answers the bulk form's POST); a job not the viewer's — or none — is the 404 page.
  '/consulta-usuarios/lote': { path: '/consulta-usuarios/lote', expect: { ...legacyOnly(403, 'v1'), adminLegado: 303 } },
  '/consulta-usuarios/lote/[id]': { path: '/consulta-usuarios/lote/999999', expect: { ...legacyOnly(403, 'v1'), adminLegado: 404 } },
  '/consulta-usuarios/exportar.csv': { path: '/consulta-usuarios/exportar.csv', expect: { ...legacyOnly(403, 'v1'), adminLegado: 200 } },
  '/consulta-usuarios/exportar.xlsx': { path: '/consulta-usuarios/exportar.xlsx', expect: { ...legacyOnly(403, 'v1'), adminLegado: 200 } },
  '/v2/usuario/cadastro/lote': { path: '/v2/usuario/cadastro/lote', expect: { ...v2Only(303, 'v2'), parceiro: 403 } },
  '/v2/usuario/cadastro/lote/[id]': { path: '/v2/usuario/cadastro/lote/999999', expect: { ...v2Only(404, 'v2'), parceiro: 403 } },
  '/v2/usuario/cadastro/exportar.csv': { path: '/v2/usuario/cadastro/exportar.csv', expect: { ...v2Only(200, 'v2'), parceiro: 403 } },
  '/v2/usuario/cadastro/exportar.xlsx': { path: '/v2/usuario/cadastro/exportar.xlsx', expect: { ...v2Only(200, 'v2'), parceiro: 403 } },
  // Access reviews (issue 32, decision 071): guarded as the users list, and the right to change users
  // (else the 404 page) — the legacy admin group; v2's administrators and the sub-delegated manager.
  '/revisao-acessos': { path: '/revisao-acessos', expect: { ...legacyOnly(403, 'v1'), adminLegado: 200 } },
  '/v2/usuario/revisao-acessos': { path: '/v2/usuario/revisao-acessos', expect: { ...v2Only(200, 'v2'), parceiro: 403 } },
  // Partners (issue 17, decision 052): the insurer's ADMIN only (Acesso › Parceiro). Substabelecidos:
  // ADMIN, PARCEIRO_ADMIN, or GERENCIAR_SUBSTABELECIDO (no demo seller holds it); the list's {action}
  // is what was just done; Vale Verde is under the partner administrator's Horizonte.
  '/v2/parceiros/consulta': { path: '/v2/parceiros/consulta', expect: { ...v2Only(403, 'v2'), adminV2: 200 } },
  '/v2/parceiros/etapas/[...passo]': { path: '/v2/parceiros/etapas/empresa', expect: { ...v2Only(403, 'v2'), adminV2: 200 } },
  '/v2/substabelecido/consulta': {
    path: '/v2/substabelecido/consulta',
    expect: { ...v2Only(403, 'v2'), adminV2: 200, parceiroAdmin: 200 },
  },
  '/v2/substabelecido/consulta/[action]': {
    path: '/v2/substabelecido/consulta/cadastrado',
    expect: { ...v2Only(403, 'v2'), adminV2: 200, parceiroAdmin: 200 },
  },
  '/v2/substabelecido/etapas/[...passo]': {
    path: '/v2/substabelecido/etapas/revisao/33444555000181/resumo/visualizar',
    expect: { ...v2Only(403, 'v2'), adminV2: 200, parceiroAdmin: 200 },
  },
  // A page per user and the pending invitations (issue 32): guarded as each generation's users list; a
  // user outside the viewer's administration — here nobody's — is the 404 page.
  '/consulta-usuarios/[id]': { path: '/consulta-usuarios/999999', expect: { ...legacyOnly(403, 'v1'), adminLegado: 404 } },
  '/consulta-usuarios/convites': { path: '/consulta-usuarios/convites', expect: { ...legacyOnly(403, 'v1'), adminLegado: 200 } },
  '/v2/usuario/[id]': { path: '/v2/usuario/999999', expect: { ...v2Only(404, 'v2'), parceiro: 403 } },
  '/v2/usuario/convites': { path: '/v2/usuario/convites', expect: { ...v2Only(200, 'v2'), parceiro: 403 } },
};

const CONTACT = {
  email: 'matriz@exemplo.com.br',
  telefone: '11912345678',
  endereco: { cep: '01310100', logradouro: 'Avenida Paulista', numero: '1', bairro: 'Bela Vista', cidade: 'São Paulo', uf: 'SP' },
};

/** API endpoints ('METHOD /path') → a request and the outcome per account. */
const API: Record<string, { path?: string; body?: unknown; headers?: Record<string, string>; stream?: true; expect: Row }> = {
  'POST /api/plataforma/v1/login': { body: {}, expect: all(400) },
  'GET /api/plataforma/v1/permissoes/:idUsuario': {
    path: '/api/plataforma/v1/permissoes/1', // admin@legado.demo's permissions
    expect: { ...all(401), vendedor: 403, adminLegado: 200 },
  },
  'POST /api/plataforma/v1/login/token': {
    body: { nome: 'Portal', email: 'parceiro@parceiro.demo' },
    expect: { ...all(401), adminV2: 403, parceiroAdmin: 403, parceiro: 200, substabelecido: 403 },
  },
  'GET /api/plataforma/v1/usuarios/filtro': {
    expect: { anon: 401, vendedor: 403, adminLegado: 200, adminV2: 200, parceiroAdmin: 200, parceiro: 403, substabelecido: 200 },
  },
  // Creating and changing users: who may change users gets the body's field errors (400); others 403.
  'POST /api/plataforma/v1/usuarios': { body: {}, expect: { ...all(400), anon: 401, vendedor: 403, parceiro: 403 } },
  'PUT /api/plataforma/v1/usuarios/:id': {
    path: '/api/plataforma/v1/usuarios/999999',
    body: {},
    expect: { ...all(400), anon: 401, vendedor: 403, parceiro: 403 },
  },
  'PUT /api/plataforma/v1/usuarios/:id/status': {
    path: '/api/plataforma/v1/usuarios/999999/status',
    body: {},
    expect: { ...all(400), anon: 401, vendedor: 403, parceiro: 403 },
  },
  // Hierarchy and channels (issue 17): legacy sessions only; HIERARQUIA reads, the admin group changes
  // (the body's field errors, 400; a channel that does not exist, 404); anyone else 403 first.
  'GET /api/plataforma/v1/hierarquia': { expect: { ...legacyOnly(403, 401), adminLegado: 200 } },
  'GET /api/plataforma/v1/canais': { expect: { ...legacyOnly(403, 401), adminLegado: 200 } },
  'POST /api/plataforma/v1/canais': { body: {}, expect: { ...legacyOnly(403, 401), adminLegado: 400 } },
  'PUT /api/plataforma/v1/canais/:id': {
    path: '/api/plataforma/v1/canais/999999',
    body: {},
    expect: { ...legacyOnly(403, 401), adminLegado: 404 },
  },
  'PUT /api/plataforma/v1/senha': { body: {}, expect: legacyOnly(400, 401) },
  'POST /api/plataforma/v1/senha/esqueci': { body: {}, expect: all(400) },
  'POST /api/plataforma/v1/senha/redefinir': { body: {}, expect: all(400) },
  'POST /api/plataforma/v1/codigo-validacao/reenviar': { body: {}, expect: all(400) },
  'POST /api/plataforma/v1/primeiro-acesso': { body: {}, expect: all(400) },
  'GET /api/bff/v1/usuario': { expect: v2Only(200, 401) },
  'PUT /api/bff/v1/senha': { body: {}, expect: v2Only(400, 401) },
  'POST /api/bff/v1/senha/esqueci': { body: {}, expect: all(400) },
  'POST /api/bff/v1/senha/redefinir': { body: {}, expect: all(400) },
  'POST /api/bff/v1/codigo-validacao/reenviar': { body: {}, expect: all(400) },
  'POST /api/bff/v1/primeiro-acesso': { body: {}, expect: all(400) },
  'POST /api/gateway/login': { body: {}, expect: all(400) },
  'GET /api/auth/v2/cognito-auth/token/:nmIdSessao': {
    path: '/api/auth/v2/cognito-auth/token/sessao-sso-inexistente',
    headers: { nmIdSessao: 'sessao-sso-inexistente' },
    expect: all(401),
  },
  'POST /api/auth/v2/sessao-sso': {
    body: { email: 'parceiro@parceiro.demo' },
    expect: { ...all(401), adminV2: 200, parceiroAdmin: 403, parceiro: 403, substabelecido: 403 },
  },
  'GET /api/plataforma/v1/simuladores': { expect: { ...all(200), anon: 401 } },
  'GET /api/plataforma/v1/simuladores/produtos/data-para-cotacao': {
    path: '/api/plataforma/v1/simuladores/produtos/data-para-cotacao?idSimulador=1', // RES: every v2 account reaches its offer
    expect: v2Only(200, 401),
  },
  'POST /api/plataforma/v1/simuladores/iniciar': {
    // The sub-delegated user may not sell the agricultural simulator; the legacy sellers start it
    // too (the embedded issuance apps start their simulators through this call, decision 054).
    body: { cdTipoSimulador: 'AFU' },
    expect: { ...all(200), anon: 401, substabelecido: 403 },
  },
  // What the embedded apps' host reports when an app breaks: the legacy session only.
  'POST /api/plataforma/v1/aplicacoes/erros': { body: { app: 'emissao-vida', mensagem: 'teste da matriz' }, expect: legacyOnly(200, 401) },
  'GET /api/plataforma/v1/simuladores/redirect': { path: '/api/plataforma/v1/simuladores/redirect?tipo=AFS', expect: legacyOnly(200, 401) },
  'PUT /api/plataforma/v1/simuladores/:id': {
    path: '/api/plataforma/v1/simuladores/1',
    body: {},
    expect: { ...legacyOnly(403, 401), adminLegado: 400 },
  },
  'GET /api/bff/v1/ofertas': { expect: v2Only(200, 401) },
  'POST /api/bff/v1/ofertas': { body: {}, expect: { ...v2Only(403, 401), adminV2: 400 } },
  'PUT /api/bff/v1/ofertas/:nrOferta': { path: '/api/bff/v1/ofertas/1', body: {}, expect: { ...v2Only(403, 401), adminV2: 400 } },
  'GET /api/bff/v1/empresas': { expect: { ...v2Only(403, 401), adminV2: 200 } },
  // The access log as JSON: the ADMIN's alone, whatever the filters (issue 17).
  'GET /api/bff/v1/log-acesso': { path: '/api/bff/v1/log-acesso?evento=LOGIN', expect: { ...v2Only(403, 401), adminV2: 200 } },
  'GET /api/bff/v1/cotacoes': { path: '/api/bff/v1/cotacoes?status=VENCIDA', expect: v2Only(200, 401) },
  'POST /api/bff/v1/cotacoes': { body: {}, expect: v2Only(400, 401) },
  'GET /api/bff/v1/cotacoes/:nrCotacao': { path: '/api/bff/v1/cotacoes/999999', expect: v2Only(404, 401) },
  'PUT /api/bff/v1/cotacoes/:nrCotacao/:etapa': { path: '/api/bff/v1/cotacoes/999999/planos', body: {}, expect: v2Only(404, 401) },
  'POST /api/bff/v1/cotacoes/:nrCotacao/proposta': {
    path: '/api/bff/v1/cotacoes/999999/proposta',
    body: { aceiteTermo: true },
    expect: v2Only(404, 401),
  },
  'POST /api/bff/v1/cotacoes/:nrCotacao/proposta/documentos': {
    path: '/api/bff/v1/cotacoes/999999/proposta/documentos',
    body: { mensagem: 'Fotos da fachada enviadas.' },
    expect: v2Only(404, 401),
  },
  // Only the provider's ADMIN decides (a proposal that does not exist: 404).
  'POST /api/bff/v1/propostas/:nrProposta/decisao': {
    path: '/api/bff/v1/propostas/999999/decisao',
    body: { decisao: 'ACEITAR' },
    expect: { ...v2Only(403, 401), adminV2: 404 },
  },
  'POST /api/bff/v1/precificacao': {
    body: { cdSimulador: 'AFU', respostas: {}, selecao: {} }, // answers missing: 400; the sub-delegated user may not price AFU
    expect: { ...v2Only(400, 401), substabelecido: 403 },
  },
  // The legacy quote calls: the same as the BFF's, with the legacy token only.
  'POST /api/plataforma/v1/cotacoes': { body: {}, expect: legacyOnly(400, 401) },
  'GET /api/plataforma/v1/cotacoes/:nrCotacao': { path: '/api/plataforma/v1/cotacoes/999999', expect: legacyOnly(404, 401) },
  'PUT /api/plataforma/v1/cotacoes/:nrCotacao/:etapa': {
    path: '/api/plataforma/v1/cotacoes/999999/planos',
    body: {},
    expect: legacyOnly(404, 401),
  },
  'POST /api/plataforma/v1/cotacoes/:nrCotacao/proposta': {
    path: '/api/plataforma/v1/cotacoes/999999/proposta',
    body: { aceiteTermo: true },
    expect: legacyOnly(404, 401),
  },
  'POST /api/plataforma/v1/cotacoes/:nrCotacao/proposta/documentos': {
    path: '/api/plataforma/v1/cotacoes/999999/proposta/documentos',
    body: { mensagem: 'Fotos da fachada enviadas.' },
    expect: legacyOnly(404, 401),
  },
  'POST /api/plataforma/v1/precificacao': { body: { cdSimulador: 'AFU', respostas: {}, selecao: {} }, expect: legacyOnly(400, 401) },
  'GET /api/plataforma/v1/cotacoes': { path: '/api/plataforma/v1/cotacoes?status=VENCIDA', expect: legacyOnly(200, 401) },
  // Payments (issue 13): the e2e server has no webhook secret, so no bank confirms here (404).
  'POST /api/pagamentos/v1/confirmacoes': { body: { id: '1', codigo: '1' }, expect: all(404) },
  'POST /api/pagamentos/v1/banco-demonstracao': {
    body: { codigo: '00190000090114971860168524522114675860000102656' }, // a valid slip, not one of ours: 404
    expect: { ...all(403), anon: 401, adminLegado: 404, adminV2: 404 },
  },
  'POST /api/bff/v1/apolices/:nrApolice/parcelas/:numero/segunda-via': {
    path: '/api/bff/v1/apolices/999999/parcelas/1/segunda-via',
    body: { vencimento: '2099-01-01' },
    expect: v2Only(400, 401), // a due date out of range is refused before the policy is looked up
  },
  'POST /api/plataforma/v1/apolices/:nrApolice/parcelas/:numero/segunda-via': {
    path: '/api/plataforma/v1/apolices/999999/parcelas/1/segunda-via',
    body: { vencimento: '2099-01-01' },
    expect: legacyOnly(400, 401),
  },
  // Issue 31: sending the insured the policy or a boleto — a policy nobody's scope holds is a 404.
  'POST /api/bff/v1/apolices/:nrApolice/envios': {
    path: '/api/bff/v1/apolices/999999/envios',
    body: { tipo: 'apolice' },
    expect: v2Only(404, 401),
  },
  'POST /api/plataforma/v1/apolices/:nrApolice/envios': {
    path: '/api/plataforma/v1/apolices/999999/envios',
    body: { tipo: 'apolice' },
    expect: legacyOnly(404, 401),
  },
  'POST /api/bff/v1/apolices/:nrApolice/link-whatsapp': {
    path: '/api/bff/v1/apolices/999999/link-whatsapp',
    body: { tipo: 'apolice' },
    expect: v2Only(404, 401),
  },
  'POST /api/plataforma/v1/apolices/:nrApolice/link-whatsapp': {
    path: '/api/plataforma/v1/apolices/999999/link-whatsapp',
    body: { tipo: 'apolice' },
    expect: legacyOnly(404, 401),
  },
  // A valid contact for a contract nobody's scope holds: the same 404 as another company's (issue 14).
  'POST /api/bff/v1/apolices/:idContratacao/endossos/contato': {
    path: '/api/bff/v1/apolices/999999/endossos/contato',
    body: CONTACT,
    expect: v2Only(404, 401),
  },
  'POST /api/plataforma/v1/apolices/:idContratacao/endossos/contato': {
    path: '/api/plataforma/v1/apolices/999999/endossos/contato',
    body: CONTACT,
    expect: legacyOnly(404, 401),
  },
  // The cancellation's steps and its confirmation for a contract nobody's scope holds (issue 14).
  ...Object.fromEntries(
    (['bff', 'plataforma'] as const).flatMap((base) => {
      const expect = base === 'bff' ? v2Only(404, 401) : legacyOnly(404, 401);
      const at = (step: string) => `/api/${base}/v1/apolices/999999/cancelamento${step}`;
      return [
        [
          `PUT /api/${base}/v1/apolices/:idContratacao/cancelamento/motivo`,
          { path: at('/motivo'), body: { solicitante: 'SEGURADO', motivo: 'OUTRO_SEGURO', efetivaEm: '2026-12-01' }, expect },
        ],
        [
          `PUT /api/${base}/v1/apolices/:idContratacao/cancelamento/coberturas`,
          { path: at('/coberturas'), body: { escopo: 'TOTAL' }, expect },
        ],
        [
          `POST /api/${base}/v1/apolices/:idContratacao/cancelamento`,
          { path: at(''), body: { chave: '00000000-0000-4000-8000-000000000000' }, expect },
        ],
        // Undoing a scheduled cancellation (issue 27, decision 055).
        [`DELETE /api/${base}/v1/apolices/:idContratacao/cancelamento/agendado`, { path: at('/agendado'), expect }],
      ];
    }),
  ),
  // Documents (issue 14): a proposal nobody's scope holds is a 404 (the JSON body is no file, but the
  // proposal is looked up first); bad filters are 400; a document of no one's is a 404.
  'POST /api/bff/v1/propostas/:nrProposta/documentos': {
    path: '/api/bff/v1/propostas/999999/documentos?categoria=OUTRO',
    headers: { 'x-nome-arquivo': 'laudo.pdf' },
    body: { nao: 'um arquivo' },
    expect: v2Only(404, 401),
  },
  'POST /api/plataforma/v1/propostas/:nrProposta/documentos': {
    path: '/api/plataforma/v1/propostas/999999/documentos?categoria=OUTRO',
    headers: { 'x-nome-arquivo': 'laudo.pdf' },
    body: { nao: 'um arquivo' },
    expect: legacyOnly(404, 401),
  },
  'GET /api/bff/v1/documentos': { path: '/api/bff/v1/documentos?de=2026-13-01', expect: v2Only(400, 401) },
  'GET /api/plataforma/v1/documentos': { path: '/api/plataforma/v1/documentos?de=2026-13-01', expect: legacyOnly(400, 401) },
  'GET /api/bff/v1/documentos/:id/arquivo': { path: '/api/bff/v1/documentos/999999/arquivo', expect: v2Only(404, 401) },
  'GET /api/plataforma/v1/documentos/:id/arquivo': { path: '/api/plataforma/v1/documentos/999999/arquivo', expect: legacyOnly(404, 401) },
  // Removing a document sent by mistake (issue 27): a document of no one's is a 404.
  'DELETE /api/bff/v1/documentos/:id': { path: '/api/bff/v1/documentos/999999', expect: v2Only(404, 401) },
  'DELETE /api/plataforma/v1/documentos/:id': { path: '/api/plataforma/v1/documentos/999999', expect: legacyOnly(404, 401) },
  // Commissions (issue 15): the module's rule first (the sub-delegated user: 403), then the input (400)
  // and the scope (404). The upload's query is read before anyone's rule: a bad one is a 400 to all.
  'GET /api/bff/v1/comissoes/extrato': {
    path: '/api/bff/v1/comissoes/extrato?competencia=2026-13',
    expect: { ...v2Only(400, 401), substabelecido: 403 },
  },
  'GET /api/bff/v1/comissoes/notas': { path: '/api/bff/v1/comissoes/notas?status=X', expect: v2Only(400, 401) },
  'POST /api/bff/v1/comissoes/notas': { path: '/api/bff/v1/comissoes/notas?competencia=2026-13', expect: v2Only(400, 401) },
  'POST /api/bff/v1/comissoes/notas/:id/decisao': {
    path: '/api/bff/v1/comissoes/notas/999999/decisao',
    body: { decisao: 'APROVAR' },
    expect: { ...v2Only(404, 401), substabelecido: 403 },
  },
  'GET /api/bff/v1/comissoes/notas/:id/arquivo': {
    path: '/api/bff/v1/comissoes/notas/999999/arquivo',
    expect: { ...v2Only(404, 401), substabelecido: 403 },
  },
  // Points of sale (issue 17): the menu's rule first (403), then the body (400) and the scope (404).
  'GET /api/bff/v1/pontos-venda': { expect: { ...v2Only(403, 401), adminV2: 200, parceiroAdmin: 200 } },
  'GET /api/bff/v1/pontos-venda/:id': {
    path: '/api/bff/v1/pontos-venda/999999',
    expect: { ...v2Only(403, 401), adminV2: 404, parceiroAdmin: 404 },
  },
  'POST /api/bff/v1/pontos-venda': { body: {}, expect: { ...v2Only(403, 401), adminV2: 400, parceiroAdmin: 400 } },
  'PUT /api/bff/v1/pontos-venda/:id': {
    path: '/api/bff/v1/pontos-venda/999999',
    body: {},
    expect: { ...v2Only(403, 401), adminV2: 400, parceiroAdmin: 400 },
  },
  // The live worklist's events (issue 31): every signed-in viewer of the base's generation has one.
  // Issue 32 (decision 068): the second step of sign-in needs its challenge (cookie or header), never a
  // session — every account without one gets 401, and a body that is no answer a 400 first.
  'GET /api/auth/v1/segundo-fator': { expect: all(401) },
  'POST /api/auth/v1/segundo-fator/totp': { body: {}, expect: all(400) },
  'POST /api/auth/v1/segundo-fator/recuperacao': { body: {}, expect: all(400) },
  'POST /api/auth/v1/segundo-fator/passkey/opcoes': { expect: all(401) },
  'POST /api/auth/v1/segundo-fator/passkey': { body: {}, expect: all(400) },
  // The user's own security, each generation under its base: only a session of that generation. Every
  // change of the factor, the codes or the remembered browsers first asks for a recent proof (issue 42,
  // decision 073): without one it is 403 CONFIRMACAO_NECESSARIA, after a body that is no request (400).
  ...Object.fromEntries(
    (
      [
        ['plataforma', (signedIn: Outcome) => legacyOnly(signedIn, 401)],
        ['bff', (signedIn: Outcome) => v2Only(signedIn, 401)],
      ] as const
    ).flatMap(([base, row]) => {
      return [
        [`GET /api/${base}/v1/seguranca`, { expect: row(200) }],
        [`POST /api/${base}/v1/seguranca/confirmacao`, { body: {}, expect: row(400) }],
        [`POST /api/${base}/v1/seguranca/aplicativo/inicio`, { expect: row(403) }],
        [`POST /api/${base}/v1/seguranca/aplicativo`, { body: {}, expect: row(400) }],
        [`DELETE /api/${base}/v1/seguranca/aplicativo`, { expect: row(403) }],
        [`POST /api/${base}/v1/seguranca/chaves/opcoes`, { expect: row(403) }],
        [`POST /api/${base}/v1/seguranca/chaves`, { body: {}, expect: row(400) }],
        [`DELETE /api/${base}/v1/seguranca/chaves/:id`, { path: `/api/${base}/v1/seguranca/chaves/999999`, expect: row(403) }],
        [`POST /api/${base}/v1/seguranca/codigos-recuperacao`, { expect: row(403) }],
        [`POST /api/${base}/v1/seguranca/dispositivos/esquecer`, { expect: row(403) }],
        // Own sessions: nobody's session 999999 is theirs (404); ending the others leaves the caller's own.
        [`GET /api/${base}/v1/sessoes`, { expect: row(200) }],
        [`DELETE /api/${base}/v1/sessoes/:id`, { path: `/api/${base}/v1/sessoes/999999`, expect: row(404) }],
        [`POST /api/${base}/v1/sessoes/encerrar-outras`, { expect: row(200) }],
      ];
    }),
  ),
  // An administrator resets a managed user's second factor: nobody manages user 999999 (404); a seller may not (403).
  'POST /api/plataforma/v1/usuarios/:id/segundo-fator/redefinir': {
    path: '/api/plataforma/v1/usuarios/999999/segundo-fator/redefinir',
    expect: { ...all(404), anon: 401, vendedor: 403, parceiro: 403 },
  },
  'GET /api/bff/v1/pendencias/eventos': { stream: true, expect: v2Only(200, 401) },
  'GET /api/plataforma/v1/pendencias/eventos': { stream: true, expect: legacyOnly(200, 401) },
  'GET /api/bff/v1/informes-rendimentos': { expect: { ...v2Only(403, 401), adminV2: 200, parceiroAdmin: 200 } },
  'GET /api/plataforma/v1/informes-rendimentos': { expect: { ...legacyOnly(403, 401), adminLegado: 200 } },
  // Partners and substabelecidos (issue 17): who may not use them gets 403 before anything is read;
  // a step of a registration that does not exist, or a confirmation of none, is a 404; a status
  // without a valid situacao, a 400. Nothing here writes.
  ...Object.fromEntries(
    (
      [
        ['parceiros', '11222333000181', { adminV2: true }],
        ['substabelecidos', '33444555000181', { adminV2: true, parceiroAdmin: true }],
      ] as const
    ).flatMap(([base, cnpj, managers]) => {
      const row = (outcome: Outcome): Row => ({
        ...v2Only(403, 401),
        ...Object.fromEntries(Object.keys(managers).map((a) => [a, outcome])),
      });
      return [
        [`GET /api/bff/v1/${base}`, { expect: row(200) }],
        [`GET /api/bff/v1/${base}/:cnpj`, { path: `/api/bff/v1/${base}/${cnpj}`, expect: row(200) }],
        [
          `PUT /api/bff/v1/${base}/:cnpj/etapas/:tela/:subetapa`,
          { path: `/api/bff/v1/${base}/19131243000197/etapas/endereco/sede`, body: {}, expect: row(404) },
        ],
        [
          `POST /api/bff/v1/${base}/:cnpj/confirmacao`,
          { path: `/api/bff/v1/${base}/19131243000197/confirmacao`, body: {}, expect: row(404) },
        ],
        [`PUT /api/bff/v1/${base}/:cnpj/situacao`, { path: `/api/bff/v1/${base}/${cnpj}/situacao`, body: {}, expect: row(400) }],
      ];
    }),
  ),
  // A page per user and the invitations (issue 32): a user of nobody's is a 404 to whoever may list
  // users; the actions need the right to change users first (403); the list, the right to list them.
  ...Object.fromEntries(
    (['plataforma', 'bff'] as const).flatMap((base) => {
      const only = base === 'plataforma' ? legacyOnly : v2Only;
      const lister: Account = base === 'plataforma' ? 'vendedor' : 'parceiro';
      const at = (rest: string) => `/api/${base}/v1/usuarios/999999${rest}`;
      return [
        [`GET /api/${base}/v1/usuarios/:id/pagina`, { path: at('/pagina'), expect: only(404, 401) }],
        [`GET /api/${base}/v1/usuarios/:id/historico`, { path: at('/historico?tipo=registro'), expect: only(404, 401) }],
        [`GET /api/${base}/v1/convites`, { expect: { ...only(200, 401), [lister]: 403 } }],
        ...['/convite/reenvio', '/convite/cancelamento', '/nova-senha', '/sessoes/encerrar'].map((action) => [
          `POST /api/${base}/v1/usuarios/:id${action}`,
          { path: at(action), body: {}, expect: { ...only(404, 401), [lister]: 403 } },
        ]),
        [`DELETE /api/${base}/v1/usuarios/:id/sessoes/:sessao`, { path: at('/sessoes/1'), expect: { ...only(404, 401), [lister]: 403 } }],
        // Bulk actions and export (decision 070): the right to change users (403), then an empty selection (400);
        // someone else's job, or none, is a 404; the export needs the right to list them.
        [`POST /api/${base}/v1/usuarios/lote/previa`, { body: {}, expect: { ...only(400, 401), [lister]: 403 } }],
        [`POST /api/${base}/v1/usuarios/lote`, { body: {}, expect: { ...only(400, 401), [lister]: 403 } }],
        [
          `GET /api/${base}/v1/usuarios/lote/:id`,
          { path: `/api/${base}/v1/usuarios/lote/999999`, expect: { ...only(404, 401), [lister]: 403 } },
        ],
        [
          `GET /api/${base}/v1/usuarios/exportar`,
          { path: `/api/${base}/v1/usuarios/exportar?formato=csv`, expect: { ...only(200, 401), [lister]: 403 } },
        ],
        // The access review (decision 076): whoever may change users reads it; a lister is refused.
        [`GET /api/${base}/v1/usuarios/revisao-acessos`, { expect: { ...only(200, 401), [lister]: 403 } }],
      ];
    }),
  ),
  // Checked last for each account: it ends the session.
  'POST /api/auth/v1/logout': { expect: all(200) },
};

function pageFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? pageFiles(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}
const pagesDir = join(process.cwd(), 'src/pages');
const sourcePages = pageFiles(pagesDir)
  .map((file) => routeOfPageFile(`/pages/${relative(pagesDir, file)}`))
  .filter((route): route is string => Boolean(route));
const sourceEndpoints = api.endpoints.map((e) => `${e.method} ${e.path}`);

test('every page and endpoint of the source tree has a row in the matrix', () => {
  expect(
    sourcePages.filter((route) => !PAGES[route]),
    'pages without a row',
  ).toEqual([]);
  expect(
    sourceEndpoints.filter((key) => !API[key]),
    'endpoints without a row',
  ).toEqual([]);
  expect(
    Object.keys(PAGES).filter((route) => !sourcePages.includes(route)),
    'rows of pages that no longer exist',
  ).toEqual([]);
  expect(
    Object.keys(API).filter((key) => !sourceEndpoints.includes(key)),
    'rows of endpoints that no longer exist',
  ).toEqual([]);
});

async function contextFor(account: Account, baseURL: string): Promise<APIRequestContext> {
  const context = await playwrightRequest.newContext({ baseURL, maxRedirects: 0 });
  if (account === 'anon') return context;
  // Through the second factor of an administrator (decision 068), as the login screens do.
  await apiSignIn(context, ACCOUNTS[account], { base: baseURL });
  return context;
}

function outcomeOf(status: number, location: string | undefined, requested: string): Outcome {
  if (status !== 302 || !location) return status;
  const target = new URL(location, 'http://x');
  for (const generation of ['v1', 'v2'] as const) {
    const login = generation === 'v1' ? '/signin' : '/v2/login';
    if (target.pathname === login && target.searchParams.get('next') === requested) return generation;
  }
  if (target.pathname === '/home' || target.pathname === '/v2/home') return 'home';
  return status;
}

for (const account of ['anon', ...Object.keys(ACCOUNTS)] as Account[]) {
  test(`matrix for ${account}`, async ({ baseURL }) => {
    const context = await contextFor(account, baseURL!);
    const mismatches: string[] = [];
    for (const [route, row] of Object.entries(PAGES)) {
      const response = await context.get(row.path);
      const outcome = outcomeOf(response.status(), response.headers().location, row.path);
      if (outcome !== row.expect[account]) mismatches.push(`page ${route}: expected ${row.expect[account]}, got ${outcome}`);
    }
    for (const [key, row] of Object.entries(API)) {
      const [method, path] = key.split(' ') as [string, string];
      if (row.stream) {
        // An event stream never ends: its status is read, then it is closed.
        const { cookies } = await context.storageState();
        const abort = new AbortController();
        const response = await fetch(new URL(row.path ?? path, baseURL), {
          headers: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; ') },
          signal: abort.signal,
        });
        abort.abort();
        if (response.status !== row.expect[account]) mismatches.push(`api ${key}: expected ${row.expect[account]}, got ${response.status}`);
        continue;
      }
      const response = await context.fetch(row.path ?? path, {
        method,
        headers: { 'x-portal-session': 'cookie', ...row.headers },
        ...(row.body === undefined ? {} : { data: row.body }),
      });
      if (response.status() !== row.expect[account])
        mismatches.push(`api ${key}: expected ${row.expect[account]}, got ${response.status()}`);
    }
    await context.dispose();
    expect(mismatches).toEqual([]);
  });
}

test('a v2 user may not act for a company they are not linked to (empresa header → 403)', async ({ baseURL }) => {
  const context = await contextFor('substabelecido', baseURL!);
  const own = await context.get('/api/bff/v1/usuario', { headers: { empresa: '33444555000181', 'x-portal-session': 'cookie' } });
  expect(own.status()).toBe(200);
  const foreign = await context.get('/api/bff/v1/usuario', { headers: { empresa: '11222333000181', 'x-portal-session': 'cookie' } });
  expect(foreign.status()).toBe(403);
  expect(await foreign.json()).toMatchObject({ status: 403, message: 'Você não tem acesso a esta empresa.' });
  await context.dispose();
});
