import type { Answers, AnswerValue, Cents, CoveragePrice } from './products/types';
import type { ProductLine } from './simulators';
import { formatBRL } from './products/money';
import { brasiliaDay } from './format';

/*
 * ILLUSTRATIVE UNDERWRITING RULES — the limits and aggravating answers below are sample data for the
 * portal, not the insurer's underwriting policy (docs/decisions/032-acceptance-and-policies.md).
 *
 * A proposal is accepted straight through when its largest sum insured is within its line's limit
 * and none of its answers aggravates the risk; otherwise it waits for the provider's ADMIN.
 */

interface AggravatingAnswer {
  answer: string;
  equals: AnswerValue;
  /** Why an underwriter must look: shown in the queue and the proposal's timeline. */
  reason: string;
}

interface AcceptanceRule {
  /** The largest sum insured (of any coverage) accepted without analysis. */
  maxInsuredSum: Cents;
  aggravating: AggravatingAnswer[];
}

export const ACCEPTANCE_RULES: Record<ProductLine, AcceptanceRule> = {
  residencial: {
    maxInsuredSum: 1_500_000_00,
    aggravating: [{ answer: 'construcao', equals: 'mista', reason: 'Construção mista (alvenaria e madeira).' }],
  },
  agricola: { maxInsuredSum: 3_000_000_00, aggravating: [] },
  empresarial: {
    maxInsuredSum: 3_000_000_00,
    aggravating: [
      { answer: 'protecao', equals: 'nenhuma', reason: 'Estabelecimento sem proteção contra roubo.' },
      { answer: 'construcao', equals: 'mista', reason: 'Construção mista (alvenaria e madeira).' },
    ],
  },
  'empresarial-individual': {
    maxInsuredSum: 300_000_00,
    aggravating: [{ answer: 'localFuncionamento', equals: 'residencia', reason: 'Atividade exercida na residência.' }],
  },
  'itens-pessoais': {
    maxInsuredSum: 30_000_00,
    aggravating: [{ answer: 'usoProfissional', equals: true, reason: 'Bem de uso profissional.' }],
  },
  maquinas: {
    maxInsuredSum: 2_000_000_00,
    aggravating: [{ answer: 'uso', equals: 'locacao', reason: 'Equipamento locado a terceiros.' }],
  },
  vida: {
    maxInsuredSum: 1_000_000_00,
    aggravating: [{ answer: 'profissao', equals: 'risco', reason: 'Profissão de risco.' }],
  },
};

export type Analysis = { straightThrough: true } | { straightThrough: false; reasons: string[] };

/** Whether a proposal of `line` is accepted straight through, and if not, why it is referred. */
export function analyse(line: ProductLine, answers: Answers, coverages: Pick<CoveragePrice, 'capital'>[]): Analysis {
  const rule = ACCEPTANCE_RULES[line];
  const reasons: string[] = [];
  const largest = Math.max(0, ...coverages.map((c) => c.capital));
  if (largest > rule.maxInsuredSum)
    reasons.push(
      `Importância segurada de ${formatBRL(largest)} acima do limite de aceitação automática (${formatBRL(rule.maxInsuredSum)}).`,
    );
  for (const { answer, equals, reason } of rule.aggravating) if (answers[answer] === equals) reasons.push(reason);
  return reasons.length === 0 ? { straightThrough: true } : { straightThrough: false, reasons };
}

/** Lei 15.040/2024: the insurer decides within 25 days of receiving the proposal, or it is accepted. */
export const ACCEPTANCE_DAYS = 25;
const DAY_MS = 24 * 60 * 60 * 1000;

export const acceptanceDeadline = (sentAt: Date): Date => new Date(sentAt.getTime() + ACCEPTANCE_DAYS * DAY_MS);

/** Asking for documents stops the clock; when they arrive, the deadline moves by the time it stood. */
export const resumedDeadline = (deadline: Date, suspendedAt: Date, resumedAt: Date): Date =>
  new Date(deadline.getTime() + Math.max(0, resumedAt.getTime() - suspendedAt.getTime()));

/** The clock as pages and the API show it (ISO instants, so it crosses JSON unchanged). */
export type Clock =
  | { state: 'running'; deadline: string; daysLeft: number }
  | { state: 'suspended'; deadline: string; daysLeft: number; since: string }
  | { state: 'stopped' };

/** The acceptance clock of an undecided proposal at `now`; 'stopped' once decided. */
export function acceptanceClock(proposal: { decided: boolean; deadline: Date | null; suspendedAt: Date | null }, now: Date): Clock {
  if (proposal.decided || !proposal.deadline) return { state: 'stopped' };
  const from = proposal.suspendedAt ?? now;
  // Calendar days in Brasília, as the date beside it reads: due 16/12 is 23 days from 23/11, whatever the hour.
  const daysLeft = Math.max(0, Math.round((Date.parse(brasiliaDay(proposal.deadline)) - Date.parse(brasiliaDay(from))) / DAY_MS));
  const deadline = proposal.deadline.toISOString();
  return proposal.suspendedAt
    ? { state: 'suspended', deadline, daysLeft, since: proposal.suspendedAt.toISOString() }
    : { state: 'running', deadline, daysLeft };
}

/** The reason of a refusal, the documents asked for, the partner's answer: a few words, not an essay. */
export const DECISION_TEXT_MIN = 5;
export const DECISION_TEXT_MAX = 500;

export type ProposalStatus = 'EM_ANALISE' | 'AGUARDANDO_DOCUMENTOS' | 'ACEITA' | 'RECUSADA';

export const PROPOSAL_STATUS_LABELS: Record<ProposalStatus, string> = {
  EM_ANALISE: 'Em análise',
  AGUARDANDO_DOCUMENTOS: 'Aguardando documentos',
  ACEITA: 'Aceita',
  RECUSADA: 'Recusada',
};

export const isDecided = (status: ProposalStatus) => status === 'ACEITA' || status === 'RECUSADA';

/**
 * The clock of a stored proposal — its status and its two columns — at `now`: the one reading every
 * screen makes (the proposal's page, the histories, the queue), so none decides apart when it stops.
 */
export const proposalClock = (proposal: { status: ProposalStatus; deadline: Date | null; suspendedAt: Date | null }, now: Date): Clock =>
  acceptanceClock({ decided: isDecided(proposal.status), deadline: proposal.deadline, suspendedAt: proposal.suspendedAt }, now);

/** What happened to a proposal, as its timeline says it. */
export const PROPOSAL_EVENT_LABELS = {
  ENVIADA: 'Proposta enviada à seguradora',
  ACEITA_AUTOMATICAMENTE: 'Aceita automaticamente pelas regras de aceitação',
  ENCAMINHADA_ANALISE: 'Encaminhada para análise da seguradora',
  DOCUMENTOS_SOLICITADOS: 'Documentos solicitados — prazo de aceitação suspenso',
  DOCUMENTOS_ENVIADOS: 'Documentos enviados — prazo de aceitação retomado',
  DOCUMENTO_ENVIADO: 'Documento enviado',
  DOCUMENTO_REMOVIDO: 'Documento removido por quem o enviou',
  DOCUMENTOS_PENDENTES: 'Documento pedido removido — prazo de aceitação suspenso de novo, aguardando documentos',
  ACEITA: 'Aceita pela seguradora',
  RECUSADA: 'Recusada pela seguradora',
  ACEITA_POR_SILENCIO: `Aceita por decurso do prazo de ${ACCEPTANCE_DAYS} dias (Lei 15.040/2024)`,
  APOLICE_EMITIDA: 'Apólice emitida',
} as const;
export type ProposalEvent = keyof typeof PROPOSAL_EVENT_LABELS;

/** The clock as a partner reads it: 'aceite em até 22 dias (até 18/12/2026)'; undefined once decided. */
export function clockPhrase(clock: Clock, formatDate: (iso: string) => string): string | undefined {
  if (clock.state === 'stopped') return undefined;
  if (clock.state === 'suspended')
    return `Prazo de aceitação suspenso: aguardando documentos desde ${formatDate(clock.since)} (restam ${plural(clock.daysLeft)}).`;
  return `${acceptBy(clock, formatDate)}; sem resposta da seguradora até lá, a proposta é aceita.`;
}

/**
 * The same clock in a list's row (the histories, the consultation of the embedded apps), short
 * enough for a phone's column: 'Aceite em até 22 dias (até 18/12/2026)'; undefined once decided.
 */
export function clockSummary(clock: Clock, formatDate: (iso: string) => string): string | undefined {
  if (clock.state === 'stopped') return undefined;
  if (clock.state === 'suspended')
    return `Prazo suspenso desde ${formatDate(clock.since)}: aguarda documentos (restam ${plural(clock.daysLeft)})`;
  return acceptBy(clock, formatDate);
}

// On its last day the deadline is today: 'em até 0 dias' would read as already run out.
const acceptBy = (clock: Extract<Clock, { state: 'running' }>, formatDate: (iso: string) => string) =>
  clock.daysLeft === 0
    ? `Aceite até hoje (${formatDate(clock.deadline)})`
    : `Aceite em até ${plural(clock.daysLeft)} (até ${formatDate(clock.deadline)})`;

const plural = (days: number) => (days === 1 ? '1 dia' : `${days} dias`);
