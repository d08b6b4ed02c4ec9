import type { Profile } from './permissions';
import { SIMULATOR_CODES } from './simulators';
import { v1OfferPermission } from './permissions';

/**
 * Both side menus of SPEC §2 as data. An item is a link (internal `route` or `external` address key)
 * or a group of `children`. Visibility rules live in ./menu-visibility.ts; external addresses come
 * from configuration (server/config.ts `externalLinks`).
 */
export type ExternalLinkKey = 'bibliotecaParceiro' | 'personalizadoFolder' | 'personalizadoGifs' | 'conquistaPremiada' | 'relatorioTeste';

export interface MenuItem {
  id: string;
  title: string;
  route?: string;
  external?: ExternalLinkKey;
  children?: MenuItem[];
  /** Legacy: VIEW on any of these codes shows the item; none listed → visible to all. */
  permissions?: string[];
  /** v2: profiles of the SPEC §6 table. */
  profiles?: Profile[];
  /** v2: operations of the SPEC §6 table (any one suffices). */
  operations?: string[];
  /** Only in DEV, HML and TEST: hidden from the menu, and its routes are the 404 page in PRD. */
  nonProduction?: boolean;
  /**
   * A legacy extra module (SPEC §2 "Módulos em homologação"): listed in the menu only in DEV, HML and
   * TEST, with the staging warning. Only the listing: its routes answer in every environment to whoever
   * holds their permission, reached from the screens they belong to (decision 007).
   */
  staging?: boolean;
  /** Never shown (SPEC: Documentos › Envio has NAO_EXIBIR / no profiles). */
  hidden?: boolean;
  /** v2 'Gestão': hidden outside production for users of the restricted operations group. */
  hiddenForRestrictedOutsideProduction?: boolean;
}

const ALL_OFFERS_V1 = SIMULATOR_CODES.map((s) => v1OfferPermission(s.code));

export const LEGACY_MENU: MenuItem[] = [
  { id: 'home', title: 'Home', route: '/home' },
  // Ours (issue 31): every signed-in user's worklist; it shows only what their scope allows.
  { id: 'pendencias', title: 'Pendências', route: '/pendencias' },
  { id: 'seguros', title: 'Seguros', children: [{ id: 'ofertas', title: 'Ofertas', route: '/ofertas', permissions: ALL_OFFERS_V1 }] },
  {
    id: 'dados',
    title: 'Dados',
    children: [
      { id: 'relatorios', title: 'Relatórios', route: '/relatorio-vendas', permissions: ['RELATORIO_GESTAO'] },
      {
        id: 'metricas',
        title: 'Métricas',
        children: [
          { id: 'evolucao-vendas', title: 'Evolução de vendas', route: '/evolucao-vendas', permissions: ['RELATORIO_GESTAO'] },
          { id: 'atingir-meta', title: 'Atingimento de meta', route: '/atingir-meta', permissions: ['RELATORIO_GESTAO'] },
        ],
      },
      {
        id: 'relatorio-teste',
        title: 'Relatório (teste)',
        external: 'relatorioTeste',
        permissions: ['RELATORIO_GESTAO'],
        nonProduction: true,
        staging: true,
      },
    ],
  },
  {
    id: 'campanhas',
    title: 'Campanhas',
    children: [
      { id: 'biblioteca', title: 'Biblioteca do parceiro', external: 'bibliotecaParceiro' },
      {
        id: 'personalizados',
        title: 'Personalizados',
        children: [
          { id: 'folder', title: 'Folder', external: 'personalizadoFolder' },
          { id: 'gifs', title: 'Gifs', external: 'personalizadoGifs' },
        ],
      },
    ],
  },
  { id: 'conquista-premiada', title: 'Conquista Premiada', external: 'conquistaPremiada' },
  {
    id: 'documentos',
    title: 'Documentos',
    children: [
      { id: 'documentos-envio', title: 'Envio', route: '/documentos/envio/', permissions: ['NAO_EXIBIR'], hidden: true },
      {
        id: 'documentos-consulta',
        title: 'Consulta e Download',
        route: '/documentos/consulta/',
        permissions: ['DOCUMENTO_CONSULTA_E_DOWNLOAD'],
      },
    ],
  },
  {
    id: 'meus-clientes',
    title: 'Meus Clientes',
    children: [
      { id: 'apolices', title: 'Apólices', route: '/apolices', permissions: ['HISTORICO_VENDAS'] },
      { id: 'renovacoes', title: 'Renovações', route: '/renovacoes', permissions: ['HISTORICO_VENDAS'] },
    ],
  },
  {
    id: 'financeiro',
    title: 'Financeiro',
    children: [
      { id: 'informe', title: 'Informe de Rendimento', route: '/informe-rendimentos', permissions: ['FINANCEIRO_INFORME_RENDIMENTO'] },
    ],
  },
  {
    id: 'acesso',
    title: 'Acesso',
    children: [
      { id: 'hierarquia', title: 'Hierarquia', route: '/consulta-hierarquia', permissions: ['HIERARQUIA'] },
      { id: 'usuarios', title: 'Usuários', route: '/consulta-usuarios', permissions: ['USUARIOS'] },
    ],
  },
  {
    id: 'modulos-homologacao',
    title: 'Módulos em homologação',
    staging: true,
    children: [
      {
        id: 'novo-relatorio-vendas',
        title: 'Novo relatório de vendas',
        route: '/novo-relatorio-vendas',
        permissions: ['RELATORIO_GESTAO'],
      },
      {
        id: 'relatorio-pagamento',
        title: 'Relatório de pagamentos',
        route: '/relatorio-pagamento',
        permissions: ['CLIENTES_CONSULTA_PAGAMENTO'],
      },
      {
        id: 'consulta-pagamento',
        title: 'Consulta de pagamentos',
        route: '/consulta-pagamento',
        permissions: ['CLIENTES_CONSULTA_PAGAMENTO'],
      },
      { id: 'importar-usuarios', title: 'Importar usuários', route: '/importar-usuarios', permissions: ['USUARIOS'] },
      { id: 'grupo-acesso', title: 'Grupos de acesso', route: '/grupo-acesso', permissions: ['USUARIOS'] },
    ],
  },
];

const ACESSO: Profile[] = ['PARCEIRO_ADMIN', 'SUBSTABELECIDO', 'PARCEIRO'];

/** The newer menu with the SPEC §6 visibility table on each row. */
export const V2_MENU: MenuItem[] = [
  {
    id: 'home',
    title: 'Home',
    route: '/v2/home',
    profiles: ['PARCEIRO_ADMIN', 'PARCEIRO', 'SUBSTABELECIDO'],
    operations: ['HISTORICO_COTACAO_PROPOSTA'],
  },
  // Ours (issue 31): every signed-in user's worklist (ADMIN sees every item); it shows only what their scope allows.
  { id: 'pendencias', title: 'Pendências', route: '/v2/pendencias', profiles: ['PARCEIRO_ADMIN', 'PARCEIRO', 'SUBSTABELECIDO'] },
  {
    id: 'seguros',
    title: 'Seguros',
    profiles: ['ADMIN'],
    children: [
      { id: 'ofertas', title: 'Ofertas', route: '/v2/ofertas' },
      // Ours (SPEC §2 does not list it): the acceptance queue of issue 13.
      { id: 'analise-propostas', title: 'Análise de propostas', route: '/v2/propostas/analise', profiles: ['ADMIN'] },
    ],
  },
  {
    id: 'dados',
    title: 'Dados',
    profiles: ['PARCEIRO_ADMIN'],
    children: [
      {
        id: 'relatorios',
        title: 'Relatórios',
        route: '/v2/relatorios/vendas/consulta',
        profiles: ['PARCEIRO_ADMIN', 'SUBSTABELECIDO'],
        operations: ['RELATORIO_VENDAS'],
      },
      {
        id: 'metricas',
        title: 'Métricas',
        profiles: ['PARCEIRO_ADMIN', 'ADMIN', 'PARCEIRO'],
        operations: ['METRICAS'],
        children: [
          { id: 'evolucao-vendas', title: 'Evolução de vendas', route: '/v2/metricas/evolucao-vendas' },
          { id: 'atingimento-meta', title: 'Atingimento de meta', route: '/v2/metricas/atingimento-meta' },
        ],
      },
    ],
  },
  {
    id: 'campanhas',
    title: 'Campanhas',
    profiles: ['PARCEIRO_ADMIN', 'ADMIN'],
    children: [
      { id: 'biblioteca', title: 'Biblioteca do parceiro', external: 'bibliotecaParceiro' },
      {
        id: 'personalizados',
        title: 'Personalizados',
        children: [
          { id: 'folder', title: 'Folder', external: 'personalizadoFolder' },
          { id: 'gifs', title: 'Gifs', external: 'personalizadoGifs' },
        ],
      },
    ],
  },
  {
    id: 'conquista-premiada',
    title: 'Conquista Premiada',
    external: 'conquistaPremiada',
    profiles: ['PARCEIRO', 'PARCEIRO_ADMIN', 'SUBSTABELECIDO'],
  },
  {
    id: 'documentos',
    title: 'Documentos',
    profiles: ['PARCEIRO_ADMIN'],
    operations: ['DOCUMENTOS'],
    children: [
      { id: 'documentos-envio', title: 'Envio', route: '/v2/documentos/envio/', profiles: [], hidden: true },
      { id: 'documentos-consulta', title: 'Consulta e Download', route: '/v2/documentos/consulta/' },
    ],
  },
  {
    id: 'meus-clientes',
    title: 'Meus Clientes',
    profiles: ['PARCEIRO_ADMIN'],
    operations: ['APOLICE_VENDEDOR', 'APOLICE_EMPRESA'],
    children: [
      { id: 'apolices', title: 'Apólices', route: '/v2/apolices' },
      { id: 'renovacoes', title: 'Renovações', route: '/v2/renovacoes' },
      {
        id: 'boleto',
        title: '2ª via de boleto',
        route: '/v2/boleto',
        profiles: ['PARCEIRO_ADMIN', 'ADMIN', 'PARCEIRO'],
        operations: ['BOLETOS_VENDEDOR', 'BOLETOS_EMPRESA'],
      },
    ],
  },
  {
    id: 'financeiro',
    title: 'Financeiro',
    profiles: ['PARCEIRO_ADMIN'],
    operations: ['INFORME_RENDIMENTO'],
    children: [
      { id: 'informe', title: 'Informe de rendimentos', route: '/v2/informe-rendimentos' },
      {
        id: 'comissoes',
        title: 'Comissões',
        profiles: ['PARCEIRO_ADMIN', 'ADMIN', 'PARCEIRO'],
        nonProduction: true,
        children: [
          { id: 'extrato', title: 'Extrato', route: '/v2/comissoes/extrato-comissoes' },
          { id: 'nota-fiscal', title: 'Nota Fiscal', route: '/v2/comissoes/nota-fiscal' },
        ],
      },
    ],
  },
  {
    id: 'acesso',
    title: 'Acesso',
    profiles: ACESSO,
    children: [
      { id: 'parceiro', title: 'Parceiro', route: '/v2/parceiros/consulta', profiles: ['ADMIN'] },
      {
        id: 'substabelecido',
        title: 'Substabelecido',
        route: '/v2/substabelecido/consulta',
        profiles: ACESSO,
        operations: ['GERENCIAR_SUBSTABELECIDO'],
      },
      {
        id: 'ponto-venda',
        title: 'Ponto de Venda',
        route: '/v2/ponto-venda/consulta',
        profiles: ACESSO,
        operations: ['GERENCIAR_PONTO_VENDA'],
      },
      {
        id: 'usuarios',
        title: 'Usuários',
        children: [
          {
            id: 'usuarios-cadastro',
            title: 'Cadastro',
            route: '/v2/usuario/cadastro/consulta',
            profiles: ACESSO,
            operations: ['GERENCIAR_USUARIOS'],
          },
          {
            id: 'usuarios-permissoes',
            title: 'Permissões',
            route: '/v2/usuario/permissoes/consulta',
            profiles: ACESSO,
            operations: ['GERENCIAR_PERMISSOES'],
          },
        ],
      },
    ],
  },
  {
    id: 'gestao',
    title: 'Gestão',
    profiles: ['ADMIN'],
    hiddenForRestrictedOutsideProduction: true,
    children: [{ id: 'log-acesso', title: 'Log de Acesso', route: '/v2/log-acesso' }],
  },
];
