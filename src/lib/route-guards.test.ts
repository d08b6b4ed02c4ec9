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
