import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  bulkSelectionSchema,
  bulkVerdict,
  countVerdicts,
  isReviewAction,
  LIST_ACTION_CODES,
  selectionFields,
  selectionText,
  type BulkAction,
  type BulkGroup,
  type BulkSelectionInput,
  type BulkTarget,
} from './user-bulk';

/** The preview's counting rules (issue 32, decision 070), as a table: each action, each kind of user. */
const user = (over: Partial<BulkTarget> = {}): BulkTarget => ({
  id: 10,
  status: 'ATIVO',
  manageable: true,
  groups: ['VENDEDOR'],
  permissionGroupId: null,
  companyIds: [1],
  ...over,
});
const ACTOR = 1;
const legacy: BulkGroup = { generation: 'v1', nome: 'CONSULTOR' };
const v2group: BulkGroup = { generation: 'v2', id: 7, companyId: 1 };

describe('bulkVerdict', () => {
  const cases: [string, BulkAction, BulkTarget, BulkGroup | undefined, string][] = [
    ['outside the administration, whatever the action', 'desativar', user({ manageable: false }), undefined, 'fora'],
    ['outside, even when already inactive', 'desativar', user({ manageable: false, status: 'INATIVO' }), undefined, 'fora'],
    ['oneself, for a status', 'desativar', user({ id: ACTOR }), undefined, 'proprio'],
    ['an active user is deactivated', 'desativar', user(), undefined, 'change'],
    ['a blocked user is deactivated', 'desativar', user({ status: 'BLOQUEADO' }), undefined, 'change'],
    ['a pending user is deactivated', 'desativar', user({ status: 'PENDENTE' }), undefined, 'change'],
    ['an inactive one is left', 'desativar', user({ status: 'INATIVO' }), undefined, 'ja-inativo'],
    ['an inactive user is reactivated', 'ativar', user({ status: 'INATIVO' }), undefined, 'change'],
    ['a blocked user is reactivated', 'ativar', user({ status: 'BLOQUEADO' }), undefined, 'change'],
    ['an active one is left', 'ativar', user(), undefined, 'ja-ativo'],
    ['a pending one is left', 'ativar', user({ status: 'PENDENTE' }), undefined, 'ja-ativo'],
    ['a pending user is re-invited', 'reenviar-convite', user({ status: 'PENDENTE' }), undefined, 'change'],
    ['an active one is not', 'reenviar-convite', user(), undefined, 'nao-pendente'],
    ['oneself may be given a group', 'incluir-grupo', user({ id: ACTOR }), legacy, 'change'],
    ['a legacy group is added', 'incluir-grupo', user(), legacy, 'change'],
    ['not twice', 'incluir-grupo', user({ groups: ['CONSULTOR'] }), legacy, 'ja-no-grupo'],
    ['a legacy group is taken', 'remover-grupo', user({ groups: ['CONSULTOR', 'VENDEDOR'] }), legacy, 'change'],
    ['not from who lacks it', 'remover-grupo', user(), legacy, 'fora-do-grupo'],
    ['nor the last one', 'remover-grupo', user({ groups: ['CONSULTOR'] }), legacy, 'ultimo-grupo'],
    ['a v2 group of the user’s company is given', 'incluir-grupo', user(), v2group, 'change'],
    ['not one of another company', 'incluir-grupo', user({ companyIds: [2] }), v2group, 'empresa-do-grupo'],
    ['not twice (v2)', 'incluir-grupo', user({ permissionGroupId: 7 }), v2group, 'ja-no-grupo'],
    ['a v2 group is taken', 'remover-grupo', user({ permissionGroupId: 7 }), v2group, 'change'],
    ['not from who holds another', 'remover-grupo', user({ permissionGroupId: 8 }), v2group, 'fora-do-grupo'],
    // The access review's "todos" (decision 076): only who is still idle when judged.
    ['the review deactivates who is still idle', 'desativar-ociosos', user({ idle: true }), undefined, 'change'],
    ['a pending idle user too', 'desativar-ociosos', user({ idle: true, status: 'PENDENTE' }), undefined, 'change'],
    ['not who signed in since', 'desativar-ociosos', user({ idle: false }), undefined, 'nao-ocioso'],
    ['nor one never judged idle', 'desativar-ociosos', user(), undefined, 'nao-ocioso'],
    ['outside the administration first', 'desativar-ociosos', user({ idle: true, manageable: false }), undefined, 'fora'],
    ['never oneself', 'desativar-ociosos', user({ idle: true, id: ACTOR }), undefined, 'proprio'],
  ];
  it.each(cases)('%s', (_, action, target, group, expected) => {
    const verdict = bulkVerdict(action, ACTOR, target, group);
    expect(verdict.change ? 'change' : verdict.reason).toBe(expected);
  });
});

describe('countVerdicts', () => {
  it('counts the changes and each reason, the most frequent first', () => {
    const counts = countVerdicts([
      { change: true },
      { change: false, reason: 'fora' },
      { change: false, reason: 'ja-inativo' },
      { change: true },
      { change: false, reason: 'ja-inativo' },
    ]);
    expect(counts).toEqual({
      total: 5,
      change: 2,
      skipped: [
        { reason: 'ja-inativo', label: 'já inativo', count: 2 },
        { reason: 'fora', label: 'fora da sua administração', count: 1 },
      ],
    });
    expect(countVerdicts([])).toEqual({ total: 0, change: 0, skipped: [] });
  });
});

describe('bulkSelectionSchema', () => {
  const parse = (value: unknown) => z.safeParse(bulkSelectionSchema, value);
  it('reads a form: one id or several, the scope defaulting to the checked rows', () => {
    expect(parse({ acao: 'desativar', ids: '12' }).data).toMatchObject({ acao: 'desativar', alcance: 'selecionados', ids: ['12'] });
    expect(parse({ acao: 'DESATIVAR', alcance: 'todos', nome: ' Ana ' }).data).toMatchObject({ alcance: 'todos', ids: [], nome: 'Ana' });
  });
  it('says what is missing, by field', () => {
    const paths = (value: unknown) => parse(value).error?.issues.map((i) => i.path[0]);
    expect(paths({ acao: 'explodir', ids: ['1'] })).toEqual(['acao']);
    expect(paths({ acao: 'incluir-grupo', ids: ['1'] })).toEqual(['grupo']);
    expect(paths({ acao: 'desativar' })).toEqual(['ids']);
    expect(paths({ acao: 'desativar', ids: ['0'] })).toEqual(['ids']);
    expect(paths({ acao: 'desativar', alcance: 'tudo', ids: ['1'] })).toEqual(['alcance']);
    expect(paths({ acao: 'desativar', ids: Array.from({ length: 1001 }, (_, i) => String(i + 1)) })).toEqual(['ids']);
  });
});

describe('the access review’s selection (decision 076)', () => {
  const parse = (value: unknown) => z.safeParse(bulkSelectionSchema, value).data as BulkSelectionInput;
  it('is not offered on the users lists', () => {
    expect(LIST_ACTION_CODES).not.toContain('desativar-ociosos');
    expect(LIST_ACTION_CODES).toContain('desativar');
  });
  it('is told from any text a form may post', () => {
    expect(isReviewAction('desativar-ociosos')).toBe(true);
    for (const text of ['desativar', 'explodir', '', '__proto__', 'constructor', 'toString']) expect(isReviewAction(text)).toBe(false);
  });
  it('says "todos" is the review’s list, and carries no filter to the confirmation', () => {
    const all = parse({ acao: 'desativar-ociosos', alcance: 'todos', nome: 'Ana' });
    expect(selectionText(all)).toBe('todos da revisão de acessos (sem entrar há 90 dias ou mais)');
    expect(selectionFields(all)).toEqual([
      ['acao', 'desativar-ociosos'],
      ['grupo', ''],
      ['alcance', 'todos'],
    ]);
    expect(selectionText(parse({ acao: 'desativar-ociosos', ids: ['3', '4'] }))).toBe('2 selecionados na lista');
  });
});
