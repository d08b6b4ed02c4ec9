import { V1_ADMIN_GROUP, type Profile, type V1Permission } from './permissions';

/**
 * The non-secret part of a session, rendered into the page as JSON to seed the `$session` store.
 * Tokens never appear here: they live in httpOnly cookies (docs/decisions/002-sessions-in-cookies.md).
 */
export interface V1SessionUser {
  generation: 'v1';
  idUsuario: number;
  nome: string;
  email: string;
  /** Names of the user's permission groups. */
  profile: string[];
  permissions: V1Permission[];
  dataUltimoAcessoFormatada: string;
}

export interface Company {
  cdCnpj: string;
  nmRazaoSocial: string;
}

export interface V2SessionUser {
  generation: 'v2';
  idUsuario: number;
  nmUsuario: string;
  email: string;
  /** As stored: 'parceiro', 'parceiro_admin', 'substabelecido', 'admin'. */
  cdPerfilUsuario: string;
  /** The same profile as menu rules name it. */
  profile: Profile;
  cdOperacoes: string[];
  cdCnpjEmpresa: string | null;
  empresas: Company[];
  /** Partner profiles hold a simulator token too when fully authenticated (SPEC §4). */
  fullyAuthenticated: boolean;
}

export interface PortalSession {
  v1?: V1SessionUser;
  v2?: V2SessionUser;
}

/** Cookie names of the three tokens of SPEC §4. */
export const TOKEN_COOKIES = { v1: 'tokenV1', v2: 'tokenV2', simulador: 'tokenSimulador' } as const;

/** SPEC §8 messages that mean "sign in again". */
export const TOKEN_MESSAGES = {
  invalid: 'Este token não é mais válido solicite um novo acesso.',
  expired: 'O prazo de utilização do token expirou.',
  missing: 'Unauthorized',
} as const;
export const isTokenMessage = (message: unknown): boolean => Object.values(TOKEN_MESSAGES).includes(message as never);

/**
 * Why a session was ended by something other than its own sign-out (issue 42, migration 049), and
 * what the login page then says (`?sessao=<reason>`): a person sent back to the login is told why.
 */
export const SESSION_END_NOTICES = {
  'segundo-fator-redefinido':
    'Um administrador redefiniu a sua verificação em duas etapas e encerrou as suas sessões. Entre novamente: o portal vai pedir que você a configure de novo.',
  'nova-senha':
    'Um administrador pediu que você cadastre uma nova senha e encerrou as suas sessões. Use o link que enviamos para o seu e-mail.',
  'senha-alterada': 'A senha desta conta foi alterada e as outras sessões foram encerradas. Entre com a nova senha.',
  encerrada: 'Esta sessão foi encerrada em outro dispositivo. Entre novamente.',
  'encerrada-admin': 'Um administrador encerrou a sua sessão. Entre novamente.',
} as const;
export type SessionEndReason = keyof typeof SESSION_END_NOTICES;
/**
 * Keeps why for the next login redirect when the session's cookie is cleared by a request that was no
 * navigation (an open page's live refresh): the login still says it, once.
 */
export const SESSION_ENDED_COOKIE = 'sessaoEncerrada';
export const isSessionEndReason = (value: unknown): value is SessionEndReason =>
  typeof value === 'string' && Object.hasOwn(SESSION_END_NOTICES, value);

/** The header with which the portal's own browser client asks for cookie sessions. */
export const COOKIE_SESSION_HEADER = 'x-portal-session';

/** The signed-in user of one generation, tagged, as pages and the permission rules take it. */
export type SessionViewer = { generation: 'v1'; user: V1SessionUser } | { generation: 'v2'; user: V2SessionUser };

export function viewerOf(session: PortalSession, generation: 'v1' | 'v2'): SessionViewer | undefined {
  if (generation === 'v1') return session.v1 ? { generation, user: session.v1 } : undefined;
  return session.v2 ? { generation, user: session.v2 } : undefined;
}

export const displayName = (viewer: SessionViewer) => (viewer.generation === 'v1' ? viewer.user.nome : viewer.user.nmUsuario);

/**
 * The insurer's own staff: the v2 ADMIN profile (admin@seguradora…), the one profile that belongs to
 * the insurer alone. The legacy administrators' group does not count: it is a partner's group too
 * (the demo's admin@legado belongs to the broker Horizonte), and what only the insurer may do — date a
 * cancellation back (decision 055) — must not reach a partner through it.
 */
export const isInsurerStaff = (viewer: SessionViewer): boolean => viewer.generation === 'v2' && viewer.user.profile === 'ADMIN';

/**
 * The provider's administrators, of either generation: the only readers of the demo mailbox, which
 * holds reset links and validation codes (docs/decisions/028-mailbox-and-secrets.md).
 */
export const isProviderAdmin = (session: PortalSession): boolean =>
  Boolean(session.v1?.profile.includes(V1_ADMIN_GROUP) || session.v2?.profile === 'ADMIN');
