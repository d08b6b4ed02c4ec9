import type { DB } from '../../db';
import { readKeysetPage } from '../../db/keyset-page';
import type { KeysetPage, PageRequest } from '../../../lib/keyset-pages';
import { notFound, conflict } from '../../errors';
import {
  analyse,
  PROPOSAL_STATUS_LABELS,
  proposalClock,
  resumedDeadline,
  type Clock,
  type ProposalEvent,
  type ProposalStatus,
} from '../../../lib/acceptance';
import { DOCUMENT_CATEGORIES, underwriterDownloadHref } from '../../../lib/documents';
import { withCoverageShares, type StoredPricing } from '../../../lib/products/engine';
import type { Answers } from '../../../lib/products/types';
import type { ProductLine } from '../../../lib/simulators';
import type { QuoteStep } from '../../../lib/quote-flow';
import { issuePolicy } from './policies';
import { notifyPolicyIssued } from './policy-notices';

/*
 * The acceptance of a proposal (Lei 15.040/2024; DESIGN §10): the rules accept it straight through
 * or refer it to the provider's ADMIN, who accepts, refuses or asks for documents (the clock stands
 * still until the partner sends them); one still undecided when its 25 days run out is accepted by
 * silence. Every change is a row of proposal_events, the proposal's timeline. Acceptance issues the
 * policy in the same transaction.
 */

const UNDECIDED: ProposalStatus[] = ['EM_ANALISE', 'AGUARDANDO_DOCUMENTOS'];

const MESSAGES = {
  notFound: 'Proposta não encontrada.',
  decided: (status: ProposalStatus) => `Esta proposta já foi decidida (${PROPOSAL_STATUS_LABELS[status].toLowerCase()}).`,
  waiting: 'Esta proposta já aguarda documentos do parceiro.',
  notWaiting: 'Esta proposta não aguarda documentos.',
} as const;

const record = (
  trx: DB,
  proposalId: number,
  tipo: ProposalEvent,
  now: Date,
  detail: { userId?: number | null; detalhe?: string | null; documentId?: number } = {},
) =>
  trx
    .insertInto('proposal_events')
    .values({
      proposal_id: proposalId,
      tipo,
      detalhe: detail.detalhe ?? null,
      user_id: detail.userId ?? null,
      document_id: detail.documentId ?? null,
      created_at: now,
    })
    .execute();

/**
 * A proposal just stored with its deadline (inside sendProposal's transaction): the rules of its line
 * accept it at once or refer it for analysis.
 */
export async function receiveProposal(trx: DB, proposalId: number, sellerId: number, now: Date): Promise<void> {
  const row = await trx
    .selectFrom('proposals as p')
    .innerJoin('quotes as q', 'q.id', 'p.quote_id')
    .select(['q.line', 'q.respostas', 'q.risco', 'q.precificacao'])
    .where('p.id', '=', proposalId)
    .executeTakeFirstOrThrow();
  await record(trx, proposalId, 'ENVIADA', now, { userId: sellerId });
  const answers = { ...(row.respostas as Answers), ...((row.risco ?? {}) as Answers) };
  const { coverages } = withCoverageShares(row.precificacao as unknown as StoredPricing);
  const analysis = analyse(row.line as ProductLine, answers, coverages);
  if (analysis.straightThrough) await accept(trx, proposalId, 'ACEITA_AUTOMATICAMENTE', now);
  else await record(trx, proposalId, 'ENCAMINHADA_ANALISE', now, { detalhe: analysis.reasons.join(' ') });
}

/** Accepts an undecided proposal and issues its policy; false when it was decided meanwhile. */
async function accept(trx: DB, proposalId: number, how: ProposalEvent, now: Date, userId?: number): Promise<boolean> {
  const accepted = await trx
    .updateTable('proposals')
    .set({ status: 'ACEITA', decidida_em: now, suspensa_desde: null })
    .where('id', '=', proposalId)
    .where('status', 'in', UNDECIDED)
    .returning('id')
    .executeTakeFirst();
  if (!accepted) return false;
  await record(trx, proposalId, how, now, { userId });
  const policy = await issuePolicy(trx, proposalId, now);
  await record(trx, proposalId, 'APOLICE_EMITIDA', now, { detalhe: `Apólice nº ${policy.nrApolice}` });
  await notifyPolicyIssued(trx, policy.id, now);
  return true;
}

/** The proposal by number, locked for a decision; 404 when there is none. */
async function lockedProposal(trx: DB, nrProposta: string) {
  const row = await trx
    .selectFrom('proposals')
    .select(['id', 'status', 'aceite_ate', 'suspensa_desde', 'quote_id', 'motivo'])
    .where('nr_proposta', '=', nrProposta)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw notFound(MESSAGES.notFound);
  return row;
}

export type Decision = { decisao: 'ACEITAR' } | { decisao: 'RECUSAR' | 'SOLICITAR_DOCUMENTOS'; motivo: string };

/** The provider's ADMIN decides a referred proposal (the caller checked who may). */
export async function decideProposal(db: DB, adminId: number, nrProposta: string, decision: Decision, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const proposal = await lockedProposal(trx, nrProposta);
    if (!UNDECIDED.includes(proposal.status)) throw conflict(MESSAGES.decided(proposal.status));
    if (decision.decisao === 'ACEITAR') return void (await accept(trx, proposal.id, 'ACEITA', now, adminId));
    if (decision.decisao === 'RECUSAR') {
      await trx
        .updateTable('proposals')
        .set({ status: 'RECUSADA', decidida_em: now, suspensa_desde: null, motivo: decision.motivo })
        .where('id', '=', proposal.id)
        .execute();
      return void (await record(trx, proposal.id, 'RECUSADA', now, { userId: adminId, detalhe: decision.motivo }));
    }
    if (proposal.status === 'AGUARDANDO_DOCUMENTOS') throw conflict(MESSAGES.waiting);
    await trx
      .updateTable('proposals')
      .set({ status: 'AGUARDANDO_DOCUMENTOS', suspensa_desde: now, motivo: decision.motivo })
      .where('id', '=', proposal.id)
      .execute();
    await record(trx, proposal.id, 'DOCUMENTOS_SOLICITADOS', now, { userId: adminId, detalhe: decision.motivo });
  });
}

/**
 * The partner answers a request for documents (the caller found the proposal among the quotes the
 * user may see): the clock resumes where it stopped.
 */
export async function documentsSent(db: DB, userId: number, nrProposta: string, mensagem: string, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (!(await resumeWithDocuments(trx, userId, nrProposta, mensagem, now))) throw conflict(MESSAGES.notWaiting);
  });
}

/**
 * Inside the caller's transaction: documents reached a proposal (a message, or a file uploaded —
 * services/after-sale/documents.ts). One waiting for them goes back to analysis with its clock resumed where it
 * stopped, and the timeline says so; any other is left as it is (false).
 */
export async function resumeWithDocuments(
  trx: DB,
  userId: number,
  nrProposta: string,
  detalhe: string,
  now: Date,
  documentId?: number,
): Promise<boolean> {
  const proposal = await lockedProposal(trx, nrProposta);
  if (proposal.status !== 'AGUARDANDO_DOCUMENTOS' || !proposal.suspensa_desde) return false;
  await trx
    .updateTable('proposals')
    .set({ status: 'EM_ANALISE', suspensa_desde: null, aceite_ate: resumedDeadline(proposal.aceite_ate, proposal.suspensa_desde, now) })
    .where('id', '=', proposal.id)
    .execute();
  await record(trx, proposal.id, 'DOCUMENTOS_ENVIADOS', now, { userId, detalhe, documentId });
  return true;
}

/**
 * Inside the caller's transaction: a document was stored for a proposal (services/after-sale/document-uploads.ts).
 * Every one is on the timeline by its kind and name; the one that answers a request for documents also
 * resumes the clock (true).
 */
export async function documentReceived(
  trx: DB,
  userId: number,
  nrProposta: string,
  detalhe: string,
  documentId: number,
  now: Date,
): Promise<boolean> {
  if (await resumeWithDocuments(trx, userId, nrProposta, detalhe, now, documentId)) return true;
  const { id } = await lockedProposal(trx, nrProposta);
  await record(trx, id, 'DOCUMENTO_ENVIADO', now, { userId, detalhe, documentId });
  return false;
}

/**
 * Inside the caller's transaction, after a document of an undecided proposal was marked removed: the
 * timeline says so; and when the documents were what resumed the clock after the insurer's last
 * request, and none sent since that request remains, the clock stops again — removing the answer must
 * not leave the insurer's 25 days running on nothing (true).
 */
export async function documentRemoved(
  trx: DB,
  userId: number,
  nrProposta: string,
  detalhe: string,
  documentId: number,
  now: Date,
): Promise<boolean> {
  const proposal = await lockedProposal(trx, nrProposta);
  await record(trx, proposal.id, 'DOCUMENTO_REMOVIDO', now, { userId, detalhe, documentId });
  if (proposal.status !== 'EM_ANALISE') return false;
  const events = (tipos: ProposalEvent[]) =>
    trx.selectFrom('proposal_events as e').where('e.proposal_id', '=', proposal.id).where('e.tipo', 'in', tipos);
  const request = await events(['DOCUMENTOS_SOLICITADOS']).select('e.id').orderBy('e.id', 'desc').limit(1).executeTakeFirst();
  if (!request) return false;
  const resumed = await events(['DOCUMENTOS_ENVIADOS'])
    .select('e.document_id')
    .where('e.id', '>', request.id)
    .orderBy('e.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  // Resumed by the partner's written answer (no document), or not resumed at all: the clock stays as it is.
  if (!resumed || resumed.document_id === null) return false;
  const remaining = await events(['DOCUMENTOS_ENVIADOS', 'DOCUMENTO_ENVIADO'])
    .innerJoin('documents as d', 'd.id', 'e.document_id')
    .select('d.id')
    .where('e.id', '>', request.id)
    .where('d.removido_em', 'is', null)
    .limit(1)
    .executeTakeFirst();
  if (remaining) return false;
  await trx.updateTable('proposals').set({ status: 'AGUARDANDO_DOCUMENTOS', suspensa_desde: now }).where('id', '=', proposal.id).execute();
  await record(trx, proposal.id, 'DOCUMENTOS_PENDENTES', now, { userId, detalhe: proposal.motivo });
  return true;
}

export interface QueuedProposal {
  nrProposta: string;
  nrCotacao: string;
  generation: 'v1' | 'v2';
  line: ProductLine;
  /** The step the proposal's page is (proposta or finalizacao). */
  etapa: QuoteStep;
  productName: string;
  nomeSegurado: string;
  seller: string;
  company: string | null;
  premioTotal: number;
  status: ProposalStatus;
  sentAt: string;
  clock: Clock;
  /** Why the rules referred it. */
  reasons: string | null;
  /** The documents the insurer asked for (the latest request), awaited or answered. */
  motivo: string | null;
  /** What the partner sent for it (removed ones left out), oldest first, each with its download. */
  documentos: QueuedDocument[];
}

export interface QueuedDocument {
  id: number;
  nome: string;
  categoriaLabel: string;
  tamanho: number;
  enviadoEm: string;
  enviadoPor: string;
  /** The underwriter's download: any generation's document, from the queue (lib/documents.ts). */
  href: string;
}

/** The documents of the queue's proposals, in one query for the whole queue. */
async function queuedDocuments(db: DB, proposalIds: number[]): Promise<Map<number, QueuedDocument[]>> {
  const byProposal = new Map<number, QueuedDocument[]>();
  if (proposalIds.length === 0) return byProposal;
  const rows = await db
    .selectFrom('documents as d')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .select(['d.id', 'd.proposal_id', 'd.nome', 'd.categoria', 'd.tamanho', 'd.created_at', 'u.nome as sender'])
    .where('d.proposal_id', 'in', proposalIds)
    .where('d.removido_em', 'is', null)
    .orderBy('d.id')
    .execute();
  for (const row of rows) {
    const list = byProposal.get(row.proposal_id) ?? [];
    list.push({
      id: row.id,
      nome: row.nome,
      categoriaLabel: DOCUMENT_CATEGORIES[row.categoria] ?? row.categoria,
      tamanho: row.tamanho,
      enviadoEm: new Date(row.created_at).toISOString(),
      enviadoPor: row.sender,
      href: underwriterDownloadHref(row.id),
    });
    byProposal.set(row.proposal_id, list);
  }
  return byProposal;
}

/** The analysis queue of the provider's ADMIN: every undecided proposal, the nearest deadline first. */
/** How many proposals a page of the queue shows. */
export const ANALYSIS_PAGE_SIZE = 20;

/**
 * A keyset page of the analysis queue (issue 29, lib/keyset-pages.ts): the undecided proposals, the
 * nearest deadline first (then by id), read through the pending proposals' (aceite_ate, id) index
 * (migration 032) from where the page's link says — at 100× the demo the whole queue was 671 KB a
 * request — and counted no further than COUNT_LIMIT.
 */
export async function analysisQueue(
  db: DB,
  now: Date,
  request: PageRequest = { page: 1 },
  pageSize: number = ANALYSIS_PAGE_SIZE,
): Promise<KeysetPage<QueuedProposal>> {
  const read = await readKeysetPage(
    db,
    {
      branches: [pendingProposals(db)],
      time: 'p.aceite_ate',
      id: 'p.id',
      order: 'asc',
      columns: (branch: PendingProposals) =>
        branch
          .innerJoin('quotes as q', 'q.id', 'p.quote_id')
          .innerJoin('users as u', 'u.id', 'q.user_id')
          .innerJoin('offers as o', 'o.id', 'q.offer_id')
          .innerJoin('simulators as s', 's.id', 'o.simulator_id')
          .leftJoin('companies as c', 'c.id', 'q.company_id')
          .select((eb) => [
            'p.id',
            'p.nr_proposta',
            'p.status',
            'p.created_at',
            'p.aceite_ate',
            'p.suspensa_desde',
            'p.motivo',
            'q.nr_cotacao',
            'q.generation',
            'q.line',
            'q.etapa',
            'q.nome_segurado',
            'q.premio_total',
            's.nome as product_name',
            'u.nome as seller',
            'c.razao_social',
            eb
              .selectFrom('proposal_events as e')
              .select('e.detalhe')
              .whereRef('e.proposal_id', '=', 'p.id')
              .where('e.tipo', '=', 'ENCAMINHADA_ANALISE')
              .limit(1)
              .as('reasons'),
          ]),
    },
    request,
    pageSize,
  );
  const rows = read.content;
  const documents = await queuedDocuments(
    db,
    rows.map((r) => r.id),
  );
  const content = rows.map((r) => ({
    nrProposta: r.nr_proposta,
    nrCotacao: r.nr_cotacao,
    generation: r.generation,
    line: r.line as ProductLine,
    etapa: r.etapa as QuoteStep,
    productName: r.product_name,
    nomeSegurado: r.nome_segurado,
    seller: r.seller,
    company: r.razao_social,
    premioTotal: r.premio_total ?? 0,
    status: r.status,
    sentAt: new Date(r.created_at).toISOString(),
    clock: proposalClock({ status: r.status, deadline: r.aceite_ate, suspendedAt: r.suspensa_desde }, now),
    reasons: r.reasons,
    // Only a request for documents writes `motivo` on an undecided proposal (a refusal decides it).
    motivo: r.motivo,
    documentos: documents.get(r.id) ?? [],
  }));
  return { ...read, content };
}

/** The undecided proposals, nothing selected yet: the queue's one branch. */
const pendingProposals = (db: DB) => db.selectFrom('proposals as p').where('p.status', 'in', UNDECIDED);
type PendingProposals = ReturnType<typeof pendingProposals>;

/** How many proposals the deadline job accepts per transaction. */
const SILENCE_BATCH = 20;

/**
 * The deadline job: every proposal in analysis whose 25 days ran out is accepted by silence (one
 * whose clock stands still, waiting for documents, is not). Rows are claimed with SKIP LOCKED, so
 * several instances over one PostgreSQL never accept one twice, and none waits for another.
 */
export async function acceptBySilence(db: DB, now: Date): Promise<number> {
  let accepted = 0;
  for (;;) {
    const batch = await db.transaction().execute(async (trx) => {
      const due = await trx
        .selectFrom('proposals')
        .select('id')
        .where('status', '=', 'EM_ANALISE')
        .where('aceite_ate', '<=', now)
        .orderBy('aceite_ate')
        .limit(SILENCE_BATCH)
        .forUpdate()
        .skipLocked()
        .execute();
      for (const { id } of due) if (await accept(trx, id, 'ACEITA_POR_SILENCIO', now)) accepted += 1;
      return due.length;
    });
    if (batch < SILENCE_BATCH) return accepted;
  }
}

/** What a decision on a proposal came to, as the queue says it after the decision (ADMIN only). */
export async function decisionOutcome(db: DB, nrProposta: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('proposals as p')
    .leftJoin('policies as a', 'a.proposal_id', 'p.id')
    .select(['p.status', 'a.nr_apolice'])
    .where('p.nr_proposta', '=', nrProposta)
    .executeTakeFirst();
  if (!row) return undefined;
  const OUTCOMES: Record<ProposalStatus, string> = {
    ACEITA: `Proposta nº ${nrProposta} aceita: apólice nº ${row.nr_apolice ?? ''} emitida; o vendedor e o segurado foram avisados.`,
    RECUSADA: `Proposta nº ${nrProposta} recusada: o parceiro vê o motivo na proposta.`,
    AGUARDANDO_DOCUMENTOS: `Documentos pedidos ao parceiro para a proposta nº ${nrProposta}: o prazo de aceite fica suspenso até o envio.`,
    EM_ANALISE: `Proposta nº ${nrProposta}: decisão registrada.`,
  };
  return OUTCOMES[row.status as ProposalStatus];
}
