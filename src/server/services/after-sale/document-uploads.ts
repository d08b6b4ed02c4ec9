import { sql } from 'kysely';
import type { DB } from '../../db';
import { type DomainError, storageFull } from '../../errors';
import { startOfBrasiliaDay } from '../../../lib/calendar';
import { brasiliaDay } from '../../../lib/format';
import {
  DOCUMENT_CATEGORIES,
  DOCUMENT_MESSAGES,
  displayName,
  nameProblem,
  type DocumentCategory,
  type DocumentMime,
} from '../../../lib/documents';
import {
  DISK_FULL_MESSAGE,
  quotaProblem,
  UPLOAD_LIMITS,
  type QuotaRefusal,
  type UploadLimits,
  type UploadUsage,
} from '../../../lib/document-limits';
import { documentTypeOfFile } from '../../document-content';
import type { FileStore, ReceivedFile } from '../../files';
import { documentReceived } from './acceptance';
import { documentRowOf, documentRowQuery, type DocumentProposal, type DocumentRow } from './documents';

/*
 * Sending a document (issues 14 and 27, decisions 040 and 057). Before a byte of the body is read, the
 * upload is counted against the limits (lib/document-limits.ts) in the database — the documents
 * already sent and the uploads under way (`document_uploads`), under a lock of the user's and the
 * proposal's rows, so two instances over one PostgreSQL count the same — and the disk is checked for
 * room. Only then is the body streamed to disk, checked, and stored with its row; the reservation
 * goes in the same transaction. A sweeper job clears what crashed processes leave.
 */

const DAY_START = (now: Date) => startOfBrasiliaDay(brasiliaDay(now));

/** What is counted against the limits for `userId` sending to `proposalId` at `now` (one query). */
export async function uploadUsage(db: DB, userId: number, proposalId: number, now: Date): Promise<UploadUsage> {
  const since = DAY_START(now);
  const { rows } = await sql<{
    portal_active: string;
    user_active: string;
    user_active_bytes: string;
    day_files: string;
    day_bytes: string;
    proposal_files: string;
    proposal_bytes: string;
    proposal_active: string;
    proposal_active_bytes: string;
  }>`
    select
      (select count(*) from document_uploads where expires_at > ${now}) as portal_active,
      u.active as user_active, u.bytes as user_active_bytes,
      d.files as day_files, d.bytes as day_bytes,
      p.files as proposal_files, p.bytes as proposal_bytes,
      r.active as proposal_active, r.bytes as proposal_active_bytes
    from
      (select count(*) as active, coalesce(sum(bytes), 0) as bytes from document_uploads
        where user_id = ${userId} and expires_at > ${now}) u,
      (select count(*) as files, coalesce(sum(tamanho), 0) as bytes from documents
        where user_id = ${userId} and created_at >= ${since}) d,
      (select count(*) as files, coalesce(sum(tamanho), 0) as bytes from documents
        where proposal_id = ${proposalId} and removido_em is null) p,
      (select count(*) as active, coalesce(sum(bytes), 0) as bytes from document_uploads
        where proposal_id = ${proposalId} and expires_at > ${now}) r
  `.execute(db);
  const row = rows[0]!;
  const n = (value: string) => Number(value);
  return {
    portalActive: n(row.portal_active),
    userActive: n(row.user_active),
    userDay: { files: n(row.day_files) + n(row.user_active), bytes: n(row.day_bytes) + n(row.user_active_bytes) },
    proposal: {
      files: n(row.proposal_files) + n(row.proposal_active),
      bytes: n(row.proposal_bytes) + n(row.proposal_active_bytes),
    },
  };
}

export type Admission = { ok: true; ticket: number } | { ok: false; refusal: QuotaRefusal };

/**
 * This process's upload requests under way, counted from the moment one arrives (before any query):
 * a user already sending as many files as allowed here is refused at once, so a burst of requests
 * costs one lookup of the session each instead of a queue of counts the other users' pages wait
 * behind. The database count (admitUpload) still decides for everything else — other instances'
 * uploads, the day, the proposal.
 */
const underWay = { total: 0, byUser: new Map<number, number>() };
const NOTHING = { files: 0, bytes: 0 };

function countUnderWay(userId: number, delta: 1 | -1) {
  underWay.total += delta;
  const mine = (underWay.byUser.get(userId) ?? 0) + delta;
  if (mine > 0) underWay.byUser.set(userId, mine);
  else underWay.byUser.delete(userId);
}

/** An upload request starts here: refused when this instance already holds the most allowed; else `leave` when it ends. */
export function enterUpload(
  userId: number,
  now: Date,
  limits: UploadLimits = UPLOAD_LIMITS,
): { ok: true; leave(): void } | { ok: false; refusal: QuotaRefusal } {
  const usage = { portalActive: underWay.total, userActive: underWay.byUser.get(userId) ?? 0, userDay: NOTHING, proposal: NOTHING };
  const refusal = quotaProblem(usage, 0, now, limits);
  if (refusal) return { ok: false, refusal };
  countUnderWay(userId, 1);
  let left = false;
  return {
    ok: true,
    leave() {
      if (left) return;
      left = true;
      countUnderWay(userId, -1);
    },
  };
}

/**
 * Counts an upload of `bytes` against the limits and, when it fits, reserves its place (a row of
 * document_uploads, good for `abandonedAfterMinutes`). The user's and the proposal's rows are locked
 * for the count, so concurrent uploads — on any instance — are counted one after the other.
 */
export async function admitUpload(
  db: DB,
  upload: { userId: number; proposalId: number; bytes: number },
  now: Date,
  limits: UploadLimits = UPLOAD_LIMITS,
): Promise<Admission> {
  return db.transaction().execute(async (trx): Promise<Admission> => {
    await trx.selectFrom('users').select('id').where('id', '=', upload.userId).forUpdate().execute();
    await trx.selectFrom('proposals').select('id').where('id', '=', upload.proposalId).forUpdate().execute();
    const refusal = quotaProblem(await uploadUsage(trx, upload.userId, upload.proposalId, now), upload.bytes, now, limits);
    if (refusal) return { ok: false, refusal };
    const { id } = await trx
      .insertInto('document_uploads')
      .values({
        user_id: upload.userId,
        proposal_id: upload.proposalId,
        bytes: upload.bytes,
        started_at: now,
        expires_at: new Date(now.getTime() + limits.abandonedAfterMinutes * 60_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { ok: true, ticket: id };
  });
}

/**
 * Every admitted upload ends here, whatever its end: stored (its row already went in the store's
 * transaction), refused, failed or cut — its place is free again.
 */
export async function releaseUpload(db: DB, ticket: number): Promise<void> {
  await db.deleteFrom('document_uploads').where('id', '=', ticket).execute();
}

let diskWarnedAt = 0;

/**
 * The disk-space floor: refused (507) when storing `bytes` more would leave less than `floorBytes`
 * free. The operators hear of it in the log, once a minute at most. Object storage has no such floor
 * (its free bytes are unknown: undefined); the upload's temporary file on this instance's disk is
 * bounded by the 10 MB limit and the quotas.
 */
export async function diskRoomProblem(files: FileStore, bytes: number, floorBytes: number, now: Date): Promise<DomainError | undefined> {
  const free = await files.freeBytes();
  if (free === undefined || free - bytes >= floorBytes) return undefined;
  if (now.getTime() - diskWarnedAt >= 60_000) {
    diskWarnedAt = now.getTime();
    const mb = (n: number) => `${Math.floor(n / 1024 / 1024)} MB`;
    console.error(
      `Envio de documento recusado: espaço em disco abaixo do mínimo de ${mb(floorBytes)} em ${files.location} (livres: ${mb(free)}).`,
    );
  }
  return storageFull(DISK_FULL_MESSAGE, { arquivo: [DISK_FULL_MESSAGE] });
}

export type ReceivedCheck =
  | { ok: true; nome: string; mime: DocumentMime }
  | { ok: false; status: 400; message: string; errors: Record<string, string[]> };

/** Whether a received file may be stored: its name, that it is not empty, then what its bytes are. */
export async function checkReceived(name: string, received: ReceivedFile): Promise<ReceivedCheck> {
  const refused = (message: string): ReceivedCheck => ({ ok: false, status: 400, message, errors: { arquivo: [message] } });
  const badName = nameProblem(name);
  if (badName) return refused(badName);
  if (received.size === 0) return refused(DOCUMENT_MESSAGES.empty);
  const mime = await documentTypeOfFile(received.temporary);
  if (!mime) return refused(DOCUMENT_MESSAGES.type);
  return { ok: true, nome: displayName(name, mime), mime };
}

export interface StoredDocument {
  documento: DocumentRow;
  /** The proposal was waiting for documents and went back to analysis, its clock resumed. */
  retomada: boolean;
}

/**
 * Stores a checked file for a proposal of the viewer's scope: the bytes in place by their hash, then —
 * in one transaction — its row, the end of its reservation and the proposal's timeline (every document
 * by kind and name; one answering the insurer's request resumes the acceptance clock, through
 * services/after-sale/acceptance.ts, the one place for that rule).
 */
export async function storeDocument(
  db: DB,
  files: FileStore,
  upload: {
    proposal: DocumentProposal;
    userId: number;
    ticket: number;
    categoria: DocumentCategory;
    nome: string;
    mime: DocumentMime;
    received: ReceivedFile;
  },
  now: Date,
): Promise<StoredDocument> {
  const placed = await files.place(upload.received);
  try {
    const stored = await db.transaction().execute(async (trx) => {
      // The proposal's row first, as the timeline below locks it: the document's foreign key holds a
      // share lock on it, and two uploads that each inserted before locking waited on each other
      // (PostgreSQL: deadlock detected, a 500 to one of them).
      await trx.selectFrom('proposals').select('id').where('id', '=', upload.proposal.id).forUpdate().execute();
      await trx.deleteFrom('document_uploads').where('id', '=', upload.ticket).execute();
      const { id } = await trx
        .insertInto('documents')
        .values({
          proposal_id: upload.proposal.id,
          user_id: upload.userId,
          categoria: upload.categoria,
          nome: upload.nome,
          mime: upload.mime,
          tamanho: upload.received.size,
          sha256: upload.received.sha256,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const detalhe = `${DOCUMENT_CATEGORIES[upload.categoria]}: ${upload.nome}`;
      const retomada = await documentReceived(trx, upload.userId, upload.proposal.nrProposta, detalhe, id, now);
      const row = await documentRowQuery(trx).where('d.id', '=', id).executeTakeFirstOrThrow();
      return { documento: documentRowOf(row, upload.userId), retomada };
    });
    await placed.settle();
    return stored;
  } catch (error) {
    await placed.discard();
    throw error;
  }
}

/** How long a file must lie untouched before the sweeper may take it: far longer than any upload's transaction. */
export const FILE_GRACE_MS = 60 * 60_000;
const RESERVATION_BATCH = 200;

/** Which of `hashes` a row still points at: a live document, a nota fiscal, a sales report. */
async function referencedHashes(db: DB, hashes: string[]): Promise<Set<string>> {
  const [documents, notas, reports] = await Promise.all([
    db.selectFrom('documents').select('sha256').where('sha256', 'in', hashes).where('removido_em', 'is', null).execute(),
    db.selectFrom('notas_fiscais').select('sha256').where('sha256', 'in', hashes).execute(),
    db.selectFrom('sales_reports').select('sha256').where('sha256', 'in', hashes).execute(),
  ]);
  return new Set([...documents, ...notas, ...reports].map((row) => row.sha256).filter((hash): hash is string => hash !== null));
}

/**
 * The sweeper job (decision 057): reservations of uploads abandoned past their time (a process that
 * died mid-upload) go, claimed with SKIP LOCKED in batches so instances never wait on one another;
 * then files no row points at — a removed document's, a failed transaction's, a dead process's
 * temporary one — once untouched for FILE_GRACE_MS. Two instances sweeping the same shared folder at
 * once only remove the same files twice.
 */
export async function sweepUploads(db: DB, files: FileStore, now: Date): Promise<{ reservations: number; files: number }> {
  let reservations = 0;
  for (;;) {
    const swept = await db.transaction().execute(async (trx) => {
      const due = await trx
        .selectFrom('document_uploads')
        .select('id')
        .where('expires_at', '<=', now)
        .orderBy('expires_at')
        .limit(RESERVATION_BATCH)
        .forUpdate()
        .skipLocked()
        .execute();
      if (due.length > 0)
        await trx
          .deleteFrom('document_uploads')
          .where(
            'id',
            'in',
            due.map((r) => r.id),
          )
          .execute();
      return due.length;
    });
    reservations += swept;
    if (swept < RESERVATION_BATCH) break;
  }
  const swept = await files.sweep((hashes) => referencedHashes(db, hashes), FILE_GRACE_MS);
  return { reservations, files: swept };
}
