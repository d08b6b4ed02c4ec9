import { sql } from 'kysely';
import type { DB } from '../../db';
import { DomainError, invalid } from '../../errors';
import { now } from '../../clock';
import { wakeLine } from '../../wake';
import { errorMessage, logError } from '../../log';
import { appendAccessEvent } from '../identity/access-log';
import { legacyGroups, manageableAmong, requireChange, usersInScope, type UserRecord } from './user-admin';
import { setUserStatus } from './user-admin-writing';
import { updateLegacyUser } from './user-admin-legacy';
import { updateV2User } from './user-admin-v2';
import { resendInvitation } from './user-invitations';
import { authorOf } from './user-import-processing';
import { deactivateIfIdle, idleAmong, idleIds } from './access-reviews';
import {
  formStatusOf,
  grantableGroups,
  managedCompanies,
  type Actor,
  type FieldErrors,
  type V1Actor,
  type V2Actor,
} from '../../../lib/user-admin';
import type { Profile } from '../../../lib/permissions';
import {
  BULK_ACTIONS,
  BULK_LIMITS,
  BULK_MESSAGES,
  bulkActionLabel,
  bulkVerdict,
  countVerdicts,
  isReviewAction,
  selectionText,
  type BulkAction,
  type BulkCounts,
  type BulkGroup,
  type BulkJobStatus,
  type BulkResult,
  type BulkSelectionInput,
  type BulkTarget,
  type SkipReason,
  type Verdict,
} from '../../../lib/user-bulk';

/*
 * Bulk actions on the users lists (issue 32, decision 070): the preview of what an action does to a
 * selection, the job that does it, and the job as its page shows it. The selection is read through
 * the list's own scope (identity/users.ts usersMatching, the companies the actor manages), each user
 * is judged by the single-user rule (manageableAmong: a user outside the actor's administration is
 * skipped, never touched) and then by lib/user-bulk.ts, and each change goes through the single-user
 * service — its own transaction, its checks (last administrator, what a group gives), its access-log
 * event — so a bulk action can do nothing a one-at-a-time screen could not.
 *
 * The job runs in the job loop of every instance (server/boot/jobs.ts): a turn claims the job that
 * waited longest (SKIP LOCKED, and a claim that other workers respect until it goes stale), does one
 * batch of users and gives the turn back, so jobs — and so the administrators who asked them — take
 * turns instead of queueing behind the largest.
 */

// ─── The group an action names ───────────────────────────────────────────────────────────────────

export interface GroupOption {
  value: string;
  label: string;
}

/** The groups the actor may give in bulk: legacy groups they may grant; v2 permission groups of the companies they manage. */
export async function bulkGroupOptions(db: DB, actor: Actor): Promise<GroupOption[]> {
  if (actor.generation === 'v1') return grantableGroups(actor, await legacyGroups(db)).map((g) => ({ value: g.nome, label: g.nome }));
  const companies = managedCompanies(actor);
  if (companies !== 'all' && companies.length === 0) return [];
  let query = db
    .selectFrom('v2_permission_groups as g')
    .innerJoin('companies as c', 'c.id', 'g.company_id')
    .select(['g.id', 'g.nome', 'c.razao_social'])
    .orderBy('g.nome')
    .orderBy('g.id')
    .limit(200);
  if (companies !== 'all') query = query.where('g.company_id', 'in', [...companies]);
  return (await query.execute()).map((g) => ({ value: String(g.id), label: `${g.nome} — ${g.razao_social}` }));
}

const refuseGroup = (): never => {
  throw invalid(BULK_MESSAGES.unknownGroup, { grupo: [BULK_MESSAGES.unknownGroup] });
};

/** The group named by a form or a stored job, as the actor may give it now; a 400 on `grupo` otherwise. */
async function resolveGroup(db: DB, actor: Actor, action: BulkAction, grupo: string): Promise<BulkGroup | undefined> {
  if (!BULK_ACTIONS[action].group) return undefined;
  if (actor.generation === 'v1') {
    const group = grantableGroups(actor, await legacyGroups(db)).find((g) => g.nome === grupo);
    return group ? { generation: 'v1', nome: group.nome } : refuseGroup();
  }
  if (!/^[1-9]\d{0,9}$/.test(grupo) || Number(grupo) > 2_000_000_000) return refuseGroup();
  const group = await db.selectFrom('v2_permission_groups').select(['id', 'company_id']).where('id', '=', Number(grupo)).executeTakeFirst();
  const companies = managedCompanies(actor);
  if (!group || (companies !== 'all' && !companies.includes(group.company_id))) return refuseGroup();
  return { generation: 'v2', id: group.id, companyId: group.company_id };
}

// ─── The selection and its preview ───────────────────────────────────────────────────────────────

/**
 * The users selected: the ids checked, or every one the filters match in the actor's scope (at most
 * BULK_LIMITS.filtered) — for the access review's action, every one the review lists (the longest
 * idle first, as many as that bound: the review has no filter to narrow).
 */
async function selectedIds(db: DB, actor: Actor, selection: BulkSelectionInput): Promise<number[]> {
  if (selection.alcance === 'selecionados') return [...new Set(selection.ids.map(Number))];
  if (isReviewAction(selection.acao)) return idleIds(db, actor, BULK_LIMITS.filtered);
  const { email, nome, empresa, status } = selection;
  const matching = usersInScope(db, actor, { email, nome, empresa, status });
  if (!matching) return [];
  const rows = await matching
    .select('u.id')
    .orderBy('u.id')
    .limit(BULK_LIMITS.filtered + 1)
    .execute();
  if (rows.length > BULK_LIMITS.filtered) throw invalid(BULK_MESSAGES.tooManyFiltered, { alcance: [BULK_MESSAGES.tooManyFiltered] });
  return rows.map((r) => r.id);
}

const targetOf = (user: UserRecord, idle: ReadonlySet<number> | undefined): BulkTarget => ({
  id: user.id,
  status: user.status,
  manageable: true,
  groups: user.groups,
  permissionGroupId: user.permissionGroupId,
  companyIds: user.companyIds,
  idle: idle?.has(user.id),
});
const OUTSIDE: Verdict = { change: false, reason: 'fora' };

/** Each user's verdict, with the record of those the actor manages (the others are "fora", whoever they are). */
async function judge(db: DB, actor: Actor, ids: readonly number[], action: BulkAction, group: BulkGroup | undefined) {
  const records = new Map((await manageableAmong(db, actor, ids)).map((u) => [u.id, u]));
  // The review's action asks who is idle now (and again, row locked, at each deactivation).
  const idle = isReviewAction(action) ? await idleAmong(db, actor, [...records.keys()]) : undefined;
  return ids.map((id) => {
    const record = records.get(id);
    return { id, record, verdict: record ? bulkVerdict(action, actor.userId, targetOf(record, idle), group) : OUTSIDE };
  });
}

export interface BulkPreview {
  action: BulkAction;
  actionLabel: string;
  groupLabel?: string;
  selection: string;
  counts: BulkCounts;
  /** The first users the action changes, by name, so the author sees whom it means. */
  sample: { nome: string; email: string }[];
}

const SAMPLE = 20;

async function groupLabelOf(db: DB, actor: Actor, group: BulkGroup | undefined): Promise<string | undefined> {
  if (!group) return undefined;
  if (group.generation === 'v1') return group.nome;
  return (await bulkGroupOptions(db, actor)).find((o) => o.value === String(group.id))?.label ?? `grupo ${group.id}`;
}

/** What the action would do to the selection now: how many change, how many are left alone and why. */
export async function previewBulk(db: DB, actor: Actor, selection: BulkSelectionInput): Promise<BulkPreview> {
  requireChange(actor);
  const group = await resolveGroup(db, actor, selection.acao, selection.grupo);
  const judged = await judge(db, actor, await selectedIds(db, actor, selection), selection.acao, group);
  const changing = judged.filter((j) => j.verdict.change && j.record);
  return {
    action: selection.acao,
    actionLabel: bulkActionLabel(selection.acao, actor.generation),
    groupLabel: await groupLabelOf(db, actor, group),
    selection: selectionText(selection),
    counts: countVerdicts(judged.map((j) => j.verdict)),
    sample: changing
      .map((j) => ({ nome: j.record!.nome, email: j.record!.email }))
      .sort((a, b) => a.nome.localeCompare(b.nome, 'pt-BR'))
      .slice(0, SAMPLE),
  };
}

// ─── Starting a job ──────────────────────────────────────────────────────────────────────────────

const bulkQueued = wakeLine();
/** Lets this process's job loop take a turn as soon as a job is queued (server/boot/jobs.ts). */
export const onBulkQueued = bulkQueued.listen;

/**
 * Queues the action for the users selected, judged again now (the preview may be minutes old): a
 * selection where nobody would change is refused. The job holds every user selected — those skipped
 * are reported as such — and the access log says who confirmed what for how many.
 */
export async function startBulk(db: DB, actor: Actor, selection: BulkSelectionInput, ip: string | null): Promise<number> {
  requireChange(actor);
  const group = await resolveGroup(db, actor, selection.acao, selection.grupo);
  const ids = await selectedIds(db, actor, selection);
  const counts = countVerdicts((await judge(db, actor, ids, selection.acao, group)).map((j) => j.verdict));
  if (counts.change === 0) throw invalid(BULK_MESSAGES.nothing, { form: [BULK_MESSAGES.nothing] });
  const id = await db.transaction().execute(async (trx) => {
    const job = await trx
      .insertInto('user_bulk_jobs')
      .values({
        actor_id: actor.userId,
        generation: actor.generation,
        acao: selection.acao,
        grupo: group ? selection.grupo : null,
        selecao: selectionText(selection),
        status: 'NA_FILA',
        total: ids.length,
        ip,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (let i = 0; i < ids.length; i += 1_000)
      await trx
        .insertInto('user_bulk_items')
        .values(ids.slice(i, i + 1_000).map((user_id) => ({ job_id: job.id, user_id })))
        .execute();
    const author = await trx.selectFrom('users').select('email').where('id', '=', actor.userId).executeTakeFirstOrThrow();
    await appendAccessEvent(trx, {
      event: 'USUARIOS_ACAO_EM_LOTE',
      generation: actor.generation,
      email: author.email,
      userId: actor.userId,
      actorId: actor.userId,
      ip,
      detalhe: `${bulkActionLabel(selection.acao, actor.generation)}${selection.grupo ? ` (${selection.grupo})` : ''}: ${counts.change} a alterar de ${counts.total}; ${selectionText(selection)}`,
      registroTipo: 'ACAO_EM_LOTE_USUARIOS',
      registro: String(job.id),
    });
    return job.id;
  });
  bulkQueued.wake();
  return id;
}

// ─── One user's change, through the single-user services ─────────────────────────────────────────

async function legacyCnpj(db: DB, user: UserRecord): Promise<string> {
  if (!user.companyId) return '';
  const own = user.empresas.find((e) => e.id === user.companyId)?.cnpj;
  if (own) return own;
  const row = await db.selectFrom('companies').select('cnpj').where('id', '=', user.companyId).executeTakeFirst();
  return row?.cnpj ?? '';
}

/** The user's form as it is, with the group given or taken: the edit screen's change, every check included. */
async function changeGroup(db: DB, actor: Actor, user: UserRecord, action: BulkAction, group: BulkGroup, ip: string | null) {
  const adding = action === 'incluir-grupo';
  if (actor.generation === 'v1' && group.generation === 'v1') {
    const grupos = adding ? [...user.groups, group.nome] : user.groups.filter((g) => g !== group.nome);
    const input = {
      nome: user.nome,
      email: user.email,
      cpf: user.cpf ?? '',
      empresa: await legacyCnpj(db, user),
      grupos,
      status: formStatusOf(user.status),
    };
    return updateLegacyUser(db, actor as V1Actor, user.id, input, ip);
  }
  if (group.generation !== 'v2') throw new Error('grupo de outra geração');
  return updateV2User(
    db,
    actor as V2Actor,
    user.id,
    {
      dados: { cpf: user.cpf ?? '', nome: user.nome, email: user.email, celular: user.celular ?? '', perfil: user.profile as Profile },
      vinculo: {
        empresas: user.empresas.map((e) => e.cnpj),
        pontoVenda: user.pointOfSaleId ? String(user.pointOfSaleId) : '',
        grupoPermissao: adding ? String(group.id) : '',
        operacoes: [...user.operations],
      },
    },
    ip,
  );
}

async function apply(db: DB, actor: Actor, action: BulkAction, user: UserRecord, group: BulkGroup | undefined, ip: string | null) {
  switch (action) {
    case 'ativar':
      return setUserStatus(db, actor, user.id, 'ativo', ip);
    case 'desativar':
      return setUserStatus(db, actor, user.id, 'inativo', ip);
    case 'reenviar-convite':
      return resendInvitation(db, actor, user.id, ip);
    case 'desativar-ociosos':
      return deactivateIfIdle(db, actor, user.id, ip);
    case 'incluir-grupo':
    case 'remover-grupo':
      return changeGroup(db, actor, user, action, group!, ip);
  }
}

const reasonOf = (error: DomainError) => {
  const fields: FieldErrors = error.fieldErrors ?? {};
  const messages = [...new Set(Object.values(fields).flat())];
  return messages.length > 0 ? messages.join(' ') : error.message;
};

// ─── The job ─────────────────────────────────────────────────────────────────────────────────────

/** A worker silent this long has died: its job is taken up again where it stopped. */
const STALE_CLAIM_MS = 60_000;
const yieldTurn = () => new Promise((resolve) => setImmediate(resolve));

interface Claimed {
  id: number;
  actor_id: number;
  acao: string;
  grupo: string | null;
  ip: string | null;
}

/** Claims the job waiting longest for a turn, unless another worker holds it (and is alive). */
async function claimTurn(db: DB): Promise<Claimed | undefined> {
  return db.transaction().execute(async (trx) => {
    const next = await trx
      .selectFrom('user_bulk_jobs')
      .select(['id', 'actor_id', 'acao', 'grupo', 'ip'])
      .where('status', 'in', ['NA_FILA', 'PROCESSANDO'])
      .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', new Date(now().getTime() - STALE_CLAIM_MS))]))
      .orderBy('turn_at', (ob) => ob.asc().nullsFirst())
      .orderBy('id')
      .limit(1)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (next) await trx.updateTable('user_bulk_jobs').set({ status: 'PROCESSANDO', claimed_at: now() }).where('id', '=', next.id).execute();
    return next;
  });
}

/** One user's result, and the job's heartbeat. */
async function record(db: DB, jobId: number, userId: number, result: BulkResult, reason: string | null): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable('user_bulk_items')
      .set({ result, reason })
      .where('job_id', '=', jobId)
      .where('user_id', '=', userId)
      .where('result', 'is', null)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) > 0)
      await trx.updateTable('user_bulk_jobs').set({ processed: sql`processed + 1`, claimed_at: now() }).where('id', '=', jobId).execute();
  });
}

const finish = (db: DB, id: number, status: 'CONCLUIDO' | 'ERRO', error: string | null = null) =>
  db
    .updateTable('user_bulk_jobs')
    .set({ status, error, finished_at: now(), claimed_at: null, turn_at: now() })
    .where('id', '=', id)
    .execute();

/** A turn: one batch of the job's users, each judged as they are now and changed on their own. */
async function runTurn(db: DB, job: Claimed): Promise<void> {
  // The author as they are now: one blocked or demoted meanwhile stops with the rights they lost.
  const actor = await authorOf(db, job.actor_id);
  const action = job.acao as BulkAction;
  const group = await resolveGroup(db, actor, action, job.grupo ?? '');
  const pending = await db
    .selectFrom('user_bulk_items')
    .select('user_id')
    .where('job_id', '=', job.id)
    .where('result', 'is', null)
    .orderBy('user_id')
    .limit(BULK_LIMITS.batch)
    .execute();
  for (const { id, record: user, verdict } of await judge(
    db,
    actor,
    pending.map((p) => p.user_id),
    action,
    group,
  )) {
    if (!verdict.change || !user) {
      await record(db, job.id, id, 'ignorado', verdict.change ? 'fora' : verdict.reason);
      continue;
    }
    try {
      await apply(db, actor, action, user, group, job.ip);
      await record(db, job.id, id, 'alterado', null);
    } catch (error) {
      if (!(error instanceof DomainError)) logError('acao-em-lote-falha', { lote: job.id, usuario: id, erro: errorMessage(error) });
      // The user's transaction rolled back whole: they are as they were, and the summary says why.
      await record(db, job.id, id, 'recusado', error instanceof DomainError ? reasonOf(error) : 'Não foi possível alterar este usuário.');
    }
  }
  if (pending.length < BULK_LIMITS.batch) await finish(db, job.id, 'CONCLUIDO');
  else await db.updateTable('user_bulk_jobs').set({ claimed_at: null, turn_at: now() }).where('id', '=', job.id).execute();
}

/** The job (server/boot/jobs.ts): turns until no job waits; answers how many turns it took. */
export async function processBulkJobs(db: DB): Promise<number> {
  let turns = 0;
  for (let job = await claimTurn(db); job; job = await claimTurn(db)) {
    turns += 1;
    try {
      await runTurn(db, job);
    } catch (error) {
      const message =
        error instanceof DomainError
          ? reasonOf(error)
          : 'Falha inesperada: os usuários já alterados ficam como estão; peça de novo a ação para os demais.';
      if (!(error instanceof DomainError)) logError('acao-em-lote-falha', { lote: job.id, erro: errorMessage(error) });
      await finish(db, job.id, 'ERRO', message);
    }
    await yieldTurn(); // other requests' turn
  }
  return turns;
}

// ─── The job as its page shows it ────────────────────────────────────────────────────────────────

export interface BulkJobSummary {
  id: number;
  generation: 'v1' | 'v2';
  action: BulkAction;
  actionLabel: string;
  grupo: string | null;
  selection: string;
  status: BulkJobStatus;
  total: number;
  processed: number;
  error: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  results: Record<BulkResult, number>;
  /** The users left alone, by reason (those outside the actor's administration counted, never named). */
  skipped: { reason: SkipReason; count: number }[];
}

/** The actor's own job `id` (anyone else's is undefined: the 404). */
export async function bulkJobOf(db: DB, actor: Actor, id: number): Promise<BulkJobSummary | undefined> {
  const job = await db
    .selectFrom('user_bulk_jobs')
    .selectAll()
    .where('id', '=', id)
    .where('actor_id', '=', actor.userId)
    .where('generation', '=', actor.generation)
    .executeTakeFirst();
  if (!job) return undefined;
  const counts = await db
    .selectFrom('user_bulk_items')
    .select(['result', sql<string | null>`case when result = 'ignorado' then reason end`.as('skip'), sql<number>`count(*)::int`.as('n')])
    .where('job_id', '=', id)
    .where('result', 'is not', null)
    .groupBy(['result', sql`2`])
    .execute();
  const results: Record<BulkResult, number> = { alterado: 0, ignorado: 0, recusado: 0 };
  for (const c of counts) if (c.result) results[c.result] += c.n;
  return {
    id: job.id,
    generation: job.generation,
    action: job.acao as BulkAction,
    actionLabel: bulkActionLabel(job.acao as BulkAction, job.generation),
    grupo: job.grupo,
    selection: job.selecao,
    status: job.status,
    total: job.total,
    processed: job.processed,
    error: job.error,
    createdAt: job.created_at,
    finishedAt: job.finished_at,
    results,
    skipped: counts
      .filter((c) => c.skip)
      .map((c) => ({ reason: c.skip as SkipReason, count: c.n }))
      .sort((a, b) => b.count - a.count),
  };
}

/** The users a job refused or left alone, with why — never those outside the actor's administration. */
export async function bulkJobProblems(db: DB, jobId: number, limit = 100) {
  return db
    .selectFrom('user_bulk_items as i')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .select(['u.nome', 'u.email', 'i.result', 'i.reason'])
    .where('i.job_id', '=', jobId)
    .where('i.result', 'in', ['ignorado', 'recusado'])
    .where('i.reason', '!=', 'fora')
    .orderBy('i.result', 'desc')
    .orderBy('u.nome')
    .limit(limit)
    .execute();
}
