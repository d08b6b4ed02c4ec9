import { DOCUMENT_MAX_BYTES, formatSize } from './documents';
import { brasiliaDay } from './format';
import { startOfNextBrasiliaDay } from './calendar';
import type { ProposalStatus } from './acceptance';

/*
 * ILLUSTRATIVE UPLOAD LIMITS — sample figures for the portal, not an insurer's policy
 * (docs/decisions/057-upload-quotas-and-document-removal.md). What one user and one proposal may send:
 * the server counts them in the database before it reads a file (so they hold across instances over
 * one PostgreSQL), the upload page shows them, and the island pre-checks with the same function.
 */
const MB = 1024 * 1024;

export const UPLOAD_LIMITS = {
  /** One file (the upload route's own body limit, decision 040). */
  fileBytes: DOCUMENT_MAX_BYTES,
  /** The documents a proposal keeps (a removed one no longer counts). */
  proposal: { files: 30, bytes: 150 * MB },
  /** What one user sends in a Brasília calendar day (a removed one still counts: sending cost it). */
  userDay: { files: 100, bytes: 500 * MB },
  /** Uploads of one user under way at once (the page sends one at a time). */
  userConcurrent: 2,
  /** Uploads under way at once in the whole portal, every instance: the disk and the CPU are shared. */
  portalConcurrent: 20,
  /** An upload not finished in this time is abandoned: its reservation stops counting and is swept. */
  abandonedAfterMinutes: 15,
} as const;
export type UploadLimits = typeof UPLOAD_LIMITS;

/** What is already counted against the limits when an upload asks to start. */
export interface UploadUsage {
  portalActive: number;
  userActive: number;
  userDay: { files: number; bytes: number };
  proposal: { files: number; bytes: number };
}

/** An upload refused by a limit: 413 for the proposal's room, 429 for the user's pace, 503 for the portal's. */
export interface QuotaRefusal {
  status: 413 | 429 | 503;
  message: string;
  /** Seconds after which trying again may succeed (the Retry-After header). */
  retryAfterSeconds?: number;
}

const size = (bytes: number) => formatSize(bytes);

/** Seconds from `now` to the next Brasília midnight, when the day's counts start again. */
export const secondsToNextDay = (now: Date): number =>
  Math.max(1, Math.ceil((startOfNextBrasiliaDay(brasiliaDay(now)).getTime() - now.getTime()) / 1000));

/**
 * The limits in the order an upload is judged against them, each with the pt-BR message it is refused
 * with (the limit in it, so the user knows what to do). A new limit is a new row.
 */
const CHECKS: {
  exceeded: (usage: UploadUsage, bytes: number, limits: UploadLimits) => boolean;
  refusal: (usage: UploadUsage, limits: UploadLimits, now: Date) => QuotaRefusal;
}[] = [
  {
    exceeded: (u, _, l) => u.userActive >= l.userConcurrent,
    refusal: (_, l) => ({
      status: 429,
      message: `Você já tem ${l.userConcurrent} envios em andamento, o máximo ao mesmo tempo: aguarde terminarem para enviar outro arquivo.`,
      retryAfterSeconds: 30,
    }),
  },
  {
    exceeded: (u, _, l) => u.proposal.files >= l.proposal.files,
    refusal: (_, l) => ({
      status: 413,
      message: `Esta proposta já tem ${l.proposal.files} documentos, o limite por proposta. Remova um documento enviado por engano ou fale com a seguradora.`,
    }),
  },
  {
    exceeded: (u, b, l) => u.proposal.bytes + b > l.proposal.bytes,
    refusal: (u, l) => ({
      status: 413,
      message: `Os documentos desta proposta passariam de ${size(l.proposal.bytes)}, o limite por proposta (já enviados: ${size(u.proposal.bytes)}). Remova um documento enviado por engano ou fale com a seguradora.`,
    }),
  },
  {
    exceeded: (u, _, l) => u.userDay.files >= l.userDay.files,
    refusal: (_, l, now) => ({
      status: 429,
      message: `Você atingiu o limite de ${l.userDay.files} arquivos enviados por dia. Tente novamente amanhã.`,
      retryAfterSeconds: secondsToNextDay(now),
    }),
  },
  {
    exceeded: (u, b, l) => u.userDay.bytes + b > l.userDay.bytes,
    refusal: (u, l, now) => ({
      status: 429,
      message: `Este arquivo passaria do limite de ${size(l.userDay.bytes)} enviados por dia (hoje: ${size(u.userDay.bytes)}). Tente novamente amanhã.`,
      retryAfterSeconds: secondsToNextDay(now),
    }),
  },
  {
    exceeded: (u, _, l) => u.portalActive >= l.portalConcurrent,
    refusal: () => ({
      status: 503,
      message: 'O portal está recebendo muitos arquivos neste momento. Tente novamente em um minuto.',
      retryAfterSeconds: 60,
    }),
  },
];

/** Why an upload of `bytes` more is refused — the first limit it passes — or undefined when it may start. */
export function quotaProblem(usage: UploadUsage, bytes: number, now: Date, limits: UploadLimits = UPLOAD_LIMITS): QuotaRefusal | undefined {
  return CHECKS.find((check) => check.exceeded(usage, bytes, limits))?.refusal(usage, limits, now);
}

/** The limits as the upload page states them. */
export const limitsSummary = (limits: UploadLimits = UPLOAD_LIMITS): string =>
  `Até ${size(limits.fileBytes)} por arquivo; até ${limits.proposal.files} documentos (${size(limits.proposal.bytes)}) por proposta; ` +
  `até ${limits.userDay.files} arquivos (${size(limits.userDay.bytes)}) enviados por você por dia.`;

/** What is used of them, as the page shows it beside the limits. */
export const usageSummary = (usage: Pick<UploadUsage, 'userDay' | 'proposal'>, limits: UploadLimits = UPLOAD_LIMITS): string =>
  `Esta proposta tem ${usage.proposal.files} de ${limits.proposal.files} documentos (${size(usage.proposal.bytes)}); ` +
  `hoje você enviou ${usage.userDay.files} de ${limits.userDay.files} arquivos (${size(usage.userDay.bytes)} de ${size(limits.userDay.bytes)}).`;

/** The disk-space floor's refusal (the server's own state, not the user's: 507, and the operators are told). */
export const DISK_FULL_MESSAGE =
  'O portal está sem espaço para receber arquivos no momento. Tente novamente mais tarde; a equipe técnica foi avisada.';

/*
 * Removing a document sent by mistake: the one who sent it, while the insurer has not decided the
 * proposal (em análise or aguardando documentos). Once decided, the documents are the insurer's
 * record of what it decided on. The removal is an event of the proposal's timeline.
 */
export const REMOVAL_MESSAGES = {
  notSender: 'Só quem enviou o documento pode removê-lo.',
  decided: 'A proposta já foi decidida pela seguradora: os documentos dela não podem mais ser removidos.',
  removed: 'Documento removido. A remoção fica registrada no andamento da proposta.',
} as const;

const UNDECIDED: readonly ProposalStatus[] = ['EM_ANALISE', 'AGUARDANDO_DOCUMENTOS'];

/** Why `viewerId` may not remove a document; undefined when they may. */
export function removalProblem(
  document: { senderId: number; proposalStatus: ProposalStatus },
  viewerId: number,
): { kind: 'forbidden' | 'conflict'; message: string } | undefined {
  if (document.senderId !== viewerId) return { kind: 'forbidden', message: REMOVAL_MESSAGES.notSender };
  if (!UNDECIDED.includes(document.proposalStatus)) return { kind: 'conflict', message: REMOVAL_MESSAGES.decided };
  return undefined;
}
