/*
 * Undoing an import (issue 32, decision 071), pure: the state of an account an import may set, how
 * two states differ, the day an import may be undone in, and what the pages and the log say.
 */

/** How long after an import ends its author may undo it. */
export const IMPORT_UNDO_HOURS = 24;

export const undoDeadline = (finishedAt: Date): Date => new Date(finishedAt.getTime() + IMPORT_UNDO_HOURS * 3_600_000);

/** What an import may set on an account: the user's columns and its links, the links as sorted arrays. */
export interface AccountState {
  nome: string;
  email: string;
  cpf: string | null;
  celular: string | null;
  profile: 'admin' | 'parceiro_admin' | 'parceiro' | 'substabelecido' | null;
  status: 'ATIVO' | 'PENDENTE' | 'INATIVO' | 'BLOQUEADO';
  company_id: number | null;
  point_of_sale_id: number | null;
  permission_group_id: number | null;
  groups: number[];
  companies: number[];
  operations: string[];
}
export type AccountField = keyof AccountState;

/** Each field by the name the preview gives it. */
export const ACCOUNT_FIELD_LABELS: Record<AccountField, string> = {
  nome: 'nome',
  email: 'e-mail',
  cpf: 'CPF',
  celular: 'celular',
  profile: 'perfil',
  status: 'situação',
  company_id: 'empresa',
  point_of_sale_id: 'ponto de venda',
  permission_group_id: 'grupo de permissões',
  groups: 'grupos de acesso',
  companies: 'empresas',
  operations: 'permissões',
};
const FIELDS = Object.keys(ACCOUNT_FIELD_LABELS) as AccountField[];

/** The fields whose values differ (arrays compared element by element, in their sorted order). */
export function differingFields(a: AccountState, b: AccountState): AccountField[] {
  return FIELDS.filter((f) => JSON.stringify(a[f] ?? null) !== JSON.stringify(b[f] ?? null));
}

/** What the undo does to one account. */
export type UndoAction = 'desativar' | 'restaurar' | 'manter';

export const UNDO_ACTION_LABELS: Record<UndoAction, string> = {
  desativar: 'Será desativado',
  restaurar: 'Volta aos dados anteriores',
  manter: 'Fica como está',
};
export const UNDONE_ACTION_LABELS: Record<UndoAction, string> = {
  desativar: 'Desativado',
  restaurar: 'Dados anteriores restaurados',
  manter: 'Mantido como estava',
};

const list = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} e ${items[items.length - 1]}`;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const UNDO_ACTIONS: readonly UndoAction[] = ['desativar', 'restaurar', 'manter'];
/** The parts of a count that say something: a kind the undo does to nobody is left out, not shown as a 0 (issue 42). */
const said = (counts: Record<UndoAction, number>, words: Record<UndoAction, [one: string, many: string]>) =>
  UNDO_ACTIONS.filter((a) => counts[a] > 0).map((a) => plural(counts[a], ...words[a]));

/** The preview's lines (the count apart, the page makes it strong): only what the undo does to somebody. */
export function undoPreviewLines(counts: Record<UndoAction, number>): { action: UndoAction; count: number; text: string }[] {
  const words: Record<UndoAction, [one: string, many: string]> = {
    desativar: ['usuário criado será desativado', 'usuários criados serão desativados'],
    restaurar: ['usuário atualizado volta aos dados anteriores', 'usuários atualizados voltam aos dados anteriores'],
    manter: ['usuário fica como está (veja o motivo)', 'usuários ficam como estão (veja o motivo)'],
  };
  return UNDO_ACTIONS.filter((action) => counts[action] > 0).map((action) => ({
    action,
    count: counts[action],
    text: words[action][counts[action] === 1 ? 0 : 1],
  }));
}

export const UNDO_MESSAGES = {
  alreadyUndone: (when: string, by: string | null) => `Esta importação já foi desfeita em ${when}${by ? ` por ${by}` : ''}.`,
  tooLate: (deadline: string, hours: number) =>
    `O prazo para desfazer esta importação terminou em ${deadline}: uma importação só pode ser desfeita nas ${hours} horas seguintes à sua conclusão.`,
  notFinished: 'Esta importação ainda não terminou: só uma importação concluída pode ser desfeita.',
  nothing: 'Esta importação não criou nem alterou nenhum usuário: não há o que desfazer.',
  notManaged: 'Este usuário não está mais entre os que você administra.',
  alreadyOff: (status: 'INATIVO' | 'BLOQUEADO') => (status === 'INATIVO' ? 'Já está inativo.' : 'Está bloqueado.'),
  changedSince: (fields: readonly string[], by?: { nome: string | null; at: string }) =>
    `Alterado depois da importação (${list(fields)})${by ? `${by.nome ? ` por ${by.nome}` : ''} em ${by.at}` : ''}: desfazer apagaria essa alteração.`,
  logDetail: (counts: Record<UndoAction, number>) =>
    said(counts, {
      desativar: ['criado desativado', 'criados desativados'],
      restaurar: ['atualizado restaurado', 'atualizados restaurados'],
      manter: ['mantido como estava', 'mantidos como estavam'],
    }).join('; '),
  userDetail: (importId: number, fields: readonly string[]) =>
    `importação ${importId} desfeita${fields.length > 0 ? `; campos: ${fields.join(', ')}` : ''}`,
  done: (when: string, by: string | null, counts: Record<UndoAction, number>) =>
    `Importação desfeita em ${when}${by ? ` por ${by}` : ''}: ${list(
      said(counts, {
        desativar: ['usuário desativado', 'usuários desativados'],
        restaurar: ['usuário restaurado', 'usuários restaurados'],
        manter: ['usuário mantido como estava', 'usuários mantidos como estavam'],
      }),
    )}.`,
} as const;
