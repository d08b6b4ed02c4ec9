/*
 * The file format of the bulk user import (issue 16, decision 048): columns, limits, encoding,
 * delimiter and header — without the forms' schemas, so the browser's preview island carries none
 * of them (lib/user-import.ts reads the rows on the server).
 */

export type ImportGeneration = 'v1' | 'v2';

/** The columns of each generation's file, as its template names them, and whether one is required. */
export const IMPORT_COLUMNS: Record<ImportGeneration, readonly { name: string; required: boolean; hint: string }[]> = {
  v1: [
    { name: 'nome', required: true, hint: 'Nome completo' },
    { name: 'email', required: true, hint: 'E-mail (o login)' },
    { name: 'cpf', required: true, hint: 'CPF, com ou sem pontuação' },
    { name: 'empresa', required: true, hint: 'CNPJ da empresa' },
    { name: 'grupos', required: true, hint: 'Grupos de acesso separados por |' },
    { name: 'situacao', required: false, hint: 'ativo, inativo ou bloqueado (em branco: ativo se novo; quem já existe mantém a sua)' },
  ],
  v2: [
    { name: 'nome', required: true, hint: 'Nome completo' },
    { name: 'email', required: true, hint: 'E-mail (o login)' },
    { name: 'cpf', required: true, hint: 'CPF, com ou sem pontuação' },
    { name: 'celular', required: true, hint: 'Celular com DDD: (11) 98765-4321' },
    { name: 'perfil', required: true, hint: 'PARCEIRO_ADMIN, PARCEIRO ou SUBSTABELECIDO' },
    { name: 'empresas', required: true, hint: 'CNPJs separados por |' },
    { name: 'ponto_venda', required: false, hint: 'Código do ponto de venda (ex.: PV-0001)' },
    { name: 'grupo_permissao', required: false, hint: 'Nome de um grupo de permissões da empresa' },
    { name: 'operacoes', required: false, hint: 'Permissões separadas por | (ex.: COTAR_VENDER|METRICAS)' },
    { name: 'situacao', required: false, hint: 'ativo, inativo ou bloqueado (em branco: ativo se novo; quem já existe mantém a sua)' },
  ],
};

export const IMPORT_LIMITS = { maxBytes: 2 * 1024 * 1024, maxRows: 5_000 } as const;

export const IMPORT_MESSAGES = {
  empty: 'O arquivo está vazio: envie o modelo preenchido, com o cabeçalho e ao menos uma linha.',
  noRows: 'O arquivo tem só o cabeçalho: inclua ao menos um usuário.',
  tooBig: `O arquivo passa de ${IMPORT_LIMITS.maxBytes / 1024 / 1024} MB: divida-o em partes.`,
  tooManyRows: `O arquivo passa de ${IMPORT_LIMITS.maxRows.toLocaleString('pt-BR')} usuários: divida-o em partes.`,
  notCsv: 'Envie um arquivo CSV (texto separado por ; ou ,), como o modelo.',
  unreadable: 'Não foi possível ler o arquivo como CSV: verifique as aspas e os separadores.',
  formula: 'Fórmula de planilha não é aceita: a célula não pode começar com =, +, - ou @.',
  duplicateInFile: 'E-mail repetido no arquivo (já aparece na linha {line}).',
  duplicateCpfInFile: 'CPF repetido no arquivo (já aparece na linha {line}).',
  cpfOfExisting:
    'CPF diferente do cadastrado para este e-mail: a importação não altera o CPF de quem já tem conta (confira a linha, ou altere o usuário pelo cadastro).',
  skipped: 'Já existe: não atualizado (a importação foi confirmada só para criar usuários novos).',
  changedSinceValidation: 'O usuário mudou depois da validação: envie o arquivo de novo para rever as alterações antes de atualizá-lo.',
} as const;

/** Strips the BOM and decodes UTF-8, or Windows-1252 when the bytes are not valid UTF-8 (Excel's "CSV" in Brazil). */
export function decodeCsv(bytes: Uint8Array): { text: string; encoding: 'utf-8' | 'windows-1252' } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
  }
}

/** The header line's delimiter: ';' (the template's, and Excel's in pt-BR) unless the header has only commas. */
export function delimiterOf(text: string): ';' | ',' {
  const header = text.split(/\r?\n/, 1)[0] ?? '';
  return header.includes(';') || !header.includes(',') ? ';' : ',';
}

const normalizeHeader = (value: string) =>
  value
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[\s-]+/g, '_');

/** The header's problems (missing or unknown columns), and each column's index by name. */
export function readHeader(generation: ImportGeneration, header: readonly string[]): { index: Map<string, number>; problems: string[] } {
  const columns = IMPORT_COLUMNS[generation];
  const index = new Map<string, number>();
  const unknown: string[] = [];
  header.forEach((raw, i) => {
    const name = normalizeHeader(raw);
    if (!name) return;
    if (columns.some((c) => c.name === name) && !index.has(name)) index.set(name, i);
    else unknown.push(raw.trim());
  });
  const missing = columns.filter((c) => c.required && !index.has(c.name)).map((c) => c.name);
  const problems: string[] = [];
  if (missing.length > 0) problems.push(`Faltam as colunas: ${missing.join(', ')}. Use o modelo desta página.`);
  if (unknown.length > 0) problems.push(`Colunas desconhecidas: ${unknown.join(', ')}.`);
  return { index, problems };
}
