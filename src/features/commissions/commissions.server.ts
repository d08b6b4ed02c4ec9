import { csvResponse } from '../../server/api/download';
import { notFoundAsUndefined, recordIdOf } from '../controller.server';
import { downloadResponse } from '../../server/api/download';
import { database } from '../../server/boot/database';
import { now } from '../../server/clock';
import { fileStore } from '../../server/files';
import { commissionScopeFor, incomeScopeFor } from '../../server/services/identity/scope';
import { recordDataAccess } from '../../server/services/identity/access-log';
import { formatCnpj } from '../../lib/validators';
import {
  beneficiaryMonths,
  companiesInScope,
  companyInScope,
  statementCsv,
  statementOf,
  type Beneficiary,
  type Statement,
} from '../../server/services/earnings/commissions';
import { notaFile, notasOfCompany, pageOfNotas, standingNota, type NotaRow } from '../../server/services/earnings/notas-fiscais';
import { beneficiaryInScope, incomeYearsOf, type IncomeYears } from '../../server/services/earnings/income';
import { brasiliaDay } from '../../lib/format';
import { isClosedMonth, parseStatementQuery, statementCsvFileName, STATEMENT_FIELDS, cnpjField } from '../../lib/commissions';
import { NOTA_STATUS_LABELS, type NotaStatus } from '../../lib/nota-fiscal';
import type { BeneficiaryScope } from '../../lib/scope';
import { viewerOf, type PortalSession, type SessionViewer } from '../../lib/session';
import * as z from 'zod/mini';
import { pageField, pageWithin, parseListQuery, withReadablePage, type Paged } from '../../lib/list-query';

/** What the commission and informe pages need (issue 15, decision 041): thin pages, this does the work. */

async function commissionContext(session: PortalSession) {
  // The middleware let only a v2 viewer the menu rule allows reach these pages (and none in production).
  const viewer = viewerOf(session, 'v2')!;
  const db = await database();
  return { db, viewer, scope: await commissionScopeFor(db, viewer), today: brasiliaDay(now()) };
}

/** The company a page shows: the one asked for, else the one the viewer acts for, else the first of the scope. */
async function chosenCompany(
  db: Awaited<ReturnType<typeof database>>,
  viewer: SessionViewer,
  scope: BeneficiaryScope,
  asked: string | undefined,
): Promise<{ companies: Beneficiary[]; company: Beneficiary | undefined; missing: boolean }> {
  const companies = await companiesInScope(db, scope);
  if (asked) {
    const company = companies.find((c) => c.taxId === asked) ?? (await companyInScope(db, scope, asked));
    return { companies, company, missing: !company };
  }
  const acting = viewer.generation === 'v2' ? viewer.user.cdCnpjEmpresa : null;
  return { companies, company: companies.find((c) => c.taxId === acting) ?? companies[0], missing: false };
}

export interface StatementPageProps {
  status: number;
  values: Record<string, string | undefined>;
  errors?: Record<string, string[]>;
  companies: Beneficiary[];
  statement?: Statement;
  /** The month's nota that stands (sent, approved or paid), if any. */
  nota?: NotaRow;
  isAdmin: boolean;
}

/** /v2/comissoes/extrato-comissoes: a company's statement of a month (the current one by default). */
export async function statementPage(session: PortalSession, params: URLSearchParams): Promise<StatementPageProps | undefined> {
  const { db, viewer, scope, today } = await commissionContext(session);
  const values = Object.fromEntries(STATEMENT_FIELDS.map((f) => [f, params.get(f) ?? undefined]));
  const isAdmin = viewer.generation === 'v2' && viewer.user.profile === 'ADMIN';
  // A page that is no number shows the first, one past the last the last (lib/list-query.ts).
  const query = parseStatementQuery(withReadablePage(params), today);
  if (!query.ok) return { status: 400, values, errors: query.errors, companies: await companiesInScope(db, scope), isAdmin };
  const { companies, company, missing } = await chosenCompany(db, viewer, scope, query.filters.empresa);
  if (missing) return undefined;
  if (!company) return { status: 200, values, companies, isAdmin };
  const month = query.filters.competencia ?? today.slice(0, 7);
  // A page of lines past the last shows the last (lib/list-query.ts); the month's totals are the same.
  const read = await pageWithin(query.page, async (p) => {
    const shown = await statementOf(db, company, month, p, today);
    return { ...shown.lines, statement: shown };
  });
  const statement = { ...read.statement, lines: { ...read.statement.lines, page: read.page } };
  const nota = await standingNota(db, company.id, month);
  return { status: 200, values: { empresa: company.taxId, competencia: month }, companies, statement, nota, isAdmin };
}

const TEXT = { 'content-type': 'text/plain; charset=utf-8' };

/** The statement's CSV: the same company, month and scope as the page. */
export async function statementExport(session: PortalSession, params: URLSearchParams, ip: string): Promise<Response | undefined> {
  const { db, viewer, scope, today } = await commissionContext(session);
  const query = parseStatementQuery(params, today);
  if (!query.ok) return new Response(`Filtros inválidos: ${Object.values(query.errors).flat().join(' ')}`, { status: 400, headers: TEXT });
  const { company } = await chosenCompany(db, viewer, scope, query.filters.empresa);
  if (!company) return undefined;
  const month = query.filters.competencia ?? today.slice(0, 7);
  // The statement names the insured of each installment: its export is on the access log (decision 049).
  // A beneficiary who is a person is named by kind, never by CPF.
  const whose = company.kind === 'PJ' ? `empresa ${formatCnpj(company.taxId)}` : 'vendedor pessoa física';
  await recordDataAccess(db, viewer, ip, 'comissoes.csv', month, whose);
  return csvResponse(statementCsv(db, company, month), statementCsvFileName(company.taxId, month));
}

export interface UploadMonth {
  month: string;
  payable: number;
}

export interface NotaUploadPageProps {
  isAdmin: boolean;
  companies: Beneficiary[];
  company?: Beneficiary;
  /** Closed months with something owed and no nota standing: what may be sent now. */
  months: UploadMonth[];
  /** The month asked for (?competencia=), when it is one of them. */
  chosen?: string;
}

/** /v2/comissoes/envio-nota: what a company may invoice now. */
export async function notaUploadPage(session: PortalSession, params: URLSearchParams): Promise<NotaUploadPageProps | undefined> {
  const { db, viewer, scope, today } = await commissionContext(session);
  const isAdmin = viewer.generation === 'v2' && viewer.user.profile === 'ADMIN';
  const asked = z.safeParse(cnpjField(), params.get('empresa') ?? '');
  const { companies, company, missing } = await chosenCompany(db, viewer, scope, params.get('empresa') ? (asked.data ?? '-') : undefined);
  if (missing) return undefined;
  if (!company || isAdmin) return { isAdmin, companies, company, months: [] };
  const [balances, notas] = await Promise.all([beneficiaryMonths(db, company), notasOfCompany(db, scope, company.id)]);
  const standing = new Set(notas.filter((n) => n.status !== 'RECUSADA').map((n) => n.competencia));
  const months = balances
    .filter((m) => isClosedMonth(m.month, today) && m.payable > 0 && !standing.has(m.month))
    .map((m) => ({ month: m.month, payable: m.payable }))
    .reverse();
  const chosen = months.find((m) => m.month === params.get('competencia'))?.month;
  return { isAdmin, companies, company, months, chosen };
}

export interface NotasPageProps {
  status: number;
  isAdmin: boolean;
  companies: Beneficiary[];
  values: { empresa?: string; status?: string };
  errors?: Record<string, string[]>;
  result?: Paged<NotaRow>;
  /** The nota just sent or decided (?enviada= / ?decidida=). */
  highlight?: number;
}

const notasQuery = z.object({
  page: z.optional(pageField('Página inválida.')),
  empresa: z.optional(cnpjField()),
  status: z.optional(z.enum(Object.keys(NOTA_STATUS_LABELS) as [NotaStatus, ...NotaStatus[]], { error: 'Situação inválida.' })),
});

/** /v2/comissoes/nota-fiscal: the notas of the scope and their state. */
export async function notasPage(session: PortalSession, params: URLSearchParams): Promise<NotasPageProps | undefined> {
  const { db, viewer, scope } = await commissionContext(session);
  const isAdmin = viewer.generation === 'v2' && viewer.user.profile === 'ADMIN';
  const values = { empresa: params.get('empresa') || undefined, status: params.get('status') || undefined };
  const companies = await companiesInScope(db, scope);
  const parsed = parseListQuery(notasQuery, { ...values, page: withReadablePage(params).get('page') || undefined });
  if (!parsed.ok) return { status: 400, isAdmin, companies, values, errors: parsed.errors };
  const company = parsed.filters.empresa ? await companyInScope(db, scope, parsed.filters.empresa) : undefined;
  if (parsed.filters.empresa && !company) return undefined;
  const result = await pageWithin(parsed.page, (page) =>
    pageOfNotas(db, scope, { companyId: company?.id, status: parsed.filters.status }, page),
  );
  const highlight = Number(params.get('enviada') ?? params.get('decidida') ?? NaN);
  return { status: 200, isAdmin, companies, values, result, highlight: Number.isInteger(highlight) ? highlight : undefined };
}

/** A nota's file, or undefined (the 404 page) outside the scope. */
export async function notaDownload(session: PortalSession, id: string | undefined): Promise<Response | undefined> {
  const recordId = recordIdOf(id);
  if (recordId === undefined) return undefined;
  const { db, scope } = await commissionContext(session);
  const file = await notFoundAsUndefined(notaFile(db, fileStore(), scope, recordId));
  return file && downloadResponse(file);
}

export interface IncomePageProps {
  generation: 'v1' | 'v2';
  beneficiaries: IncomeYears[];
  /** The PDF's address led here for a year without income (?documento=&ano=). */
  noIncome?: { beneficiary: Beneficiary; year: number };
}

/** /informe-rendimentos and /v2/informe-rendimentos: the years each beneficiary the viewer acts for had income. */
export async function incomePage(generation: 'v1' | 'v2', session: PortalSession, params: URLSearchParams): Promise<IncomePageProps> {
  const viewer = viewerOf(session, generation)!;
  const db = await database();
  const scope = await incomeScopeFor(db, viewer);
  const beneficiaries = await incomeYearsOf(db, scope, brasiliaDay(now()));
  const documento = params.get('documento');
  const ano = params.get('ano');
  let noIncome: IncomePageProps['noIncome'];
  if (documento && ano && /^[0-9A-Z]{11,14}$/.test(documento) && /^\d{4}$/.test(ano)) {
    const beneficiary = await beneficiaryInScope(db, scope, documento);
    if (beneficiary) noIncome = { beneficiary, year: Number(ano) };
  }
  return { generation, beneficiaries, noIncome };
}
