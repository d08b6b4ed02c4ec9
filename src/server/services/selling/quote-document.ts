import type { QuoteDocument } from '../../pdf/quote-pdf';
import { clockPhrase } from '../../../lib/acceptance';
import { formatDate, formatDateTime } from '../../../lib/format';
import { branchOfLine, productRegistration } from '../../../lib/insurer';
import type { ProductDef } from '../../../lib/products/types';
import { answerLines, commissionOf, installmentLines, paymentLines, relationshipLabel } from '../../../lib/quote-summary';
import type { QuoteView } from '../../../lib/quotes';
import { formatCnpj } from '../../../lib/validators';
import { insuredOf } from '../../pdf/insured';
import { now as clockNow } from '../../clock';

/**
 * The PDF's content from a quote (issue 5: insured, plan, coverages, premium with IOF,
 * installments, validity), built from the same lines the resumo page shows.
 */
export function quoteDocument(quote: QuoteView, product: ProductDef, kind: QuoteDocument['kind'], now = clockNow()): QuoteDocument {
  const pricing = quote.precificacao;
  const contracting = quote.contratacao;
  // The server's day in Brasília, or the policy's issue day (QuoteView.vencimentosDesde): never the UTC day of an instant.
  const from = quote.vencimentosDesde;
  const issued = Boolean(quote.proposta?.nrApolice);
  return {
    kind,
    nrCotacao: quote.nrCotacao,
    nrProposta: kind === 'proposta' ? quote.proposta?.nrProposta : undefined,
    status: kind === 'proposta' ? quote.proposta!.status : quote.statusLabel,
    product: product.name,
    offer: quote.offerName,
    branch: branchOfLine(product.line),
    // lib/insurer.test.ts keeps a registration for every product of the catalog.
    registration: productRegistration(product.code)!,
    partner: {
      razaoSocial: quote.partner?.razaoSocial ?? 'Portal de Parceiros',
      cnpj: quote.partner ? formatCnpj(quote.partner.cnpj) : '',
      susep: quote.partner?.susep ?? null,
      commissionPercent: quote.commissionPercent,
      commission: pricing ? commissionOf(pricing.netPremium, quote.commissionPercent) : 0,
    },
    seller: quote.seller,
    insured: insuredOf(quote.segurado),
    answers: answerLines(product, quote),
    pricing: pricing
      ? {
          plan: product.plans.find((p) => p.id === pricing.plan)?.name ?? pricing.plan,
          coverages: pricing.coverages.map((c) => ({ name: c.name, capital: c.capital, premium: c.premium, deductible: c.deductible })),
          premium: {
            net: pricing.netPremium,
            policyCost: pricing.policyCost,
            iofRate: pricing.iofRate,
            iof: pricing.iof,
            total: pricing.total,
          },
        }
      : undefined,
    payment: contracting
      ? {
          lines: paymentLines(contracting, from, issued),
          installments: installmentLines(contracting, from),
          total: contracting.opcao.total,
        }
      : undefined,
    beneficiaries: contracting?.beneficiarios?.map((b) => ({
      name: b.nome,
      relationship: relationshipLabel(b.parentesco),
      percent: b.percentual,
    })),
    // Sent is received: the proposal reaches the insurer as it is stored, and its clock starts then.
    acceptance:
      kind === 'proposta' && quote.proposta
        ? { receivedAt: formatDateTime(new Date(quote.proposta.createdAt)), clock: clockPhrase(quote.proposta.clock, formatDate) }
        : undefined,
    createdAt: formatDate(quote.createdAt),
    validUntil: formatDate(quote.validaAte),
    issuedAt: formatDateTime(now),
  };
}
