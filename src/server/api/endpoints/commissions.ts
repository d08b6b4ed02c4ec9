import { z } from '../../../lib/zod';
import { downloadResponse } from '../download';
import { endpoint, type Context } from '../router';
import { ApiError } from '../errors';
import { invalid, forbidden, notFound } from '../../errors';
import type { Generation } from '../../../lib/quote-flow';
import { COMMISSION_PAGES, parseStatementQuery } from '../../../lib/commissions';
import { DOCUMENT_NAME_HEADER } from '../../../lib/documents';
import {
  NOTA_MAX_BYTES,
  NOTA_MESSAGES,
  NOTA_STATUS_LABELS,
  notaDecisionSchema,
  notaUploadQuerySchema,
  type NotaStatus,
} from '../../../lib/nota-fiscal';
import { pageAccess } from '../../../lib/route-guards';
import type { SessionViewer } from '../../../lib/session';
import { brasiliaDay } from '../../../lib/format';
import { now } from '../../clock';
import { config } from '../../config';
import { fileStore } from '../../files';
import { BODY_TOO_LARGE_HEADERS, BodyTooLargeError, readBody } from '../../request-body';
import { commissionScopeFor, incomeScopeFor } from '../../services/identity/scope';
import { companiesInScope, companyInScope, statementOf } from '../../services/earnings/commissions';
import { incomeYearsOf } from '../../services/earnings/income';
import {
  adminDoesNotIssue,
  checkNotaFile,
  checkNotaMonth,
  decideNota,
  findNota,
  pageOfNotas,
  notaFile,
  notaNotFound,
  storeNota,
} from '../../services/earnings/notas-fiscais';
import { viewerOf } from './policies';

/*
 * Commissions, notas fiscais (BFF, v2 only — the screens are v2's) and the income statements' years
 * (both generations), issue 15, decision 041. Each endpoint first asks what the page would: the menu's
 * rule (lib/route-guards.ts) — a 403 for whoever may not open the page, a 404 for every commission
 * endpoint in production (SPEC §2: the module exists only in DEV, HML and TEST) — then the beneficiary
 * scope (lib/scope.ts): a company, nota or file outside it is a 404.
 */

const RULE_PAGES = { comissoes: COMMISSION_PAGES.extrato, informe: { v1: '/informe-rendimentos', v2: '/v2/informe-rendimentos' } } as const;

async function allowedViewer(ctx: Context, generation: Generation, page: string): Promise<SessionViewer> {
  const viewer = await viewerOf(ctx, generation);
  const access = pageAccess(page, viewer, config().PORTAL_ENV);
  if (access === 'not-found') throw notFound();
  if (access === 'forbidden') throw forbidden();
  return viewer;
}

const idParams = z.object({
  id: z.coerce
    .number('Nota fiscal inválida.')
    .int('Nota fiscal inválida.')
    .min(1, 'Nota fiscal inválida.')
    .max(2_000_000_000, 'Nota fiscal inválida.'),
});

const listQuery = z.object({
  page: z.coerce.number().int('Página inválida.').min(1, 'Página inválida.').max(100_000, 'Página inválida.').default(1),
  empresa: z.optional(z.string().regex(/^[0-9A-Za-z./-]{11,20}$/, 'Empresa inválida: informe o CNPJ de uma empresa sua.')),
  status: z.optional(z.enum(Object.keys(NOTA_STATUS_LABELS) as [NotaStatus, ...NotaStatus[]], 'Situação inválida.')),
});

const companyMissing = () => new ApiError(404, 'Empresa não encontrada.');

function fileNameOf(request: Request): string {
  const encoded = request.headers.get(DOCUMENT_NAME_HEADER);
  if (!encoded) throw new ApiError(400, NOTA_MESSAGES.noFile, { arquivo: [NOTA_MESSAGES.noFile] });
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw new ApiError(400, NOTA_MESSAGES.noFile, { arquivo: [NOTA_MESSAGES.noFile] });
  }
}

async function bytesOf(request: Request): Promise<Uint8Array> {
  try {
    return await readBody(request, NOTA_MAX_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      throw new ApiError(413, NOTA_MESSAGES.tooLarge, { arquivo: [NOTA_MESSAGES.tooLarge] }, BODY_TOO_LARGE_HEADERS);
    throw error;
  }
}

const auth = ['v2', 'simulador'] as const;

export const commissionEndpoints = [
  endpoint({
    method: 'GET',
    path: '/v1/comissoes/extrato',
    auth,
    async handle(ctx) {
      const viewer = await allowedViewer(ctx, 'v2', RULE_PAGES.comissoes);
      const today = brasiliaDay(now());
      const query = parseStatementQuery(ctx.url.searchParams, today);
      if (!query.ok) throw invalid(Object.values(query.errors)[0]?.[0] ?? 'Filtros inválidos.', query.errors);
      const scope = await commissionScopeFor(ctx.db, viewer);
      const company = query.filters.empresa
        ? await companyInScope(ctx.db, scope, query.filters.empresa)
        : (await companiesInScope(ctx.db, scope))[0];
      if (!company) throw companyMissing();
      return statementOf(ctx.db, company, query.filters.competencia ?? today.slice(0, 7), query.page, today);
    },
  }),
  endpoint({
    method: 'GET',
    path: '/v1/comissoes/notas',
    auth,
    query: listQuery,
    async handle(ctx) {
      const scope = await commissionScopeFor(ctx.db, await allowedViewer(ctx, 'v2', RULE_PAGES.comissoes));
      const company = ctx.query.empresa
        ? await companyInScope(ctx.db, scope, ctx.query.empresa.replace(/[./-]/g, '').toUpperCase())
        : undefined;
      if (ctx.query.empresa && !company) throw companyMissing();
      return pageOfNotas(ctx.db, scope, { companyId: company?.id, status: ctx.query.status }, ctx.query.page);
    },
  }),
  endpoint({
    method: 'POST',
    path: '/v1/comissoes/notas',
    auth,
    query: notaUploadQuerySchema,
    async handle(ctx) {
      const viewer = await allowedViewer(ctx, 'v2', RULE_PAGES.comissoes);
      if (viewer.generation === 'v2' && viewer.user.profile === 'ADMIN') throw adminDoesNotIssue();
      const scope = await commissionScopeFor(ctx.db, viewer);
      const company = await companyInScope(ctx.db, scope, ctx.query.empresa);
      if (!company) throw companyMissing();
      const at = now();
      const today = brasiliaDay(at);
      // The month and the amount before the body: a nota that cannot be taken is refused unread.
      await checkNotaMonth(ctx.db, company, ctx.query, today);
      const name = fileNameOf(ctx.request);
      const bytes = await bytesOf(ctx.request);
      const file = await checkNotaFile(name, bytes, { valor: ctx.query.valor, cnpj: company.taxId });
      return storeNota(ctx.db, fileStore(), { company, userId: viewer.user.idUsuario, upload: ctx.query, file, bytes }, at, today);
    },
  }),
  endpoint({
    method: 'POST',
    path: '/v1/comissoes/notas/:id/decisao',
    auth,
    params: idParams,
    body: notaDecisionSchema,
    async handle(ctx) {
      const viewer = await allowedViewer(ctx, 'v2', RULE_PAGES.comissoes);
      if (viewer.generation !== 'v2' || viewer.user.profile !== 'ADMIN') {
        // Whoever sees the nota learns they may not decide; anyone else, that there is no such nota.
        const visible = await findNota(ctx.db, await commissionScopeFor(ctx.db, viewer), ctx.params.id);
        throw visible ? forbidden('Só o administrador da seguradora aprova ou recusa notas fiscais.') : notaNotFound();
      }
      return decideNota(ctx.db, viewer.user.idUsuario, ctx.params.id, ctx.body, now());
    },
  }),
  endpoint({
    method: 'GET',
    path: '/v1/comissoes/notas/:id/arquivo',
    auth,
    params: idParams,
    async handle(ctx) {
      const scope = await commissionScopeFor(ctx.db, await allowedViewer(ctx, 'v2', RULE_PAGES.comissoes));
      const file = await notaFile(ctx.db, fileStore(), scope, ctx.params.id);
      if (!file) throw notaNotFound();
      return downloadResponse(file);
    },
  }),
];

/** The years each beneficiary the viewer acts for received commissions (the informe's list), either generation. */
export const incomeEndpoints = (generation: Generation) => [
  endpoint({
    method: 'GET',
    path: '/v1/informes-rendimentos',
    auth: generation === 'v2' ? auth : (['v1'] as const),
    async handle(ctx) {
      const viewer = await allowedViewer(ctx, generation, RULE_PAGES.informe[generation]);
      const years = await incomeYearsOf(ctx.db, await incomeScopeFor(ctx.db, viewer), brasiliaDay(now()));
      return years.map(({ beneficiary, years }) => ({
        tipo: beneficiary.kind,
        cpfCnpj: beneficiary.taxId,
        nome: beneficiary.name,
        anos: years,
      }));
    },
  }),
];
