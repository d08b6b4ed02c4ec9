import * as z from 'zod/mini';
import { formText, list, USER_FILTER_FIELDS, type UserStatusCode } from './user-admin';
import { IDLE_DAYS } from './access-reviews';

/*
 * Bulk actions on the users lists (issue 32, decision 070): what each action does to a user, why a
 * user selected is left alone, and the preview's counts — pure, so the preview, the job that runs the
 * action and the tests all ask the same rules. Who may change whom and what a group gives stay the
 * single-user rules (lib/user-admin.ts): a user the actor may not manage is "fora" before anything
 * here is asked, and the job changes each user through the single-user services.
 */

const REVIEW_LABEL = `Desativar quem segue sem entrar há ${IDLE_DAYS} dias (revisão de acessos)`;

/**
 * `review`: the access review's action (decision 076) — offered by the review, not the users lists;
 * "todos" means every user the review lists (not the list's filters), and each user is deactivated
 * only if still idle at that moment.
 */
export const BULK_ACTIONS = {
  ativar: { v1: 'Reativar', v2: 'Reativar', group: false, status: true, review: false },
  desativar: { v1: 'Desativar', v2: 'Desativar', group: false, status: true, review: false },
  'incluir-grupo': { v1: 'Incluir no grupo de acesso', v2: 'Atribuir o grupo de permissões', group: true, status: false, review: false },
  'remover-grupo': { v1: 'Retirar do grupo de acesso', v2: 'Retirar o grupo de permissões', group: true, status: false, review: false },
  'reenviar-convite': {
    v1: 'Reenviar o convite (1º acesso)',
    v2: 'Reenviar o convite (1º acesso)',
    group: false,
    status: false,
    review: false,
  },
  'desativar-ociosos': { v1: REVIEW_LABEL, v2: REVIEW_LABEL, group: false, status: true, review: true },
} as const;
export type BulkAction = keyof typeof BULK_ACTIONS;
export const BULK_ACTION_CODES = Object.keys(BULK_ACTIONS) as BulkAction[];
/** The actions the users lists offer (the review's is the review's). */
export const LIST_ACTION_CODES = BULK_ACTION_CODES.filter((action) => !BULK_ACTIONS[action].review);
export const REVIEW_ACTION: BulkAction = 'desativar-ociosos';
/** Whether an action (as posted: any text) is the review's. */
export const isReviewAction = (action: string): boolean => Object.hasOwn(BULK_ACTIONS, action) && BULK_ACTIONS[action as BulkAction].review;
export const bulkActionLabel = (action: BulkAction, generation: 'v1' | 'v2') => BULK_ACTIONS[action][generation];

/** Why a selected user is left alone; the preview counts each, the summary names them. */
export const SKIP_REASONS = {
  fora: 'fora da sua administração',
  proprio: 'o seu próprio usuário (a sua situação não muda por aqui)',
  'ja-ativo': 'já ativo ou aguardando o primeiro acesso',
  'ja-inativo': 'já inativo',
  'ja-no-grupo': 'já no grupo',
  'fora-do-grupo': 'não está no grupo',
  'ultimo-grupo': 'ficaria sem nenhum grupo de acesso',
  'empresa-do-grupo': 'não está vinculado à empresa do grupo',
  'nao-pendente': 'sem convite pendente (o primeiro acesso já foi feito, ou o usuário está inativo ou bloqueado)',
  'nao-ocioso': `entrou no portal nos últimos ${IDLE_DAYS} dias, ou já não está ativo`,
} as const;
export type SkipReason = keyof typeof SKIP_REASONS;
export const skipLabel = (reason: string) => SKIP_REASONS[reason as SkipReason] ?? reason;

/** A selected user as the verdict judges them (the service reads it; `manageable` is the single-user rule's). */
export interface BulkTarget {
  id: number;
  status: UserStatusCode;
  manageable: boolean;
  /** v1: the access groups' names. */
  groups: readonly string[];
  /** v2: the one permission group, and the companies the user is linked to. */
  permissionGroupId: number | null;
  companyIds: readonly number[];
  /** The review's action: still idle (no sign-in for IDLE_DAYS, active or pending) when judged. */
  idle?: boolean;
}

/** The group an action names: the legacy group's name, or the v2 permission group with its company. */
export type BulkGroup = { generation: 'v1'; nome: string } | { generation: 'v2'; id: number; companyId: number };

export type Verdict = { change: true } | { change: false; reason: SkipReason };

const skip = (reason: SkipReason): Verdict => ({ change: false, reason });
const CHANGE: Verdict = { change: true };

/**
 * What the action does to one user: change them, or leave them alone and why. The first reason that
 * holds wins (outside the actor's administration before anything else: such a user is never touched).
 */
export function bulkVerdict(action: BulkAction, actorId: number, target: BulkTarget, group?: BulkGroup): Verdict {
  if (!target.manageable) return skip('fora');
  if (BULK_ACTIONS[action].status && target.id === actorId) return skip('proprio');
  switch (action) {
    case 'ativar':
      return target.status === 'INATIVO' || target.status === 'BLOQUEADO' ? CHANGE : skip('ja-ativo');
    case 'desativar':
      return target.status === 'INATIVO' ? skip('ja-inativo') : CHANGE;
    case 'reenviar-convite':
      return target.status === 'PENDENTE' ? CHANGE : skip('nao-pendente');
    case 'desativar-ociosos':
      return target.idle ? CHANGE : skip('nao-ocioso');
    case 'incluir-grupo':
      if (!group) throw new Error('incluir-grupo sem grupo');
      if (group.generation === 'v1') return target.groups.includes(group.nome) ? skip('ja-no-grupo') : CHANGE;
      if (target.permissionGroupId === group.id) return skip('ja-no-grupo');
      return target.companyIds.includes(group.companyId) ? CHANGE : skip('empresa-do-grupo');
    case 'remover-grupo':
      if (!group) throw new Error('remover-grupo sem grupo');
      if (group.generation === 'v2') return target.permissionGroupId === group.id ? CHANGE : skip('fora-do-grupo');
      if (!target.groups.includes(group.nome)) return skip('fora-do-grupo');
      // A legacy user without a group could do nothing but sign in (issue 27): the form refuses it too.
      return target.groups.length === 1 ? skip('ultimo-grupo') : CHANGE;
  }
}

export interface BulkCounts {
  total: number;
  change: number;
  /** Each reason with its count, the most frequent first. */
  skipped: { reason: SkipReason; label: string; count: number }[];
}

/** The preview's counts: how many change, and how many are left alone for each reason. */
export function countVerdicts(verdicts: readonly Verdict[]): BulkCounts {
  const byReason = new Map<SkipReason, number>();
  let change = 0;
  for (const v of verdicts) {
    if (v.change) change += 1;
    else byReason.set(v.reason, (byReason.get(v.reason) ?? 0) + 1);
  }
  const skipped = [...byReason]
    .map(([reason, count]) => ({ reason, label: SKIP_REASONS[reason], count }))
    .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
  return { total: verdicts.length, change, skipped };
}

// ─── Limits, the form and the API body ───────────────────────────────────────────────────────────

export const BULK_LIMITS = {
  /**
   * "All matching the filter": more than this asks for a narrower filter (the preview reads each one).
   * The review's "todos", which has no filter, takes this many, the longest idle first.
   */
  filtered: 5_000,
  /** Rows checked on a page (the largest page is 100) or ids an API client sends. */
  ids: 1_000,
  /** Users a job's turn does before giving the turn to the next job (decision 070). */
  batch: 10,
  /** Rows of an XLSX export (write-excel-file builds the workbook whole); the CSV streams any number. */
  xlsxRows: 20_000,
} as const;

export const BULK_MESSAGES = {
  action: 'Escolha a ação.',
  group: 'Escolha o grupo.',
  unknownGroup: 'Grupo não encontrado entre os que você pode atribuir.',
  none: 'Selecione ao menos um usuário, ou todos os do filtro.',
  tooManyIds: `No máximo ${BULK_LIMITS.ids.toLocaleString('pt-BR')} usuários selecionados de uma vez.`,
  tooManyFiltered: `O filtro seleciona mais de ${BULK_LIMITS.filtered.toLocaleString('pt-BR')} usuários: refine os filtros e tente de novo.`,
  scope: 'Escolha os selecionados ou todos os do filtro.',
  nothing: 'Nenhum dos usuários selecionados seria alterado: nada a fazer.',
} as const;

const idText = z.pipe(formText(12, BULK_MESSAGES.none), z.string().check(z.regex(/^[1-9]\d{0,9}$/, BULK_MESSAGES.none)));

/**
 * The bulk form and the API's body: the action, its group when it names one, and the selection — the
 * rows checked (`ids`) or every user the filters match (`alcance=todos`). The filters are the list's.
 */
export const bulkSelectionSchema = z
  .object({
    acao: z.pipe(
      formText(30, BULK_MESSAGES.action),
      z.pipe(
        z.transform((v: string) => v.trim().toLowerCase()),
        z.enum(BULK_ACTION_CODES as [BulkAction, ...BulkAction[]], { error: BULK_MESSAGES.action }),
      ),
    ),
    grupo: z.pipe(
      formText(60, BULK_MESSAGES.group),
      z.transform((v: string) => v.trim()),
    ),
    alcance: z.pipe(
      formText(20, BULK_MESSAGES.scope),
      z.pipe(
        z.transform((v: string) => v.trim() || 'selecionados'),
        z.enum(['selecionados', 'todos'], { error: BULK_MESSAGES.scope }),
      ),
    ),
    ids: list(idText, BULK_LIMITS.ids, BULK_MESSAGES.tooManyIds),
    ...Object.fromEntries(
      USER_FILTER_FIELDS.map((field) => [
        field,
        z.pipe(
          formText(254, 'Filtro inválido.'),
          z.transform((v: string) => v.trim()),
        ),
      ]),
    ),
  })
  .check(
    z.superRefine((value, ctx) => {
      if (BULK_ACTIONS[value.acao].group && !value.grupo) ctx.addIssue({ code: 'custom', path: ['grupo'], message: BULK_MESSAGES.group });
      if (value.alcance === 'selecionados' && value.ids.length === 0)
        ctx.addIssue({ code: 'custom', path: ['ids'], message: BULK_MESSAGES.none });
    }),
  );
export type BulkSelectionInput = z.output<typeof bulkSelectionSchema> & Record<(typeof USER_FILTER_FIELDS)[number], string>;

/** What the form's hidden fields carry from the preview to the confirmation (the same selection). */
export function selectionFields(input: BulkSelectionInput): [string, string][] {
  const fields: [string, string][] = [
    ['acao', input.acao],
    ['grupo', input.grupo],
    ['alcance', input.alcance],
  ];
  // The review's "todos" is the review's list, whatever filters came with it.
  if (!isReviewAction(input.acao)) for (const field of USER_FILTER_FIELDS) if (input[field]) fields.push([field, input[field]]);
  if (input.alcance === 'selecionados') for (const id of input.ids) fields.push(['ids', id]);
  return fields;
}

/** How the summary names a selection: the filters the author used, or "N selecionados". */
export function selectionText(input: BulkSelectionInput): string {
  if (input.alcance === 'selecionados') return `${input.ids.length} selecionado${input.ids.length === 1 ? '' : 's'} na lista`;
  if (isReviewAction(input.acao)) return `todos da revisão de acessos (sem entrar há ${IDLE_DAYS} dias ou mais)`;
  const used = USER_FILTER_FIELDS.filter((f) => input[f]).map((f) => `${f}: ${input[f]}`);
  return used.length > 0 ? `todos do filtro (${used.join('; ')})` : 'todos os usuários';
}

// ─── The job as its page shows it ────────────────────────────────────────────────────────────────

export const BULK_JOB_STATUS = {
  NA_FILA: 'Na fila',
  PROCESSANDO: 'Em andamento',
  CONCLUIDO: 'Concluída',
  ERRO: 'Interrompida',
} as const;
export type BulkJobStatus = keyof typeof BULK_JOB_STATUS;
export const isRunning = (status: BulkJobStatus) => status === 'NA_FILA' || status === 'PROCESSANDO';

export const BULK_RESULTS = { alterado: 'Alterados', ignorado: 'Deixados como estavam', recusado: 'Recusados' } as const;
export type BulkResult = keyof typeof BULK_RESULTS;

/** The pages of each generation's list: the preview (POST) and the job's progress. */
export const BULK_PATHS = {
  v1: { list: '/consulta-usuarios', lote: '/consulta-usuarios/lote', exportar: '/consulta-usuarios/exportar' },
  v2: { list: '/v2/usuario/cadastro/consulta', lote: '/v2/usuario/cadastro/lote', exportar: '/v2/usuario/cadastro/exportar' },
} as const;
export const bulkJobPath = (generation: 'v1' | 'v2', id: number) => `${BULK_PATHS[generation].lote}/${id}`;
