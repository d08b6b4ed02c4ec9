import { sql } from 'kysely';
import type { DB } from '../../db';
import { DomainError, forbidden, conflict } from '../../errors';
import { now } from '../../clock';
import { actorOf, requireChange } from './user-admin';
import { insertLegacyUser, updateLegacyUser } from './user-admin-legacy';
import { insertV2User, updateV2User } from './user-admin-v2';
import { COLUMN_OF, existingUsers, judge, lookups, sameChanges, type KeptRow, type StoredRow } from './user-import';
import { importOf } from './user-import-reading';
import { IMPORT_MESSAGES, type ImportResult, type RowProblem } from '../../../lib/user-import';
import { mayChangeUsers, type Actor, type V1Actor, type V2Actor } from '../../../lib/user-admin';
import { appendAccessEvent } from '../identity/access-log';
import { errorMessage, logError } from '../../log';
import { accountStates, recordImportChanges } from './user-import-undo';

/*
 * Bulk user import, confirmation and processing (issue 16, decisions 048 and 060): the author's
 * confirmation queues a validated import; the jobs of every instance take it and write it in
 * batches, each row judged again and ending with its result.
 */

/**
 * Rows per transaction. Small on purpose: on the embedded database a transaction holds the one
 * connection, and its queries run on the event loop, so other users' requests wait for the batch
 * in course — ten rows keep that wait near a tenth of a second (decision 048).
 */
const BATCH = 10;
const yieldTurn = () => new Promise((resolve) => setImmediate(resolve));
/** A worker silent this long has died: its import is taken up again where it stopped. */
const STALE_CLAIM_MS = 60_000;

/** What the author chooses at the confirmation. */
export interface ImportConfirmation {
  /** Update the existing accounts whose changes the validation showed; false (the default) skips them. */
  updateExisting: boolean;
}

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Queues a validated import of the actor's with something to write, with the author's choice about
 * existing accounts; once only (a second confirmation is a 409, whatever it asks). The access log
 * says who confirmed what: how many to create, and whether the accounts with changes are updated.
 */
export async function confirmImport(db: DB, actor: Actor, id: number, choice: ImportConfirmation, ip: string | null): Promise<void> {
  requireChange(actor);
  await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('user_imports')
      .set({ status: 'NA_FILA', confirmed_at: now(), update_existing: choice.updateExisting })
      .where('id', '=', id)
      .where('actor_id', '=', actor.userId)
      .where('status', '=', 'VALIDADO')
      .where('valid_rows', '>', 0)
      .returning(['generation'])
      .executeTakeFirst();
    if (!updated) throw conflict('Esta importação já foi confirmada ou não tem linhas válidas.');
    const summary = (await importOf(trx, actor, id))!;
    const created = summary.validRows - summary.existing.changed - summary.existing.unchanged;
    const detail = [
      `${created} a criar`,
      summary.existing.changed === 0
        ? undefined
        : choice.updateExisting
          ? counted(summary.existing.changed, 'existente a atualizar', 'existentes a atualizar')
          : counted(summary.existing.changed, 'existente com alterações não atualizado', 'existentes com alterações não atualizados'),
      `${summary.existing.unchanged} sem alteração`,
    ]
      .filter(Boolean)
      .join('; ');
    const author = await trx.selectFrom('users').select(['email']).where('id', '=', actor.userId).executeTakeFirstOrThrow();
    await appendAccessEvent(trx, {
      event: 'USUARIOS_IMPORTADOS',
      generation: updated.generation,
      email: author.email,
      userId: actor.userId,
      actorId: actor.userId,
      ip,
      detalhe: detail,
      registroTipo: 'IMPORTACAO_USUARIOS',
      registro: String(id),
    });
  });
}

/** Takes one import waiting (or whose worker went quiet) for this instance; undefined when none. */
async function claim(
  db: DB,
): Promise<{ id: number; actor_id: number; generation: 'v1' | 'v2'; ip: string | null; update_existing: boolean } | undefined> {
  return db.transaction().execute(async (trx) => {
    const next = await trx
      .selectFrom('user_imports')
      .select(['id', 'actor_id', 'generation', 'ip', 'update_existing'])
      .where((eb) =>
        eb.or([
          eb('status', '=', 'NA_FILA'),
          eb.and([eb('status', '=', 'PROCESSANDO'), eb('claimed_at', '<', new Date(now().getTime() - STALE_CLAIM_MS))]),
        ]),
      )
      .orderBy('id')
      .limit(1)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (next) await trx.updateTable('user_imports').set({ status: 'PROCESSANDO', claimed_at: now() }).where('id', '=', next.id).execute();
    return next;
  });
}

const reasonOf = (error: unknown): string | undefined => {
  if (!(error instanceof DomainError)) return undefined;
  const fields = error.fieldErrors ? Object.entries(error.fieldErrors).map(([f, m]) => `${COLUMN_OF[f] ?? f}: ${m.join(' ')}`) : [];
  return fields.length > 0 ? fields.join(' | ') : error.message;
};
const reasonOfProblems = (problems: readonly RowProblem[]) => problems.map((p) => `${p.column}: ${p.message}`).join(' | ');

/** A row's result; a created account's id, which the import records so it can be undone (decision 071). */
type Outcome = { result: ImportResult; reason?: string; userId?: number };

/** Records rows' results (and the accounts created) and counts them done, in the caller's transaction. */
async function record(trx: DB, importId: number, outcomes: ReadonlyMap<number, Outcome>): Promise<void> {
  await recordImportChanges(
    trx,
    importId,
    [...outcomes].flatMap(([line, o]) => (o.result === 'criado' && o.userId ? [{ line, userId: o.userId }] : [])),
  );
  if (outcomes.size > 0) {
    // One statement for the batch's rows, not one per row.
    const results = sql.join(
      [...outcomes].map(([line, { result, reason }]) => sql`(${line}::int, ${result}::text, ${reason ?? null}::text)`),
    );
    await sql`update user_import_rows as r set result = o.result, reason = o.reason
      from (values ${results}) as o(line, result, reason)
      where r.import_id = ${importId} and r.line = o.line`.execute(trx);
  }
  await trx
    .updateTable('user_imports')
    .set({ processed_rows: sql`processed_rows + ${outcomes.size}`, claimed_at: now() })
    .where('id', '=', importId)
    .execute();
}

/**
 * Writes one batch, judged again against the database as it is now. One transaction holds the new
 * users, their first-access codes and e-mails (queued), and the results of every row it decides —
 * so a crash leaves the batch either done and recorded or not begun. A refusal is that row's; a
 * database error redoes the batch row by row. Users who already exist change through the single-user
 * path, one by one, each result recorded right after.
 */
async function writeBatch(
  db: DB,
  actor: Actor,
  importId: number,
  rows: readonly KeptRow[],
  facts: Awaited<ReturnType<typeof lookups>>,
  ip: string | null,
  updateExisting: boolean,
) {
  const found = await existingUsers(db, rows);
  const verdicts = rows.map((row) => ({ line: row.line, seen: row.seen, ...judge(actor, row, found, facts) }));
  const decided = new Map<number, Outcome>();
  for (const v of verdicts) {
    if (v.problems.length > 0) decided.set(v.line, { result: 'recusado', reason: reasonOfProblems(v.problems) });
    else if (v.stored?.unchanged) decided.set(v.line, { result: 'sem_alteracao' });
    else if (v.stored?.existingId) {
      // An update only when asked, and only of the account shown with the changes shown (decision 060).
      if (!updateExisting) decided.set(v.line, { result: 'ignorado', reason: IMPORT_MESSAGES.skipped });
      else if (v.seen?.id !== v.stored.existingId || !sameChanges(v.seen.changes, v.stored.changes))
        decided.set(v.line, { result: 'ignorado', reason: IMPORT_MESSAGES.changedSinceValidation });
    }
  }
  const creations = verdicts.filter((v) => v.stored && !v.stored.existingId);
  const create = async (trx: DB, stored: StoredRow): Promise<Outcome> => {
    try {
      // The new user's first-access code and e-mail are written with them, in this batch's transaction.
      const user =
        stored.generation === 'v1'
          ? await insertLegacyUser(trx, actor as V1Actor, stored.input, ip, facts.groups)
          : await insertV2User(trx, actor as V2Actor, stored.change, ip);
      return { result: 'criado', userId: user.id };
    } catch (error) {
      const reason = reasonOf(error);
      if (reason === undefined) throw error;
      return { result: 'recusado', reason };
    }
  };
  try {
    await db.transaction().execute(async (trx) => {
      const outcomes = new Map(decided);
      for (const v of creations) outcomes.set(v.line, await create(trx, v.stored!));
      await record(trx, importId, outcomes);
    });
  } catch {
    // The database refused something mid-batch (a unique key taken meanwhile): each row on its own.
    await db.transaction().execute((trx) => record(trx, importId, decided));
    const failed: Outcome = { result: 'recusado', reason: 'Não foi possível gravar este usuário.' };
    for (const v of creations)
      await db
        .transaction()
        .execute(async (trx) => record(trx, importId, new Map([[v.line, await create(trx, v.stored!)]])))
        .catch(() => db.transaction().execute((trx) => record(trx, importId, new Map([[v.line, failed]]))));
  }
  for (const v of verdicts.filter((x) => x.stored?.existingId && !decided.has(x.line))) {
    const stored = v.stored!;
    let outcome: Outcome;
    // The account before, so an undo can give it back (decision 071).
    const before = (await accountStates(db, [stored.existingId!])).get(stored.existingId!);
    try {
      if (stored.generation === 'v1') await updateLegacyUser(db, actor as V1Actor, stored.existingId!, stored.input, ip);
      else await updateV2User(db, actor as V2Actor, stored.existingId!, stored.change, ip);
      outcome = { result: 'atualizado' };
    } catch (error) {
      outcome = { result: 'recusado', reason: reasonOf(error) ?? 'Não foi possível alterar este usuário.' };
    }
    // Were this record lost, the next run would find the user as the file says: "sem alteração".
    await db.transaction().execute(async (trx) => {
      if (outcome.result === 'atualizado' && before)
        await recordImportChanges(trx, importId, [{ line: v.line, userId: stored.existingId!, before }]);
      await record(trx, importId, new Map([[v.line, outcome]]));
    });
  }
}

/** The import's author as the rules' actor, while still active and allowed to change users. */
export async function authorOf(db: DB, id: number): Promise<Actor> {
  const author = await db.selectFrom('users').select(['id', 'generation', 'profile', 'status']).where('id', '=', id).executeTakeFirst();
  if (author?.status !== 'ATIVO') throw forbidden('O autor da importação não está mais ativo.');
  const actor = await actorOf(db, author);
  if (!mayChangeUsers(actor)) throw forbidden('O autor da importação não pode mais alterar usuários.');
  return actor;
}

/** The job (server/boot/jobs.ts): writes every import waiting, a batch at a time, yielding between batches. */
export async function processImports(db: DB): Promise<void> {
  for (let job = await claim(db); job; job = await claim(db)) {
    try {
      const facts = await lookups(db);
      for (;;) {
        // The author as they are now, each batch: one blocked, demoted or moved meanwhile stops
        // writing with the rights they no longer have.
        const actor = await authorOf(db, job.actor_id);
        const rows = await db
          .selectFrom('user_import_rows')
          .select(['line', 'data'])
          .where('import_id', '=', job.id)
          .where('result', 'is', null)
          .where('data', 'is not', null)
          .orderBy('line')
          .limit(BATCH)
          .execute();
        if (rows.length === 0) break;
        await writeBatch(
          db,
          actor,
          job.id,
          rows.map((r) => r.data as unknown as KeptRow),
          facts,
          job.ip,
          job.update_existing,
        );
        await yieldTurn(); // other requests' turn
      }
      await db.updateTable('user_imports').set({ status: 'CONCLUIDO', finished_at: now() }).where('id', '=', job.id).execute();
    } catch (error) {
      const message =
        error instanceof DomainError ? error.message : 'Falha inesperada ao importar; as linhas já gravadas ficam, peça de novo as demais.';
      if (!(error instanceof DomainError)) logError('importacao-falha', { importacao: job.id, erro: errorMessage(error) });
      await db.updateTable('user_imports').set({ status: 'ERRO', error: message, finished_at: now() }).where('id', '=', job.id).execute();
    }
  }
}
