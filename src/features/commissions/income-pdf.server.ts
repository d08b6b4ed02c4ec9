import type { APIRoute } from 'astro';
import type { DB } from '../../server/db';
import type { Generation } from '../../server/db/schema';
import { database } from '../../server/boot/database';
import { now } from '../../server/clock';
import { config } from '../../server/config';
import { formatDateTime } from '../../lib/format';
import { INCOME_PAGES, INCOME_REPORT_TYPE, formatTaxId, monthShort, nameSlug, noIncomeHref } from '../../lib/commissions';
import { IRRF_RULES } from '../../lib/income-tax';
import { INSURER } from '../../lib/insurer';
import { pageAccess } from '../../lib/route-guards';
import { viewerOf, type SessionViewer } from '../../lib/session';
import { normalizeCnpj } from '../../lib/validators';
import { incomeScopeFor } from '../../server/services/identity/scope';
import { beneficiaryInScope, incomeStatementOf } from '../../server/services/earnings/income';
import type { Beneficiary } from '../../server/services/earnings/commissions';
import { incomePdfFileName, renderIncomePdf, type IncomeDocument } from '../../server/pdf/income-pdf';
import { pdfResponse } from '../../server/api/download';

/**
 * The income statement's PDF (issue 15, decision 041), both generations — SPEC §2's
 * /relatorios/{type}/{nmCpfCnpj}/{nmPrestador}/{nrAno} and /v2/relatorios/pdf/{type}/{nmCpfCnpj}/{nmPrestador}/{nrAno},
 * type 'informe-rendimentos', nmPrestador the beneficiary's name as a segment (nameSlug). Whoever may
 * not open the informe page, a CPF/CNPJ the viewer does not act for, a name that is not its own, a
 * year outside 2000 to now — all the same 404. A year without income is not a PDF: the informe page
 * says so.
 */
export interface IncomePdfRequest {
  type: string | undefined;
  nmCpfCnpj: string | undefined;
  nmPrestador: string | undefined;
  nrAno: string | undefined;
}

export type IncomePdfOutcome = { kind: 'pdf'; response: Response } | { kind: 'empty'; href: string } | undefined;

export async function incomePdfOutcome(
  db: DB,
  viewer: SessionViewer | undefined,
  request: IncomePdfRequest,
  at: Date,
): Promise<IncomePdfOutcome> {
  if (!viewer || request.type !== INCOME_REPORT_TYPE) return undefined;
  if (pageAccess(INCOME_PAGES[viewer.generation], viewer, config().PORTAL_ENV) !== 'allowed') return undefined;
  const thisYear = Number(formatDateTime(at).slice(6, 10));
  const year = /^\d{4}$/.test(request.nrAno ?? '') ? Number(request.nrAno) : NaN;
  if (!(year >= 2000 && year <= thisYear)) return undefined;
  const taxId = normalizeCnpj(request.nmCpfCnpj ?? '');
  if (!/^[0-9A-Z]{11,14}$/.test(taxId)) return undefined;
  const beneficiary = await beneficiaryInScope(db, await incomeScopeFor(db, viewer), taxId);
  if (!beneficiary || request.nmPrestador !== nameSlug(beneficiary.name)) return undefined;
  const issuedAt = formatDateTime(at);
  const today = `${issuedAt.slice(6, 10)}-${issuedAt.slice(3, 5)}-${issuedAt.slice(0, 2)}`;
  const income = await incomeStatementOf(db, beneficiary, year, today);
  if (income.months.length === 0) return { kind: 'empty', href: noIncomeHref(viewer.generation, beneficiary.taxId, year) };
  const document = incomeDocument(beneficiary, income, issuedAt);
  return { kind: 'pdf', response: pdfResponse(await renderIncomePdf(document), incomePdfFileName(beneficiary.taxId, year)) };
}

export function incomeDocument(
  beneficiary: Beneficiary,
  income: Awaited<ReturnType<typeof incomeStatementOf>>,
  issuedAt: string,
): IncomeDocument {
  const rule = IRRF_RULES[beneficiary.kind];
  return {
    kind: beneficiary.kind,
    year: income.year,
    payer: { name: INSURER.name, cnpj: INSURER.cnpj },
    beneficiary: { name: beneficiary.name, taxId: formatTaxId(beneficiary.kind, beneficiary.taxId) },
    code: rule.code,
    description: rule.description,
    months: income.months.map((m) => ({ label: monthShort(m.month), gross: m.gross, withheld: m.withheld })),
    totals: { gross: income.totals.gross, withheld: income.totals.withheld },
    issuedAt,
    notes: [
      'Rendimentos: as comissões sobre as parcelas pagas em cada mês, à taxa fixada na venda (Resolução CNSP nº 382/2020), ' +
        'menos os estornos de comissão dos cancelamentos confirmados no mês; um saldo negativo é compensado nos meses seguintes.',
      'Cada mês é creditado no seu encerramento; o mês em curso não consta.',
      beneficiary.kind === 'PJ'
        ? 'Retenção de 1,5 % (código 8045); retenção de até R$ 10,00 não é recolhida (dispensada).'
        : 'Retenção pela tabela progressiva mensal (código 0588).',
      'Alíquotas e tabelas ilustrativas do portal de demonstração (decisão 041).',
    ],
  };
}

export function incomePdfRoute(generation: Generation): APIRoute {
  return async ({ params, locals, rewrite, redirect }) => {
    const outcome = await incomePdfOutcome(
      await database(),
      viewerOf(locals.session, generation),
      { type: params.type, nmCpfCnpj: params.nmCpfCnpj, nmPrestador: params.nmPrestador, nrAno: params.nrAno },
      now(),
    );
    if (!outcome) return rewrite('/404');
    return outcome.kind === 'pdf' ? outcome.response : redirect(outcome.href, 303);
  };
}
