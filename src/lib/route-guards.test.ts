import { describe, expect, it } from 'vitest';
import { pageAccess } from './route-guards';
import { routeArea } from './routes';
import { V1_ADMIN_GROUP } from './permissions';

/** The routes of the AFS redirect and of the simulator editing (decision 020). */
const legacy = (profile: string[], permissions: string[]) => ({
  generation: 'v1' as const,
  user: { profile, permissions: permissions.map((nome) => ({ nome, permiteVisualizacao: true, permiteAlteracao: false })) },
});
const afsSeller = legacy(['VENDEDOR'], ['OFERTAS_DISPONIVEIS_AFS']);
const resSeller = legacy(['VENDEDOR'], ['OFERTAS_DISPONIVEIS_RES', 'HISTORICO_VENDAS']);
const admin = legacy([V1_ADMIN_GROUP], []);

describe('AFS and simulator editing routes', () => {
  it.each([
    [afsSeller, '/simulador-agricola-antigo', 'allowed'],
    [resSeller, '/simulador-agricola-antigo', 'forbidden'],
    [admin, '/simulador-agricola-antigo', 'allowed'],
    [afsSeller, '/editar-simulador/1', 'forbidden'],
    [resSeller, '/editar-simulador/1', 'forbidden'],
    [admin, '/editar-simulador/1', 'allowed'],
  ] as const)('%#: %s → %s', (viewer, path, access) => expect(pageAccess(path, viewer, 'PRD')).toBe(access));

  it('the built-in receiver is public (an external application does not share the session); the redirect page is legacy', () => {
    expect(routeArea('/afs/receptor')).toBe('public');
    expect(routeArea('/simulador-agricola-antigo')).toBe('v1');
  });
});

describe('Documentos › Envio, hidden from the menu and guarded by its page (decision 040)', () => {
  it.each([
    [resSeller, '/documentos/envio', 'allowed'],
    [resSeller, '/documentos/consulta', 'forbidden'],
    [legacy(['OPERACAO_RESTRITA'], ['DOCUMENTO_CONSULTA_E_DOWNLOAD']), '/documentos/consulta', 'allowed'],
    [admin, '/documentos/consulta', 'allowed'],
  ] as const)('%#: %s → %s', (viewer, path, access) => expect(pageAccess(path, viewer, 'PRD')).toBe(access));
});

/**
 * Issue 27 (17): the legacy extra modules are *listed* in the menu only outside production (SPEC §2,
 * "Módulos em homologação"), but their routes are legacy routes of a signed-in session: in PRD they
 * answer to whoever holds their permission and refuse (403) the others — never the 404 page.
 */
describe('the legacy staging modules in production', () => {
  const manager = legacy(['GESTOR'], ['USUARIOS', 'CLIENTES_CONSULTA_PAGAMENTO', 'RELATORIO_GESTAO']);
  const seller = legacy(['VENDEDOR'], ['RELATORIO_GESTAO']);
  const adviser = legacy(['CONSULTOR'], ['HISTORICO_VENDAS']);
  it.each([
    ['/grupo-acesso', manager, seller],
    ['/grupo-acesso/VENDEDOR/portal/visualizar', manager, seller],
    ['/importar-usuarios', manager, seller],
    ['/importar-usuarios/modelo.csv', manager, seller],
    ['/consulta-pagamento', manager, seller],
    ['/relatorio-pagamento', manager, seller],
    ['/relatorio-pagamento/exportar.csv', manager, seller],
    ['/novo-relatorio-vendas', seller, adviser],
  ] as const)('%s: allowed to a holder, forbidden to others, in PRD as in TEST', (path, holder, other) => {
    for (const environment of ['PRD', 'TEST'] as const) {
      expect(pageAccess(path, holder, environment), environment).toBe('allowed');
      expect(pageAccess(path, other, environment), environment).toBe('forbidden');
      expect(pageAccess(path, admin, environment), environment).toBe('allowed');
    }
  });

  it('the commissions stay outside production (SPEC §2 gives them no production route)', () => {
    const partner = { generation: 'v2' as const, user: { profile: 'PARCEIRO_ADMIN' as const, cdOperacoes: [] } };
    expect(pageAccess('/v2/comissoes/extrato-comissoes', partner, 'PRD')).toBe('not-found');
    expect(pageAccess('/v2/comissoes/extrato-comissoes', partner, 'TEST')).toBe('allowed');
  });
});

describe('the refunds queue (issue 31): the insurer’s staff only', () => {
  const v2 = (profile: string, cdOperacoes: string[] = []) => ({ generation: 'v2' as const, user: { profile, cdOperacoes } as never });
  it.each([
    [admin, '/restituicoes', 'allowed'],
    [resSeller, '/restituicoes', 'forbidden'],
    [legacy(['GESTOR'], ['USUARIOS', 'HISTORICO_VENDAS']), '/restituicoes', 'forbidden'],
    [v2('ADMIN'), '/v2/restituicoes', 'allowed'],
    [v2('PARCEIRO_ADMIN'), '/v2/restituicoes', 'forbidden'],
    [v2('PARCEIRO', ['APOLICE_EMPRESA', 'BOLETOS_EMPRESA']), '/v2/restituicoes', 'forbidden'],
    [v2('SUBSTABELECIDO', ['APOLICE_VENDEDOR']), '/v2/restituicoes', 'forbidden'],
  ] as const)('%#: %s → %s', (viewer, path, access) => expect(pageAccess(path, viewer, 'PRD')).toBe(access));
});
