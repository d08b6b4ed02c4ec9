import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import writeExcelFile from 'write-excel-file/node';
import type { DB } from '../../db';
import { tooLarge } from '../../errors';
import { appendAccessEvent } from '../identity/access-log';
import { requireList, usersInScope, type UserListFilters } from './user-admin';
import { managedCompanies, PROFILE_LABELS, STATUS_LABELS, type Actor, type UserStatusCode } from '../../../lib/user-admin';
import type { Profile } from '../../../lib/permissions';
import { CSV_OPTIONS } from '../../../lib/csv';
import { BULK_LIMITS } from '../../../lib/user-bulk';
import { formatCnpj, maskCpf } from '../../../lib/validators';

/*
 * The users list as a file (issue 32, decision 070): the rows the list's filters match in the
 * viewer's scope — the same query as the page — in the list's order, read in keyset batches of
 * (name, id). The CSV streams any number; the XLSX (write-excel-file builds it whole) stops at
 * BULK_LIMITS.xlsxRows and asks for the CSV. The CPF goes masked, as the list shows it. Each export
 * is logged: who took which filters' users out of the portal.
 */

const BATCH = 1_000;
export type ExportFormat = 'csv' | 'xlsx';

const COLUMNS = {
  v1: ['Nome', 'E-mail', 'CPF', 'Empresa', 'CNPJ', 'Situação'],
  v2: ['Nome', 'E-mail', 'CPF', 'Empresa', 'CNPJ', 'Perfil', 'Situação'],
} as const;

type Row = {
  id: number;
  nome: string;
  email: string;
  cpf: string | null;
  status: string;
  profile: string | null;
  razao_social: string | null;
  cnpj: string | null;
};

const cellsOf = (generation: 'v1' | 'v2', r: Row): string[] => [
  r.nome,
  r.email,
  r.cpf ? maskCpf(r.cpf) : '',
  r.razao_social ?? '',
  r.cnpj ? formatCnpj(r.cnpj) : '',
  ...(generation === 'v2' ? [r.profile ? (PROFILE_LABELS[r.profile.toUpperCase() as Profile] ?? r.profile) : ''] : []),
  STATUS_LABELS[r.status as UserStatusCode] ?? r.status,
];

/** Every row of the filters, in the list's order, a batch after the last one read. */
async function* rowsOf(db: DB, actor: Actor, filters: UserListFilters, limit = Number.POSITIVE_INFINITY): AsyncGenerator<string[]> {
  let after: { nome: string; id: number } | undefined;
  let sent = 0;
  for (;;) {
    const base = usersInScope(db, actor, filters);
    if (!base) return;
    let query = base
      .select(['u.id', 'u.nome', 'u.email', 'u.cpf', 'u.status', 'u.profile', 'c.razao_social', 'c.cnpj'])
      .orderBy('u.nome')
      .orderBy('u.id')
      .limit(Math.min(BATCH, limit - sent));
    if (after) {
      const { nome, id } = after;
      query = query.where((eb) => eb.or([eb('u.nome', '>', nome), eb.and([eb('u.nome', '=', nome), eb('u.id', '>', id)])]));
    }
    const rows = (await query.execute()) as Row[];
    for (const row of rows) yield cellsOf(actor.generation, row);
    sent += rows.length;
    if (rows.length < BATCH || sent >= limit) return;
    const last = rows[rows.length - 1]!;
    after = { nome: last.nome, id: last.id };
  }
}

const filtersText = (filters: UserListFilters) =>
  Object.entries(filters)
    .filter(([, v]) => v)
    .map(([k, v]) => `${k}: ${v}`)
    .join('; ') || 'sem filtros';

export interface UserExport {
  body: Readable | Uint8Array;
  fileName: string;
  type: string;
}

/** The users of the filters as CSV (streamed) or XLSX (bounded), logged first. */
export async function exportUsers(
  db: DB,
  actor: Actor,
  filters: UserListFilters,
  format: ExportFormat,
  ip: string | null,
): Promise<UserExport> {
  requireList(actor);
  const fileName = `usuarios-${actor.generation === 'v1' ? 'legado' : 'v2'}.${format}`;
  let sheet: unknown[][] | undefined;
  if (format === 'xlsx') {
    const rows: string[][] = [];
    for await (const row of rowsOf(db, actor, filters, BULK_LIMITS.xlsxRows + 1)) rows.push(row);
    if (rows.length > BULK_LIMITS.xlsxRows) {
      const message = `A lista tem mais de ${BULK_LIMITS.xlsxRows.toLocaleString('pt-BR')} usuários, o limite de um arquivo Excel: baixe em CSV ou refine os filtros.`;
      throw tooLarge(message, { formato: [message] });
    }
    sheet = [COLUMNS[actor.generation].map((value) => ({ value, fontWeight: 'bold' })), ...rows.map((r) => r.map((value) => ({ value })))];
  }
  const author = await db.selectFrom('users').select('email').where('id', '=', actor.userId).executeTakeFirstOrThrow();
  await appendAccessEvent(db, {
    event: 'USUARIOS_EXPORTADOS',
    generation: actor.generation,
    email: author.email,
    userId: actor.userId,
    actorId: actor.userId,
    ip,
    detalhe: `${format.toUpperCase()}; ${filtersText(filters)}`,
  });
  if (sheet) {
    const bytes = await writeExcelFile(
      sheet as never,
      { stickyRowsCount: 1, columns: COLUMNS[actor.generation].map(() => ({ width: 24 })) } as never,
    ).toBuffer();
    return { body: new Uint8Array(bytes), fileName, type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };
  }
  const csv = stringify({ ...CSV_OPTIONS, header: true, columns: [...COLUMNS[actor.generation]] });
  pipeline(Readable.from(rowsOf(db, actor, filters)), csv).catch(() => {
    // pipeline has already destroyed the stream with the error: the download ends cut short, never looking complete.
  });
  return { body: csv, fileName, type: 'text/csv; charset=utf-8' };
}
