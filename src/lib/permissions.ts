/**
 * Roles and permissions of both generations (SPEC §6), as data plus the two `can` rules.
 * Pure: the server refuses with these rules and the islands hide with the same ones.
 */

/** v2 profiles as stored in `cdPerfilUsuario` (lower case) and shown in menu rules (upper case). */
export const PROFILES = ['ADMIN', 'PARCEIRO_ADMIN', 'PARCEIRO', 'SUBSTABELECIDO'] as const;
export type Profile = (typeof PROFILES)[number];

export const SIMULATOR_OFFER_SUFFIXES = [
  'RESIDENCIAL',
  'AGRICOLAFLEXULTRON',
  'EMPRESARIAL',
  'EMPRESARIAL_ALELO',
  'ITENS_PESSOAIS',
  'VIDAESSENCIAL',
  'VIDAESSENCIALULTRON',
  'MAQUINAULTRON',
  'PATRIMONIO_RURAL',
  'FLORESTA',
  'VIDAFLEX',
  'AGRICOLAFLEX',
  'PENHOR_RURAL',
] as const;
export const offerOperation = (suffix: (typeof SIMULATOR_OFFER_SUFFIXES)[number]) => `OFERTAS_DISPONIVEIS_SIMULADORES_${suffix}` as const;

/** v2 operations (`cdOperacoes`). */
export const OPERATIONS = [
  'RELATORIO_VENDAS',
  'METRICAS',
  'APOLICE_VENDEDOR',
  'HISTORICO_COTACAO_PROPOSTA',
  'INFORME_RENDIMENTO',
  'DOCUMENTOS',
  'GERENCIAR_USUARIOS',
  'GERENCIAR_PARCEIRO',
  'GERENCIAR_PERMISSOES',
  'GERENCIAR_SUBSTABELECIDO',
  'GERENCIAR_PONTO_VENDA',
  'COTAR_VENDER',
  'APOLICE_EMPRESA',
  'BOLETOS_EMPRESA',
  'BOLETOS_VENDEDOR',
  ...SIMULATOR_OFFER_SUFFIXES.map(offerOperation),
] as const;
export type Operation = (typeof OPERATIONS)[number];

/** Legacy (v1) permission codes; OFERTAS_DISPONIVEIS_## takes a simulator code in place of ##. */
export const V1_PERMISSIONS = [
  'RELATORIO_GESTAO',
  'DOCUMENTO',
  'DOCUMENTO_CONSULTA_E_DOWNLOAD',
  'HISTORICO_VENDAS',
  'HISTORICO_VENDAS_PROPOSTAS',
  'HISTORICO_VENDAS_SIMULACAO',
  'CLIENTES_CONSULTA_PAGAMENTO',
  'FINANCEIRO_INFORME_RENDIMENTO',
  'HIERARQUIA',
  'USUARIOS',
  'NAO_EXIBIR',
] as const;
export const v1OfferPermission = (simulatorCode: string) => `OFERTAS_DISPONIVEIS_${simulatorCode.toUpperCase()}`;

/** The v1 group whose members may do everything (SPEC §6). */
export const V1_ADMIN_GROUP = 'ADMINISTRADOR';

export interface V1Permission {
  nome: string;
  permiteVisualizacao: boolean;
  permiteAlteracao: boolean;
}
export interface V1Subject {
  profile: readonly string[];
  permissions: readonly V1Permission[];
}
export type Access = 'VIEW' | 'EDIT';

export function canV1(user: V1Subject, permission: string, access: Access): boolean {
  if (user.profile.includes(V1_ADMIN_GROUP)) return true;
  const found = user.permissions.find((p) => p.nome === permission);
  if (!found) return false;
  return access === 'VIEW' ? found.permiteVisualizacao : found.permiteAlteracao;
}

/** The session user of v2 (lib/session) is a subject as it is. */
export interface V2Subject {
  profile: Profile;
  cdOperacoes: readonly string[];
}
export interface V2Rule {
  profiles?: readonly Profile[];
  operations?: readonly string[];
}

/** Profile OR operation; with `profileAndOperation` both are required (SPEC §6). */
export function canV2(user: V2Subject, rule: V2Rule, options: { profileAndOperation?: boolean } = {}): boolean {
  const byProfile = (rule.profiles ?? []).includes(user.profile);
  const byOperation = (rule.operations ?? []).some((op) => user.cdOperacoes.includes(op));
  return options.profileAndOperation ? byProfile && byOperation : byProfile || byOperation;
}

/** Who may list and manage users, in each generation. */
export const MANAGE_USERS_V1 = 'USUARIOS';
export const MANAGE_USERS_V2: V2Rule = { profiles: ['ADMIN', 'PARCEIRO_ADMIN'], operations: ['GERENCIAR_USUARIOS'] };

/** Profiles that need a simulator token to be "fully authenticated" (SPEC §4). */
export const PROFILES_WITH_SIMULATOR_TOKEN: readonly Profile[] = ['PARCEIRO_ADMIN', 'PARCEIRO', 'SUBSTABELECIDO'];

/**
 * Operation of the restricted operations group (SPEC §6, §9): its users do not see 'Gestão' outside
 * production. The legacy generation has the equivalent permission group OPERACAO_RESTRITA.
 */
export const RESTRICTED_OPERATION = 'OPERACAO_RESTRITA';
