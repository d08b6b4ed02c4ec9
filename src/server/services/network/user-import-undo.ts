import { sql } from 'kysely';
import type { DB } from '../../db';
import { conflict, DomainError, notFound } from '../../errors';
import { now } from '../../clock';
import { manageableAmong, requireChange } from './user-admin';
import { changed, checkStanding, EVENT_OF_STATUS, inUserChange, logEvent, settleAccess } from './user-admin-writing';
import { appendAccessEvent } from '../identity/access-log';
import { formatDateTime } from '../../../lib/format';
import {
  ACCOUNT_FIELD_LABELS,
  differingFields,
  IMPORT_UNDO_HOURS,
  UNDO_MESSAGES,
  undoDeadline,
  type AccountState,
  type UndoAction,
} from '../../../lib/user-import-undo';
import type { FieldChange } from '../../../lib/user-import';
import type { Actor } from '../../../lib/user-admin';
import type { KeptRow } from './user-import';

/*
 * Undoing an import (issue 32, decision 071). While the job writes an import it records, per
 * account, the state it left (and, for an account it updated, the state before). Within a day of the
 * import's end its author may undo it as a whole: each account created is deactivated, each account
 * updated gets its previous values back — but only an account still as the import left it; one
 * changed since by someone else is left as it is, and the preview says why. The undo is one
 * transaction under the user-change lock that first marks the import undone with a conditional
 * update: a second click, or another instance, finds it marked and undoes nothing.
 */

// ─── The state an import may set ─────────────────────────────────────────────────────────────────

/** The accounts' states now, in one statement (link tables as sorted arrays, so states compare as values). */
export async function accountStates(db: DB, ids: readonly number[]): Promise<Map<number, AccountState>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('users as u')
    .select([
      'u.id',
      'u.nome',
      'u.email',
      'u.cpf',
      'u.celular',
      'u.profile',
      'u.status',
      'u.company_id',
      'u.point_of_sale_id',
      'u.permission_group_id',
      sql<number[]>`coalesce((select array_agg(group_id order by group_id) from user_groups where user_id = u.id), '{}')`.as('groups'),
      sql<number[]>`coalesce((select array_agg(company_id order by company_id) from user_companies where user_id = u.id), '{}')`.as(
        'companies',
      ),
      sql<string[]>`coalesce((select array_agg(operation order by operation) from user_operations where user_id = u.id), '{}')`.as(
        'operations',
      ),
    ])
    .where('u.id', 'in', [...ids])
    .execute();
  return new Map(rows.map(({ id, ...state }) => [id, state]));
}

/**
 * Records, in the caller's transaction, what the import did to these accounts: the state each is in
 * now (the import's work), with the state before for an update.
 */
export async function recordImportChanges(
  trx: DB,
  importId: number,
  changes: readonly { line: number; userId: number; before?: AccountState }[],
): Promise<void> {
  if (changes.length === 0) return;
  const after = await accountStates(
    trx,
    changes.map((c) => c.userId),
  );
  await trx
    .insertInto('user_import_changes')
    .values(
      changes.map((c) => ({
        import_id: importId,
        user_id: c.userId,
        line: c.line,
        kind: c.before ? ('atualizado' as const) : ('criado' as const),
        before: c.before ? JSON.stringify(c.before) : null,
        after: JSON.stringify(after.get(c.userId)),
      })),
    )
    .onConflict((oc) => oc.columns(['import_id', 'user_id']).doNothing())
    .execute();
}

// ─── The preview ─────────────────────────────────────────────────────────────────────────────────

export interface UndoItem {
  userId: number;
  line: number;
  nome: string;
  email: string;
  action: UndoAction;
  /** For a restore: each field as the import set it → the value it gets back (as the validation showed them). */
  fields: FieldChange[];
  /** Why an account is left as it is. */
  reason?: string;
}

export interface UndoPlan {
  counts: Record<UndoAction, number>;
  /** The first items, in the file's order (the preview shows a page of them). */
  items: UndoItem[];
  /** Until when it may be undone. */
  deadline: Date;
  /** Why it cannot be undone (already undone, too late, still running, nothing to undo); undefined when it can. */
  refusal?: string;
  undoneAt: Date | null;
  undoneBy: string | null;
}

interface ImportFacts {
  id: number;
  status: string;
  finished_at: Date | null;
  undone_at: Date | null;
  undone_by: string | null;
}

/** Why this import cannot be undone now (undefined: it can). */
function refusalOf(facts: ImportFacts, changes: number, at: Date): string | undefined {
  if (facts.undone_at) return UNDO_MESSAGES.alreadyUndone(formatDateTime(facts.undone_at), facts.undone_by);
  if (facts.status !== 'CONCLUIDO' && facts.status !== 'ERRO') return UNDO_MESSAGES.notFinished;
  if (!facts.finished_at || at.getTime() > undoDeadline(facts.finished_at).getTime())
    return UNDO_MESSAGES.tooLate(formatDateTime(undoDeadline(facts.finished_at ?? at)), IMPORT_UNDO_HOURS);
  if (changes === 0) return UNDO_MESSAGES.nothing;
  return undefined;
}

async function importFacts(db: DB, actor: Actor, id: number): Promise<ImportFacts | undefined> {
  return db
    .selectFrom('user_imports as i')
    .leftJoin('users as by', 'by.id', 'i.undone_by')
    .select(['i.id', 'i.status', 'i.finished_at', 'i.undone_at', 'by.nome as undone_by'])
    .where('i.id', '=', id)
    .where('i.actor_id', '=', actor.userId)
    .where('i.generation', '=', actor.generation)
    .executeTakeFirst();
}

/** Who last changed each account after `since`, and when (the access log's rows of user administration). */
async function lastChangedBy(db: DB, ids: readonly number[], since: Date) {
  if (ids.length === 0) return new Map<number, { nome: string | null; at: Date }>();
  const rows = await db
    .selectFrom('access_events as e')
    .leftJoin('users as a', 'a.id', 'e.actor_id')
    .select(['e.user_id', 'a.nome', 'e.created_at'])
    .distinctOn('e.user_id')
    .where('e.user_id', 'in', [...ids])
    .where('e.created_at', '>', since)
    .where('e.event', 'in', ['USUARIO_ALTERADO', 'USUARIO_DESATIVADO', 'USUARIO_BLOQUEADO', 'USUARIO_REATIVADO'])
    .orderBy('e.user_id')
    .orderBy('e.created_at', 'desc')
    .execute();
  return new Map(rows.map((r) => [r.user_id!, { nome: r.nome, at: r.created_at }]));
}

/**
 * What undoing the import would do to each account it changed, judged against the accounts as they
 * are now. `limit` bounds the items returned (the counts are of all).
 */
async function planOf(db: DB, actor: Actor, facts: ImportFacts, limit: number): Promise<UndoPlan> {
  const at = now();
  const rows = await db
    .selectFrom('user_import_changes as c')
    .innerJoin('user_import_rows as r', (j) => j.onRef('r.import_id', '=', 'c.import_id').onRef('r.line', '=', 'c.line'))
    .select(['c.user_id', 'c.line', 'c.kind', 'c.before', 'c.after', 'c.undo', 'c.undo_reason', 'r.data'])
    .where('c.import_id', '=', facts.id)
    .orderBy('c.line')
    .execute();
  const ids = rows.map((r) => r.user_id);
  const [current, managed, changedBy] = await Promise.all([
    accountStates(db, ids),
    manageableAmong(db, actor, ids),
    lastChangedBy(db, ids, facts.finished_at ?? at),
  ]);
  const manageable = new Set(managed.map((u) => u.id));
  const counts: Record<UndoAction, number> = { desativar: 0, restaurar: 0, manter: 0 };
  const items: UndoItem[] = [];
  for (const row of rows) {
    const after = row.after as unknown as AccountState;
    const state = current.get(row.user_id);
    const kept = row.data as unknown as KeptRow | null;
    const item: UndoItem = {
      userId: row.user_id,
      line: row.line,
      nome: state?.nome ?? after.nome,
      email: state?.email ?? after.email,
      action: 'manter',
      fields: [],
    };
    if (facts.undone_at) {
      // Once undone, the plan is the record of what the undo did.
      item.action = row.undo === 'desativado' ? 'desativar' : row.undo === 'restaurado' ? 'restaurar' : 'manter';
      item.reason = row.undo_reason ?? undefined;
      if (row.undo === 'restaurado') item.fields = kept?.seen?.changes ?? [];
    } else if (!state || !manageable.has(row.user_id)) item.reason = UNDO_MESSAGES.notManaged;
    else {
      // A created account's own first access (PENDENTE → ATIVO) is not someone else's change.
      const compared = row.kind === 'criado' ? differingFields({ ...after, status: state.status }, state) : differingFields(after, state);
      if (compared.length > 0) {
        const by = changedBy.get(row.user_id);
        item.reason = UNDO_MESSAGES.changedSince(
          compared.map((f) => ACCOUNT_FIELD_LABELS[f]),
          by ? { nome: by.nome, at: formatDateTime(by.at) } : undefined,
        );
      } else if (row.kind === 'criado') {
        if (state.status === 'INATIVO' || state.status === 'BLOQUEADO') item.reason = UNDO_MESSAGES.alreadyOff(state.status);
        else item.action = 'desativar';
      } else {
        item.action = 'restaurar';
        item.fields = (kept?.seen?.changes ?? []).map((c) => ({ ...c }));
      }
    }
    counts[item.action] += 1;
    if (items.length < limit) items.push(item);
  }
  return {
    counts,
    items,
    deadline: undoDeadline(facts.finished_at ?? at),
    refusal: refusalOf(facts, rows.length, at),
    undoneAt: facts.undone_at,
    undoneBy: facts.undone_by,
  };
}

/** The preview of undoing the actor's import `id` (undefined: not theirs — the 404). */
export async function undoPreview(db: DB, actor: Actor, id: number, limit = 200): Promise<UndoPlan | undefined> {
  const facts = await importFacts(db, actor, id);
  return facts ? planOf(db, actor, facts, limit) : undefined;
}

/**
 * Whether the actor's import `id` may be undone, and once undone what the undo did — without judging
 * each account (the result page shows it; the preview judges them).
 */
export async function undoStatus(db: DB, actor: Actor, id: number): Promise<Omit<UndoPlan, 'items'> | undefined> {
  const facts = await importFacts(db, actor, id);
  if (!facts) return undefined;
  const rows = await db
    .selectFrom('user_import_changes')
    .select(['undo', sql<number>`count(*)::int`.as('n')])
    .where('import_id', '=', id)
    .groupBy('undo')
    .execute();
  const of = (undo: string) => rows.find((r) => r.undo === undo)?.n ?? 0;
  const total = rows.reduce((sum, r) => sum + r.n, 0);
  const at = now();
  return {
    counts: { desativar: of('desativado'), restaurar: of('restaurado'), manter: of('mantido') },
    deadline: undoDeadline(facts.finished_at ?? at),
    refusal: refusalOf(facts, total, at),
    undoneAt: facts.undone_at,
    undoneBy: facts.undone_by,
  };
}

// ─── The undo ────────────────────────────────────────────────────────────────────────────────────

/**
 * Undoes the actor's import `id` as a whole, in one transaction: marks it undone (once: a conditional
 * update), deactivates the accounts it created and restores those it updated — each only when still
 * as the import left it — records each account's outcome and logs the undo. A refusal (a 409) says
 * why in pt-BR: already undone, past its day, still running.
 */
export async function undoImport(db: DB, actor: Actor, id: number, ip: string | null): Promise<UndoPlan['counts']> {
  requireChange(actor);
  const touched: number[] = [];
  // Under the user-change lock, as every change of a user (user-admin-writing.ts).
  const counts = await inUserChange(db, async (trx) => {
    const facts = await importFacts(trx, actor, id);
    if (!facts) throw notFound();
    const at = now();
    const marked = await trx
      .updateTable('user_imports')
      .set({ undone_at: at, undone_by: actor.userId })
      .where('id', '=', id)
      .where('actor_id', '=', actor.userId)
      .where('undone_at', 'is', null)
      .where('status', 'in', ['CONCLUIDO', 'ERRO'])
      .where('finished_at', '>=', new Date(at.getTime() - IMPORT_UNDO_HOURS * 3_600_000))
      .returning('id')
      .executeTakeFirst();
    const plan = await planOf(trx, actor, facts, Number.MAX_SAFE_INTEGER);
    if (!marked || plan.refusal) throw conflict(plan.refusal ?? UNDO_MESSAGES.notFinished);
    const result: Record<UndoAction, number> = { desativar: 0, restaurar: 0, manter: 0 };
    const rows = await trx
      .selectFrom('user_import_changes')
      .select(['user_id', 'before'])
      .where('import_id', '=', id)
      .where('kind', '=', 'atualizado')
      .execute();
    const beforeOf = new Map(rows.map((r) => [r.user_id, r.before as unknown as AccountState]));
    const managed = new Map(
      (
        await manageableAmong(
          trx,
          actor,
          plan.items.map((i) => i.userId),
        )
      ).map((u) => [u.id, u]),
    );
    for (const item of plan.items) {
      let outcome: { undo: 'desativado' | 'restaurado' | 'mantido'; reason?: string } = { undo: 'mantido', reason: item.reason };
      const user = managed.get(item.userId);
      if (item.action !== 'manter' && user) {
        try {
          // A savepoint per account: a refusal (the last administrator) leaves that one as it is, not the whole undo.
          await sql`savepoint undo_account`.execute(trx);
          if (item.action === 'desativar') await deactivate(trx, actor, user, id, ip);
          else await restore(trx, actor, user, beforeOf.get(item.userId)!, id, ip);
          await sql`release savepoint undo_account`.execute(trx);
          outcome = { undo: item.action === 'desativar' ? 'desativado' : 'restaurado' };
          touched.push(item.userId);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          await sql`rollback to savepoint undo_account`.execute(trx);
          outcome = { undo: 'mantido', reason: error.message };
        }
      }
      result[outcome.undo === 'desativado' ? 'desativar' : outcome.undo === 'restaurado' ? 'restaurar' : 'manter'] += 1;
      await trx
        .updateTable('user_import_changes')
        .set({ undo: outcome.undo, undo_reason: outcome.reason ?? null })
        .where('import_id', '=', id)
        .where('user_id', '=', item.userId)
        .execute();
    }
    const author = await trx.selectFrom('users').select(['email']).where('id', '=', actor.userId).executeTakeFirstOrThrow();
    await appendAccessEvent(trx, {
      event: 'IMPORTACAO_DESFEITA',
      generation: actor.generation,
      email: author.email,
      userId: actor.userId,
      actorId: actor.userId,
      ip,
      detalhe: UNDO_MESSAGES.logDetail(result),
      registroTipo: 'IMPORTACAO_USUARIOS',
      registro: String(id),
    });
    return result;
  });
  for (const userId of touched) changed(db, userId);
  return counts;
}

type Managed = Awaited<ReturnType<typeof manageableAmong>>[number];

async function deactivate(trx: DB, actor: Actor, user: Managed, importId: number, ip: string | null): Promise<void> {
  await checkStanding(trx, actor, user, { ...user, status: 'INATIVO' });
  const saved = await trx
    .updateTable('users')
    .set({ status: 'INATIVO' })
    .where('id', '=', user.id)
    .returning(['id', 'nome', 'email', 'status'])
    .executeTakeFirstOrThrow();
  await settleAccess(trx, user, saved);
  await logEvent(
    trx,
    'USUARIO_DESATIVADO',
    { ...saved, generation: user.generation },
    actor.userId,
    ip,
    UNDO_MESSAGES.userDetail(importId, []),
  );
}

async function restore(trx: DB, actor: Actor, user: Managed, before: AccountState, importId: number, ip: string | null): Promise<void> {
  const groupNames = await trx
    .selectFrom('permission_groups')
    .select('nome')
    .where('id', 'in', [0, ...before.groups])
    .execute();
  await checkStanding(trx, actor, user, {
    status: before.status,
    profile: before.profile ? (before.profile.toUpperCase() as Managed['profile']) : null,
    groups: groupNames.map((g) => g.nome),
    companyIds: [...new Set([...before.companies, ...(before.company_id ? [before.company_id] : [])])],
  });
  const current = (await accountStates(trx, [user.id])).get(user.id)!;
  const saved = await trx
    .updateTable('users')
    .set({
      nome: before.nome,
      email: before.email,
      cpf: before.cpf,
      celular: before.celular,
      profile: before.profile,
      status: before.status,
      company_id: before.company_id,
      point_of_sale_id: before.point_of_sale_id,
      permission_group_id: before.permission_group_id,
    })
    .where('id', '=', user.id)
    .returning(['id', 'nome', 'email', 'status'])
    .executeTakeFirstOrThrow();
  // A group kept keeps its end date (decision 071).
  const ends = new Map(
    (await trx.selectFrom('user_groups').select(['group_id', 'ends_at']).where('user_id', '=', user.id).execute()).map((r) => [
      r.group_id,
      r.ends_at,
    ]),
  );
  await trx.deleteFrom('user_groups').where('user_id', '=', user.id).execute();
  if (before.groups.length > 0)
    await trx
      .insertInto('user_groups')
      .values(before.groups.map((group_id) => ({ user_id: user.id, group_id, ends_at: ends.get(group_id) ?? null })))
      .execute();
  await trx.deleteFrom('user_companies').where('user_id', '=', user.id).execute();
  if (before.companies.length > 0)
    await trx
      .insertInto('user_companies')
      .values(before.companies.map((company_id) => ({ user_id: user.id, company_id })))
      .execute();
  await trx.deleteFrom('user_operations').where('user_id', '=', user.id).execute();
  if (before.operations.length > 0)
    await trx
      .insertInto('user_operations')
      .values(before.operations.map((operation) => ({ user_id: user.id, operation })))
      .execute();
  await settleAccess(trx, user, saved);
  await logEvent(
    trx,
    saved.status !== user.status ? EVENT_OF_STATUS[saved.status] : 'USUARIO_ALTERADO',
    { ...saved, generation: user.generation },
    actor.userId,
    ip,
    UNDO_MESSAGES.userDetail(
      importId,
      differingFields(current, before).map((f) => ACCOUNT_FIELD_LABELS[f]),
    ),
  );
}
