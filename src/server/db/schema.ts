import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { SessionEndReason } from '../../lib/session';
import type { ProposalEvent, ProposalStatus } from '../../lib/acceptance';
import type { StoredInstallmentStatus, StoredPolicyStatus } from '../../lib/policies';
import type { InsuredContact } from '../../lib/endorsements';
import type { Requester } from '../../lib/refund';
import type { RefundStatus } from '../../lib/refund-status';
import type { DocumentCategory, DocumentMime } from '../../lib/documents';
import type { NotaMime, NotaStatus } from '../../lib/nota-fiscal';

/** Table types of the database (snake_case, as in SQL). Migrations in ./migrations are the truth. */

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export type Generation = 'v1' | 'v2';
/** BLOQUEADO: kept out until unblocked (migration 016). */
export type UserStatus = 'ATIVO' | 'PENDENTE' | 'INATIVO' | 'BLOQUEADO';
export type V2ProfileCode = 'admin' | 'parceiro_admin' | 'parceiro' | 'substabelecido';
export type SessionKind = 'v1' | 'v2' | 'simulador';
/** REDIRECT_AFS: the one-time key (chaveBroto) of the AFS external redirect (migration 003). */
export type CodePurpose = 'RESET' | 'PRIMEIRO_ACESSO' | 'SSO' | 'REDIRECT_AFS';

export interface CompaniesTable {
  id: Generated<number>;
  cnpj: string;
  razao_social: string;
  nome_fantasia: string;
  tipo: 'PARCEIRO' | 'SUBSTABELECIDO';
  parent_id: number | null;
  /** ATIVO or SUSPENSO (migration 022): a suspended company's users do not sign in, its offers are not sold. */
  status: Generated<CompanyStatus>;
  /** The sales channel the company sells through (migration 020); the portal's own when none is given. */
  channel_id: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
  /** Onboarding (migration 022, decision 052): a broker has a SUSEP registration. */
  corretora: Generated<boolean>;
  susep: ColumnType<string | null, string | null | undefined, string | null>;
  /** The head office (lib/products/insured.ts addressSchema), read back through the schema. */
  endereco: ColumnType<unknown, string | null | undefined, string | null>;
  /** { responsavel, comercial } (lib/partner-forms.ts). */
  contatos: ColumnType<unknown, string | null | undefined, string | null>;
  /** Where commissions are paid: a bank account or a Pix key of the company (lib/refund-account.ts). */
  conta_comissao: ColumnType<unknown, string | null | undefined, string | null>;
  activated_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_by: ColumnType<number | null, number | null | undefined, number | null>;
  suspended_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  suspended_by: ColumnType<number | null, number | null | undefined, number | null>;
  motivo_suspensao: ColumnType<string | null, string | null | undefined, string | null>;
}

export type CompanyStatus = 'ATIVO' | 'SUSPENSO';
export type CompanyKind = 'PARCEIRO' | 'SUBSTABELECIDO';

/** The onboarding steps' answers so far, per CNPJ and action (migration 022, decision 052). */
export interface CompanyDraftsTable {
  id: Generated<number>;
  tipo: CompanyKind;
  cnpj: string;
  acao: 'novo' | 'editar';
  /** A substabelecido's partner: whoever manages it may resume the draft. */
  parent_id: number | null;
  dados: Json<Record<string, unknown>>;
  created_by: number | null;
  updated_by: number | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export type PointOfSaleStatus = 'ATIVO' | 'INATIVO';

export interface PointsOfSaleTable {
  id: Generated<number>;
  company_id: number;
  nome: string;
  /** Upper case, unique per company whatever the case typed (migration 021). */
  codigo: string;
  /** The address (migration 021): null on rows made before it until someone edits them. */
  cep: ColumnType<string | null, string | null | undefined, string | null>;
  logradouro: ColumnType<string | null, string | null | undefined, string | null>;
  numero: ColumnType<string | null, string | null | undefined, string | null>;
  complemento: ColumnType<string | null, string | null | undefined, string | null>;
  bairro: ColumnType<string | null, string | null | undefined, string | null>;
  cidade: ColumnType<string | null, string | null | undefined, string | null>;
  uf: ColumnType<string | null, string | null | undefined, string | null>;
  /** INATIVO: no new sales nor sellers; its history stays (migration 021). */
  status: ColumnType<PointOfSaleStatus, PointOfSaleStatus | undefined, PointOfSaleStatus>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface UsersTable {
  id: Generated<number>;
  email: string;
  nome: string;
  cpf: string | null;
  generation: Generation;
  profile: V2ProfileCode | null;
  status: UserStatus;
  password_hash: string | null;
  company_id: number | null;
  /** Where the user sells (migration 013): their sales are made at it. */
  point_of_sale_id: number | null;
  last_access_at: Timestamp | null;
  /** The access before the last one: what "último acesso" shows to a user who just signed in. */
  previous_access_at: Timestamp | null;
  password_changed_at: Timestamp | null;
  /** A v2 user's mobile phone, digits only (migration 016). */
  celular: ColumnType<string | null, string | null | undefined, string | null>;
  /** The v2 permission group whose operations the user holds besides their own (migration 017). */
  permission_group_id: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: CreatedAt;
  /** When the user's permission group stops counting (migration 047); null: no end. */
  permission_group_ends_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface UserCompaniesTable {
  user_id: number;
  company_id: number;
}

export interface UserOperationsTable {
  user_id: number;
  operation: string;
}

export interface PermissionGroupsTable {
  id: Generated<number>;
  nome: string;
  descricao: string;
  is_admin: Generated<boolean>;
  /** The sales channel the legacy group is of (migration 017). */
  channel_id: number;
}

/** Sales channels: the legacy access groups are per channel (migration 017). */
export interface ChannelsTable {
  id: Generated<number>;
  codigo: string;
  nome: string;
  tipo: string;
  parent_id: number | null;
  status: Generated<'ATIVO' | 'INATIVO'>;
  created_at: CreatedAt;
}

/** A company's named set of v2 operations, given to its users (migration 017). */
export interface V2PermissionGroupsTable {
  id: Generated<number>;
  company_id: number;
  nome: string;
  descricao: Generated<string>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface V2PermissionGroupOperationsTable {
  group_id: number;
  operation: string;
  /** When this operation of the group stops counting (migration 047); null: no end. */
  ends_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface GroupPermissionsTable {
  group_id: number;
  nome: string;
  permite_visualizacao: boolean;
  permite_alteracao: boolean;
  /** When this permission of the group stops counting (migration 047); null: no end. */
  ends_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface UserGroupsTable {
  user_id: number;
  group_id: number;
  /** When the membership stops counting (migration 047); null: no end. */
  ends_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  kind: SessionKind;
  /** The v2 session a simulator token belongs to: revoking the parent revokes it. */
  parent_id: number | null;
  created_at: CreatedAt;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  /** Its sign-in proved a second factor (migration 043): required of those the policy names. */
  second_factor: ColumnType<boolean, boolean | undefined, boolean>;
  /** Where the sign-in came from (migration 044): the browser's User-Agent and the client's address. */
  user_agent: ColumnType<string | null, string | null | undefined, string | null>;
  ip: ColumnType<string | null, string | null | undefined, string | null>;
  /** The person proved it is them again at this time (migration 049): the password or an app code. */
  confirmed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Why someone else ended it (migration 049), for the login page to say (lib/session.ts SESSION_END_NOTICES). */
  end_reason: ColumnType<SessionEndReason | null, SessionEndReason | null | undefined, SessionEndReason | null>;
}

export type FactorKind = 'totp' | 'passkey';

/** A second factor of a user (migration 043, decision 068). */
export interface UserFactorsTable {
  id: Generated<number>;
  user_id: number;
  kind: FactorKind;
  label: string;
  /** The TOTP secret, sealed (server/auth/secret-box.ts). */
  totp_secret: string | null;
  /** The last time step a code was accepted for: a code is good once. */
  totp_last_step: ColumnType<number | null, number | null | undefined, number | null>;
  credential_id: string | null;
  public_key: string | null;
  sign_count: ColumnType<number, number | undefined, number>;
  transports: string | null;
  created_at: CreatedAt;
  last_used_at: Timestamp | null;
}

export interface RecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface TrustedDevicesTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  user_agent: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export type ChallengePurpose = 'verificar' | 'cadastrar';

/** The step between a password (or an SSO link) and a session (migration 043). */
export interface SignInChallengesTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  generation: Generation;
  purpose: ChallengePurpose;
  via: 'LOGIN' | 'SSO';
  pending_totp_secret: string | null;
  webauthn_challenge: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
  expires_at: Timestamp;
  completed_at: Timestamp | null;
}

export interface OneTimeCodesTable {
  id: Generated<number>;
  user_id: number;
  purpose: CodePurpose;
  code_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface EmailsTable {
  id: Generated<number>;
  to_address: string;
  template: string;
  subject: string;
  text_body: string;
  html_body: string;
  created_at: CreatedAt;
  sent_at: Timestamp | null;
  error: string | null;
  /** The message's secrets by placeholder name; null once redacted (sent, or expired). Migration 004. */
  segredos: ColumnType<Record<string, string> | null, string | null, string | null>;
  /** When the secrets are redacted even if the message was never sent by SMTP (the code's expiry). */
  redigir_em: Timestamp | null;
  /** Written inside a transaction and delivered by the job after it (migration 009). */
  fila: Generated<boolean>;
  /** Until when one instance's job holds the message to send it (the lease). */
  reservado_ate: Timestamp | null;
  /** Attempts claimed so far (migration 036). */
  tentativas: Generated<number>;
  /** Not sent before this instant: written with the message, pushed back after a failure. */
  tentar_em: ColumnType<Date, Date | string | undefined, Date | string>;
  /** Given up (too many attempts, or too old to send): `error` says why. */
  falhou_em: Timestamp | null;
}

/** A link to a policy's PDF for its insured, who has no account: only the token's SHA-256 is kept. */
export interface PolicyLinksTable {
  id: Generated<number>;
  policy_id: number;
  token_hash: string;
  expira_em: Timestamp;
  created_at: CreatedAt;
}

/** A reminder to the insured decided once (migration 040): (tipo, alvo_id, prazo) is unique. */
export interface InsuredRemindersTable {
  id: Generated<number>;
  tipo: 'BOLETO' | 'ATRASO' | 'FIM_VIGENCIA';
  /** The installment (BOLETO, ATRASO) or the policy (FIM_VIGENCIA). */
  alvo_id: number;
  /** The due date or the end of term the reminder is about. */
  prazo: string;
  policy_id: number;
  resultado: 'ENVIADO' | 'SEM_EMAIL' | 'DESCADASTRADO' | 'ENCERRADO';
  email: string | null;
  created_at: CreatedAt;
}

/** A public link an e-mail to the insured carries (migration 040): only the token's SHA-256 is kept. */
export interface InsuredLinksTable {
  id: Generated<number>;
  tipo: 'BOLETO' | 'LEMBRETES';
  token_hash: string;
  policy_id: number;
  installment_id: number | null;
  documento: string;
  email: string;
  expira_em: Timestamp;
  created_at: CreatedAt;
}

/** An insured who stopped the reminders, by 'doc:<digits>' or 'email:<address>' (migration 040). */
export interface ReminderOptOutsTable {
  chave: string;
  created_at: CreatedAt;
}

export interface RateLimitsTable {
  key: string;
  window_start: Timestamp;
  hits: number;
}

/** A throttled sign-in subject (migration 004): attempts no success cleared, and when the next may start. */
export interface ThrottlesTable {
  key: string;
  attempts: number;
  last_at: Timestamp;
  next_at: Timestamp;
}

/** Where an account signed in from (migration 005): its owner there is not slowed by others' failures. */
export interface SignInPlacesTable {
  email: string;
  ip: string;
  last_at: Timestamp;
  /** The account proved its second factor from this address at this time (migration 049). */
  second_factor_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface AccessEventsTable {
  id: Generated<number>;
  user_id: number | null;
  email: string;
  event: string;
  generation: string;
  ip: string | null;
  /** Who did it, when it is not the user themself: user administration (migration 016). */
  actor_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** What changed, in words for the access log (never a password, never a full CPF). */
  detalhe: ColumnType<string | null, string | null | undefined, string | null>;
  /** The company it happened for: the one the user acted for, or the user's own (migration 019). */
  company_id: ColumnType<number | null, number | null | undefined, never>;
  /** Which record it concerned (lib/access-log.ts RECORD_KINDS) and its number(s) — never a CPF (migration 019). */
  registro_tipo: ColumnType<string | null, string | null | undefined, never>;
  registro: ColumnType<string | null, string | null | undefined, never>;
  /** Append-only (migration 019): a row is never updated; only the retention purge deletes. */
  created_at: CreatedAt;
}

/** The v2 registration steps of one actor for one CPF, so a reload or another day resumes them (migration 016). */
export interface UserAdminDraftsTable {
  id: Generated<number>;
  actor_id: number;
  cpf: string;
  acao: 'novo' | 'editar';
  dados: Json<Record<string, unknown>>;
  updated_at: Timestamp;
}

/** A bulk user import (migration 018, decision 048). */
export interface UserImportsTable {
  id: Generated<number>;
  actor_id: number;
  generation: 'v1' | 'v2';
  file_name: string;
  encoding: string;
  status: 'VALIDADO' | 'NA_FILA' | 'PROCESSANDO' | 'CONCLUIDO' | 'ERRO';
  total_rows: number;
  valid_rows: number;
  processed_rows: Generated<number>;
  error: string | null;
  ip: string | null;
  created_at: CreatedAt;
  confirmed_at: Timestamp | null;
  claimed_at: Timestamp | null;
  finished_at: Timestamp | null;
  /** Chosen at the confirmation (decision 060): rows of existing accounts with changes update them; else they are skipped. */
  update_existing: Generated<boolean>;
  /** When its author undid it (migration 047), and who; set once. */
  undone_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  undone_by: ColumnType<number | null, number | null | undefined, number | null>;
}

/** What an import did to one account (migration 047): the state before (updated only) and the state it left. */
export interface UserImportChangesTable {
  import_id: number;
  user_id: number;
  line: number;
  kind: 'criado' | 'atualizado';
  before: Json<Record<string, unknown>> | null;
  after: Json<Record<string, unknown>>;
  undo: 'desativado' | 'restaurado' | 'mantido' | null;
  undo_reason: string | null;
}

/** One data line of an import: what it asks (data) or what is wrong with it (problems), then its result. */
export interface UserImportRowsTable {
  import_id: number;
  line: number;
  email: string;
  data: Json<Record<string, unknown>> | null;
  problems: Json<{ column: string; message: string }[]> | null;
  result: 'criado' | 'atualizado' | 'sem_alteracao' | 'ignorado' | 'recusado' | null;
  reason: string | null;
}

/** A bulk action on users confirmed after its preview (migration 046, decision 070). */
export interface UserBulkJobsTable {
  id: Generated<number>;
  actor_id: number;
  generation: 'v1' | 'v2';
  acao: string;
  grupo: string | null;
  selecao: string;
  status: 'NA_FILA' | 'PROCESSANDO' | 'CONCLUIDO' | 'ERRO';
  total: number;
  processed: Generated<number>;
  error: string | null;
  ip: string | null;
  created_at: CreatedAt;
  claimed_at: Timestamp | null;
  turn_at: Timestamp | null;
  finished_at: Timestamp | null;
}

/** One user of a bulk action, and what became of them. */
export interface UserBulkItemsTable {
  job_id: number;
  user_id: number;
  result: 'alterado' | 'ignorado' | 'recusado' | null;
  reason: string | null;
}

export interface SimulatorsTable {
  id: Generated<number>;
  code: string;
  nome: string;
  linha: string;
  url_inicio: string;
  grupo_produto: string | null;
  ativo: Generated<boolean>;
  created_at: CreatedAt;
}

export interface OffersTable {
  id: Generated<number>;
  simulator_id: number;
  company_id: number;
  nome: string;
  vigencia_inicio: string;
  vigencia_fim: string | null;
  /** Partner remuneration in hundredths of a percent (1250 = 12.50 %), kept integral on purpose. */
  comissao_centesimos: number;
  ativo: Generated<boolean>;
  created_at: CreatedAt;
  /** A substabelecido's offer derives from its partner's (migration 022, decision 052). */
  parent_offer_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export type QuoteStatus = 'EM_ELABORACAO' | 'PROPOSTA_EM_ANALISE';
type Json<T> = ColumnType<T, string, string>;

export interface QuotesTable {
  id: Generated<number>;
  nr_cotacao: string;
  simulator_code: string;
  line: string;
  generation: Generation;
  offer_id: number;
  user_id: number;
  company_id: number | null;
  /** Where it was sold (migration 013): the seller's point of sale, or the company's first. */
  point_of_sale_id: number | null;
  status: Generated<QuoteStatus>;
  /** The step the quote resumes at. */
  etapa: string;
  segurado: Json<Record<string, unknown>>;
  nome_segurado: string;
  /** nome_segurado as the searches read it (migration 029, lib/insured-search.ts): computed by the database. */
  nome_busca: ColumnType<string, never, never>;
  /** CPF or CNPJ without mask, for the history filter. Never logged. */
  documento_segurado: string;
  /** Line-specific answers of the cadastro step. */
  respostas: Json<Record<string, unknown>>;
  risco: Json<Record<string, unknown>> | null;
  selecao: Json<Record<string, unknown>> | null;
  precificacao: Json<Record<string, unknown>> | null;
  contratacao: Json<Record<string, unknown>> | null;
  premio_total: number | null;
  /** The offer's commission when the quote was made (hundredths of a percent). */
  comissao_centesimos: number;
  /** The policy this quote renews (migration 039); null for a new sale. */
  renova_policy_id: ColumnType<number | null, number | null | undefined, number | null>;
  valida_ate: Timestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ProposalsTable {
  id: Generated<number>;
  quote_id: number;
  nr_proposta: string;
  status: Generated<ProposalStatus>;
  user_id: number;
  aceite_termo_em: Timestamp;
  created_at: CreatedAt;
  /** The 25-day acceptance deadline (Lei 15.040/2024); moved on when the clock resumes. */
  aceite_ate: Timestamp;
  /** Set while the clock stands still waiting for the partner's documents. */
  suspensa_desde: Timestamp | null;
  decidida_em: Timestamp | null;
  /** Why it was refused, or which documents were asked for. */
  motivo: string | null;
  /** Its sale's scope — the quote's company, seller and generation — kept by the database (migration 042): never written by a service. */
  company_id: ColumnType<number | null, never, never>;
  seller_id: ColumnType<number, never, never>;
  generation: ColumnType<Generation, never, never>;
}

export interface ProposalEventsTable {
  id: Generated<number>;
  proposal_id: number;
  tipo: ProposalEvent;
  detalhe: string | null;
  /** Who did it; null when the rules or the clock did. */
  user_id: number | null;
  created_at: CreatedAt;
  /** The document the event is about (an upload, a removal; migration 024). */
  document_id: ColumnType<number | null, number | null | undefined, never>;
}

export interface PoliciesTable {
  id: Generated<number>;
  nr_apolice: string;
  id_contratacao: number;
  proposal_id: number;
  quote_id: number;
  /** The seller. */
  user_id: number;
  company_id: number | null;
  point_of_sale_id: number | null;
  simulator_code: string;
  line: string;
  generation: Generation;
  nome_segurado: string;
  /** nome_segurado as the searches read it (migration 029, lib/insured-search.ts): computed by the database. */
  nome_busca: ColumnType<string, never, never>;
  documento_segurado: string;
  inicio_vigencia: string;
  fim_vigencia: string;
  premio_liquido: number;
  custo_apolice: number;
  iof: number;
  premio_total: number;
  forma_pagamento: string;
  status: Generated<StoredPolicyStatus>;
  emitida_em: Timestamp;
  /** The insured's contact after a contact endorsement (lib/endorsements.ts); null: the quote's. Migration 010. */
  contato: Json<InsuredContact> | null;
  /** The ids of the coverages a partial cancellation dropped. */
  coberturas_canceladas: ColumnType<string[], string | undefined, string>;
  cancelada_em: string | null;
  /**
   * The policy this one renews, and the one that renewed this (migration 039). A renewal cancelled from
   * its first day lets go of the one it renews, which may be renewed again (migration 052).
   */
  renova_policy_id: ColumnType<number | null, number | null | undefined, number | null>;
  renovada_por_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export type EndorsementKind = 'CONTATO' | 'CANCELAMENTO' | 'CANCELAMENTO_PARCIAL';

/** A numbered change of a policy (migration 010). */
export interface EndorsementsTable {
  id: Generated<number>;
  nr_endosso: string;
  policy_id: number;
  tipo: EndorsementKind;
  solicitante: Requester | null;
  motivo: string | null;
  efetiva_em: string;
  dados: Json<Record<string, unknown>>;
  /** The policy's total premium before and after (equal for a contact change). */
  premio_anterior: number;
  premio_novo: number;
  user_id: number;
  /** The draft a cancellation was confirmed from: confirming it again issues nothing. */
  rascunho: string | null;
  created_at: CreatedAt;
}

/** What a cancellation owes the insured, and the commission the partner returns. */
export interface RefundsTable {
  id: Generated<number>;
  /** The cancellation that owes it; null for a refund of money received above what was owed (receipt_id). */
  endorsement_id: number | null;
  /** The receipt whose money it gives back (migration 050); null for a cancellation's. */
  receipt_id: number | null;
  policy_id: number;
  valor: number;
  estorno_comissao: number;
  destino: Json<Record<string, unknown>> | null;
  status: Generated<RefundStatus>;
  prevista_para: string;
  created_at: CreatedAt;
  /** The policy's generation, kept by the database (migration 041): never written by a service. */
  generation: Generated<Generation>;
  /** When it entered its current status: the queue's order (migration 041). */
  situacao_em: ColumnType<Date, Date | string | undefined, Date | string>;
  paga_em: Timestamp | null;
  paga_por: number | null;
  /** The bank's receipt of the last payment (the demo bank's, in the demo). */
  comprovante: string | null;
  devolvida_em: Timestamp | null;
  devolvida_por: number | null;
  motivo_devolucao: string | null;
  tentativas: Generated<number>;
}

/** A refund paid, returned by the bank or put back to be paid (migration 041): the policy's ledger reads them. */
export interface RefundEventsTable {
  id: Generated<number>;
  refund_id: number;
  policy_id: number;
  acao: 'PAGA' | 'DEVOLVIDA' | 'REABERTA';
  valor: number;
  detalhe: string | null;
  user_id: number;
  created_at: Timestamp;
}

/** The steps of a cancellation so far, one per user and policy, so a reload resumes them. */
export interface EndorsementDraftsTable {
  id: Generated<number>;
  chave: string;
  user_id: number;
  policy_id: number;
  dados: Json<Record<string, unknown>>;
  updated_at: Timestamp;
}

/** A cancellation asked for a day ahead, carried out on that day by a job (migration 023). */
export interface ScheduledCancellationsTable {
  id: Generated<number>;
  policy_id: number;
  user_id: number;
  chave: string;
  dados: Json<Record<string, unknown>>;
  conta: Json<Record<string, unknown>> | null;
  solicitada_em: string;
  efetiva_em: string;
  status: Generated<'AGENDADO' | 'EFETIVADO' | 'DESFEITO'>;
  endorsement_id: number | null;
  desfeito_por: number | null;
  desfeito_em: Timestamp | null;
  created_at: CreatedAt;
}

/** A document of a proposal (and of its policy): the file is DATA_DIR/files/<sha256> (migration 011). */
export interface DocumentsTable {
  id: Generated<number>;
  proposal_id: number;
  /** Who sent it. */
  user_id: number;
  categoria: DocumentCategory;
  /** The name shown and sent back on download, as checked (lib/documents.ts); never a path on disk. */
  nome: string;
  /** What its magic bytes say it is. */
  mime: DocumentMime;
  tamanho: number;
  sha256: string;
  created_at: CreatedAt;
  /** Removed by its sender (migration 024): out of every list and download; its file goes with the sweeper. */
  removido_em: ColumnType<Date | null, Date | null | undefined, Date | null>;
  removido_por: ColumnType<number | null, number | null | undefined, number | null>;
  /** Its sale's scope — the quote's company, seller and generation — kept by the database (migration 035): never written by a service. */
  company_id: Generated<number | null>;
  seller_id: Generated<number>;
  generation: Generated<Generation>;
  /** The insured's name as the searches read it (the quote's nome_busca), kept by the database (migration 055): never written by a service. */
  nome_busca: Generated<string | null>;
}

/** An upload under way (migration 024): counted against the limits until it ends or `expires_at` passes. */
export interface DocumentUploadsTable {
  id: Generated<number>;
  user_id: number;
  proposal_id: number;
  /** Its declared size, or the most a file may be when it declared none. */
  bytes: number;
  started_at: Timestamp;
  expires_at: Timestamp;
}

/** A partner's nota fiscal for a closed month's commissions (migration 012): the file is DATA_DIR/files/<sha256>. */
export interface NotasFiscaisTable {
  id: Generated<number>;
  /** The beneficiary company that issued it. */
  company_id: number;
  /** The month it invoices, 'YYYY-MM'. */
  competencia: string;
  numero: string;
  /** The amount, equal to the month's statement total when it was sent (frozen with it). */
  valor: number;
  nome: string;
  mime: NotaMime;
  tamanho: number;
  sha256: string;
  status: Generated<NotaStatus>;
  /** Why the insurer refused it. */
  motivo: string | null;
  /** Who sent it. */
  user_id: number;
  created_at: CreatedAt;
  decidida_por: number | null;
  decidida_em: Timestamp | null;
  paga_em: Timestamp | null;
}

export interface InstallmentsTable {
  id: Generated<number>;
  policy_id: number;
  numero: number;
  vencimento: string;
  valor: number;
  status: Generated<StoredInstallmentStatus>;
  paga_em: Timestamp | null;
  /** Its policy's company, seller and generation, kept by the database (migration 042): never written by a service. */
  company_id: ColumnType<number | null, never, never>;
  seller_id: ColumnType<number, never, never>;
  generation: ColumnType<Generation, never, never>;
}

export type ChargeStatus = 'ATIVA' | 'SUBSTITUIDA' | 'PAGA' | 'CANCELADA';

export interface ChargesTable {
  id: Generated<number>;
  installment_id: number;
  vencimento: string;
  /** The installment's amount, and the late fine and interest up to `vencimento` (a 2ª via). */
  valor: number;
  multa: Generated<number>;
  juros: Generated<number>;
  total: number;
  codigo_barras: string;
  linha_digitavel: string;
  pix_txid: string;
  pix_copia_e_cola: string;
  status: Generated<ChargeStatus>;
  /** Who asked for it; null for the first charge, issued with the policy. */
  user_id: number | null;
  created_at: CreatedAt;
}

export interface PaymentsTable {
  id: Generated<number>;
  installment_id: number;
  charge_id: number;
  /** The bank's identifier of the payment: a notice repeated is recognised by it. */
  external_id: string;
  meio: 'BOLETO' | 'PIX';
  origem: 'WEBHOOK' | 'BANCO_DEMO';
  valor: number;
  pago_em: Timestamp;
  created_at: CreatedAt;
  /** The paid policy's company and seller, kept by the database (migration 033): never written by a service. */
  company_id: Generated<number | null>;
  user_id: Generated<number>;
  generation: Generated<Generation>;
  simulator_code: Generated<string>;
  /** The commission owed on the paid installment (cents), kept by the database (migration 034): never written by a service. */
  comissao: Generated<number>;
}

export type ReceiptSituation = 'QUITACAO' | 'PARCIAL' | 'CREDITO' | 'NAO_IDENTIFICADO';

/** An amount a bank confirmed, whatever it paid (migration 026, decision 059). */
export interface ReceiptsTable {
  id: Generated<number>;
  /** The bank's identifier of the payment ('banco:…', 'demo:…'): the same notice twice is one receipt. */
  external_id: string;
  /** Null when the code named no charge of ours. */
  charge_id: number | null;
  installment_id: number | null;
  /** The code paid, as the bank sent it. */
  codigo: string;
  meio: 'BOLETO' | 'PIX' | null;
  origem: 'WEBHOOK' | 'BANCO_DEMO';
  /** Received, in cents; `aplicado` went to the installment, `credito` is owed back (aplicado + credito = valor). */
  valor: number;
  /** What the installment cost on the day received (its 2ª via's total, or fine and interest to that day). */
  devido: number | null;
  aplicado: number;
  credito: number;
  situacao: ReceiptSituation;
  recebido_em: Timestamp;
  created_at: Timestamp;
  /** The refund that gives its money back: its own, or a cancellation's that took in a partial payment (migration 050). */
  refund_id: Generated<number | null>;
}

/** A month's sales target of a company, point of sale or seller (migration 014). */
export interface SalesTargetsTable {
  id: Generated<number>;
  nivel: 'empresa' | 'ponto_venda' | 'vendedor';
  ref_id: number;
  company_id: number;
  mes: string;
  /** Cents; bigint, read as a string by the drivers. */
  valor: ColumnType<string, number, number>;
  definida_por: number;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/**
 * What was sold per Brasília month, company, point of sale, seller and product (migration 028): kept
 * by the database's triggers on quotes, proposals, policies and installments; the metrics read it.
 */
export interface SalesMonthlyTable {
  /** 'YYYY-MM-01', the first day of Brasília's month: the policy's emission or the quote's creation. */
  mes: string;
  company_id: number | null;
  point_of_sale_id: number | null;
  user_id: number;
  simulator_code: string;
  /** By the policy's emission month: policies issued, their premio_total (cents; bigint, read as a string), those cancelled since. */
  policies: number;
  premium: ColumnType<string, number, number>;
  cancelled: number;
  /** By the quote's creation month (the funnel's cohort): quotes, their proposals, their policies, those whose 1st installment is paid. */
  quotes: number;
  proposals: number;
  converted: number;
  paid: number;
}

/** Renewals per month of the end of term (migration 039): policies ending (not cancelled) and those renewed. */
export interface RenewalsMonthlyTable {
  /** 'YYYY-MM-01': the month fim_vigencia falls in. */
  mes: string;
  company_id: number | null;
  point_of_sale_id: number | null;
  user_id: number;
  simulator_code: string;
  ending: number;
  renewed: number;
}

/**
 * The commission statement's rollup (migration 034): per beneficiary — a company, or a seller who sold
 * for none (company_id null) — and Brasília month, the payments made in it with their commissions and
 * the clawbacks of the cancellations confirmed in it; kept by the database's triggers.
 */
export interface CommissionsMonthlyTable {
  company_id: number | null;
  /** The seller, only on a row of sales made for no company. */
  user_id: number | null;
  /** 'YYYY-MM-01', the first day of Brasília's month. */
  mes: string;
  payments: number;
  /** Cents (bigint, read as a string). */
  commissions: ColumnType<string, number, number>;
  refunds: number;
  clawbacks: ColumnType<string, number, number>;
}

/** A sales report asked for, and its generation (migration 015). */
export interface SalesReportsTable {
  id: Generated<number>;
  user_id: number;
  generation: Generation;
  pedido: Json<Record<string, unknown>>;
  filtro: Json<Record<string, unknown>>;
  status: Generated<'NA_FILA' | 'GERANDO' | 'PRONTO' | 'ERRO'>;
  total: number | null;
  linhas: Generated<number>;
  motivo: string | null;
  sha256: string | null;
  tamanho: ColumnType<string | null, number | null, number | null>;
  tentativas: Generated<number>;
  reservado_ate: Timestamp | null;
  created_at: CreatedAt;
  finished_at: Timestamp | null;
  /** The turn the report was claimed at (sequence sales_reports_vez): the queue's fairness by user. */
  vez: ColumnType<string | null, never, string | null>;
}

/** An item of the worklist a user marked read, by its key `kind:id:version` (migration 037). */
export interface WorklistReadsTable {
  user_id: number;
  item_key: string;
  read_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** When a user last marked every item of the worklist read (migration 037). */
export interface WorklistSeenTable {
  user_id: number;
  all_read_at: ColumnType<Date, Date | string, Date | string>;
}

export interface Database {
  companies: CompaniesTable;
  points_of_sale: PointsOfSaleTable;
  users: UsersTable;
  user_companies: UserCompaniesTable;
  user_operations: UserOperationsTable;
  permission_groups: PermissionGroupsTable;
  group_permissions: GroupPermissionsTable;
  channels: ChannelsTable;
  v2_permission_groups: V2PermissionGroupsTable;
  v2_permission_group_operations: V2PermissionGroupOperationsTable;
  user_groups: UserGroupsTable;
  sessions: SessionsTable;
  one_time_codes: OneTimeCodesTable;
  user_factors: UserFactorsTable;
  recovery_codes: RecoveryCodesTable;
  trusted_devices: TrustedDevicesTable;
  sign_in_challenges: SignInChallengesTable;
  emails: EmailsTable;
  rate_limits: RateLimitsTable;
  throttles: ThrottlesTable;
  sign_in_places: SignInPlacesTable;
  access_events: AccessEventsTable;
  simulators: SimulatorsTable;
  offers: OffersTable;
  quotes: QuotesTable;
  proposals: ProposalsTable;
  proposal_events: ProposalEventsTable;
  policies: PoliciesTable;
  sales_targets: SalesTargetsTable;
  sales_monthly: SalesMonthlyTable;
  renewals_monthly: RenewalsMonthlyTable;
  commissions_monthly: CommissionsMonthlyTable;
  sales_reports: SalesReportsTable;
  installments: InstallmentsTable;
  charges: ChargesTable;
  payments: PaymentsTable;
  receipts: ReceiptsTable;
  policy_links: PolicyLinksTable;
  insured_reminders: InsuredRemindersTable;
  insured_links: InsuredLinksTable;
  reminder_opt_outs: ReminderOptOutsTable;
  endorsements: EndorsementsTable;
  refunds: RefundsTable;
  refund_events: RefundEventsTable;
  endorsement_drafts: EndorsementDraftsTable;
  scheduled_cancellations: ScheduledCancellationsTable;
  documents: DocumentsTable;
  document_uploads: DocumentUploadsTable;
  notas_fiscais: NotasFiscaisTable;
  user_admin_drafts: UserAdminDraftsTable;
  user_imports: UserImportsTable;
  user_import_rows: UserImportRowsTable;
  user_bulk_jobs: UserBulkJobsTable;
  user_bulk_items: UserBulkItemsTable;
  user_import_changes: UserImportChangesTable;
  company_drafts: CompanyDraftsTable;
  worklist_reads: WorklistReadsTable;
  worklist_seen: WorklistSeenTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
