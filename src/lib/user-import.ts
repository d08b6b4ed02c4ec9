import * as z from 'zod/mini';
import {
  formErrors,
  legacyUserSchema,
  linkSchema,
  personalDataSchema,
  type FieldErrors,
  type FormStatus,
  type LegacyUserInput,
  type LinkData,
  type PersonalData,
} from './user-admin';
import { IMPORT_COLUMNS, IMPORT_MESSAGES, type ImportGeneration } from './user-import-format';
import { cpfCheckDigits, formatCpf } from './validators';

/*
 * Bulk user import (issue 16, decision 048), pure: each row read into the same schemas the forms
 * use — so a row is refused for what a form would refuse, with the message the form shows, by line
 * and column. The file's format (columns, limits, encoding, delimiter, header) is
 * lib/user-import-format.ts, which the browser's preview shares.
 */

export * from './user-import-format';

/** A cell a spreadsheet would run as a formula. */
export const isFormula = (value: string) => /^[=+\-@\t\r]/.test(value);

const cell = (row: readonly string[], index: Map<string, number>, name: string) => {
  const i = index.get(name);
  return i === undefined ? '' : (row[i] ?? '').trim();
};
const listOf = (value: string) =>
  value
    .split('|')
    .map((v) => v.trim())
    .filter(Boolean);

/** A problem of a row: its line in the file (the header is line 1), the column and the message. */
export interface RowProblem {
  line: number;
  column: string;
  message: string;
}

export interface LegacyImportRow {
  generation: 'v1';
  line: number;
  input: LegacyUserInput;
  /** The situacao cell was blank: a new user is active, one who exists keeps their status. */
  keepStatus?: boolean;
}
export interface V2ImportRow {
  generation: 'v2';
  line: number;
  dados: PersonalData;
  vinculo: Omit<LinkData, 'pontoVenda' | 'grupoPermissao'>;
  /** Named in the file; the service resolves them in the companies given. */
  pontoVenda: string;
  grupoPermissao: string;
  status: FormStatus;
  /** As in LegacyImportRow. */
  keepStatus?: boolean;
}
export type ImportRow = LegacyImportRow | V2ImportRow;

/** The form field a schema names → the file's column. */
const COLUMN_OF_FIELD: Record<string, string> = { status: 'situacao', empresas: 'empresas', operacoes: 'operacoes', grupos: 'grupos' };
const problemsOf = (line: number, errors: FieldErrors): RowProblem[] =>
  Object.entries(errors).flatMap(([field, messages]) =>
    messages.map((message) => ({ line, column: COLUMN_OF_FIELD[field] ?? field, message })),
  );

/** Reads one data row (`line` as the file counts it) into the forms' inputs, or its problems. */
export function readRow(
  generation: ImportGeneration,
  row: readonly string[],
  index: Map<string, number>,
  line: number,
): { row: ImportRow; problems: [] } | { row?: undefined; problems: RowProblem[] } {
  const formulas = IMPORT_COLUMNS[generation]
    .filter((c) => isFormula(cell(row, index, c.name)))
    .map((c) => ({ line, column: c.name, message: IMPORT_MESSAGES.formula }));
  if (formulas.length > 0) return { problems: formulas };
  const get = (name: string) => cell(row, index, name);
  const keepStatus = get('situacao') === '';
  const status = keepStatus ? 'ativo' : get('situacao');
  if (generation === 'v1') {
    const parsed = z.safeParse(legacyUserSchema, {
      nome: get('nome'),
      email: get('email'),
      cpf: get('cpf'),
      empresa: get('empresa'),
      grupos: listOf(get('grupos')),
      status,
    });
    return parsed.success
      ? { row: { generation, line, input: parsed.data, keepStatus }, problems: [] }
      : { problems: problemsOf(line, formErrors(parsed.error.issues)) };
  }
  const dados = z.safeParse(personalDataSchema, {
    nome: get('nome'),
    email: get('email'),
    cpf: get('cpf'),
    celular: get('celular'),
    perfil: get('perfil'),
  });
  const vinculo = z.safeParse(linkSchema, { empresas: listOf(get('empresas')), pontoVenda: '', operacoes: listOf(get('operacoes')) });
  const situacao = z.safeParse(legacyUserSchema.shape.status, status);
  const errors: FieldErrors = {
    ...(dados.success ? {} : formErrors(dados.error.issues)),
    ...(vinculo.success ? {} : formErrors(vinculo.error.issues)),
    ...(situacao.success ? {} : { status: situacao.error.issues.map((i) => i.message) }),
  };
  if (!dados.success || !vinculo.success || !situacao.success) return { problems: problemsOf(line, errors) };
  const { pontoVenda: _, grupoPermissao: __, ...links } = vinculo.data;
  return {
    row: {
      generation,
      line,
      dados: dados.data,
      vinculo: links,
      pontoVenda: get('ponto_venda'),
      grupoPermissao: get('grupo_permissao'),
      status: situacao.data,
      keepStatus,
    },
    problems: [],
  };
}

/** The same e-mail or CPF twice in one file: the later line is refused, naming the first. */
export function duplicatesInFile(rows: readonly ImportRow[]): RowProblem[] {
  const seenEmail = new Map<string, number>();
  const seenCpf = new Map<string, number>();
  const problems: RowProblem[] = [];
  for (const row of rows) {
    const email = row.generation === 'v1' ? row.input.email : row.dados.email;
    const cpf = row.generation === 'v1' ? row.input.cpf : row.dados.cpf;
    const emailAt = seenEmail.get(email);
    const cpfAt = seenCpf.get(cpf);
    if (emailAt)
      problems.push({ line: row.line, column: 'email', message: IMPORT_MESSAGES.duplicateInFile.replace('{line}', String(emailAt)) });
    else seenEmail.set(email, row.line);
    if (cpfAt)
      problems.push({ line: row.line, column: 'cpf', message: IMPORT_MESSAGES.duplicateCpfInFile.replace('{line}', String(cpfAt)) });
    else seenCpf.set(cpf, row.line);
  }
  return problems;
}

/**
 * The example line's values of each generation. Sample data (ILLUSTRATIVE): the service puts in the
 * downloader's own company, groups and a CPF and e-mail nobody holds, so the template sent back as it
 * came validates (issue 27); these are what is left when the downloader has none to offer.
 */
export const TEMPLATE_SAMPLE: Record<ImportGeneration, Record<string, string>> = {
  v1: {
    nome: 'Maria da Silva',
    email: 'maria.silva@exemplo.com.br',
    cpf: '935.411.347-80',
    empresa: '11.222.333/0001-81',
    grupos: 'VENDEDOR',
    situacao: 'ativo',
  },
  v2: {
    nome: 'Maria da Silva',
    email: 'maria.silva@exemplo.com.br',
    cpf: '935.411.347-80',
    celular: '(11) 98765-4321',
    perfil: 'PARCEIRO',
    empresas: '11.222.333/0001-81',
    ponto_venda: '',
    grupo_permissao: '',
    operacoes: '',
    situacao: 'ativo',
  },
};

/** The n-th sample person of a template (n from 0): a valid CPF and an e-mail of the example domain. */
export function templatePerson(n: number): { cpf: string; email: string } {
  const base = String(935_411_347 + n * 7).padStart(9, '0');
  return {
    cpf: formatCpf(`${base}${cpfCheckDigits(base)}`),
    email: n === 0 ? 'maria.silva@exemplo.com.br' : `maria.silva.${n + 1}@exemplo.com.br`,
  };
}

/** The downloadable template: the header and one example line (UTF-8 with BOM, ';'), with `sample` over the defaults. */
export function templateRows(generation: ImportGeneration, sample: Partial<Record<string, string>> = {}): string[][] {
  const header = IMPORT_COLUMNS[generation].map((c) => c.name);
  const values = { ...TEMPLATE_SAMPLE[generation], ...sample };
  return [header, header.map((name) => values[name] ?? '')];
}

// ─── What a row would change in an existing account ─────────────────────────────────────────────

/** One field of an existing account a row would change, as the validation shows it: old → new. */
export interface FieldChange {
  column: string;
  label: string;
  before: string;
  after: string;
}

/** The columns an import may change in an existing account, in the order shown, with their names on screen. */
export const CHANGE_LABELS: Record<ImportGeneration, Record<string, string>> = {
  v1: { nome: 'Nome', empresa: 'Empresa', grupos: 'Grupos de acesso', situacao: 'Situação' },
  v2: {
    nome: 'Nome',
    celular: 'Celular',
    perfil: 'Perfil',
    empresas: 'Empresas',
    ponto_venda: 'Ponto de venda',
    grupo_permissao: 'Grupo de permissões',
    operacoes: 'Permissões',
    situacao: 'Situação',
  },
};

/** The fields whose shown value differs between the account now and the row (the e-mail is the key; the CPF never changes). */
export function fieldChanges(
  generation: ImportGeneration,
  before: Readonly<Record<string, string>>,
  after: Readonly<Record<string, string>>,
): FieldChange[] {
  return Object.entries(CHANGE_LABELS[generation])
    .filter(([column]) => (before[column] ?? '') !== (after[column] ?? ''))
    .map(([column, label]) => ({ column, label, before: before[column] || '—', after: after[column] || '—' }));
}

export const IMPORT_STATUSES = ['VALIDADO', 'NA_FILA', 'PROCESSANDO', 'CONCLUIDO', 'ERRO'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
export const IMPORT_STATUS_LABELS: Record<ImportStatus, string> = {
  VALIDADO: 'Validado — aguardando confirmação',
  NA_FILA: 'Na fila',
  PROCESSANDO: 'Importando',
  CONCLUIDO: 'Concluído',
  ERRO: 'Erro',
};
/** 'ignorado': an existing account the row would change, left as it is (the author did not ask for updates, or it changed since). */
export const IMPORT_RESULTS = ['criado', 'atualizado', 'sem_alteracao', 'ignorado', 'recusado'] as const;
export type ImportResult = (typeof IMPORT_RESULTS)[number];
export const IMPORT_RESULT_LABELS: Record<ImportResult, string> = {
  criado: 'Criado',
  atualizado: 'Atualizado',
  sem_alteracao: 'Sem alteração',
  ignorado: 'Ignorado: já existe',
  recusado: 'Recusado',
};

/** Percent done, for the progress bar. */
export const importProgress = (processed: number, total: number) =>
  total === 0 ? 100 : Math.min(100, Math.floor((processed * 100) / total));
