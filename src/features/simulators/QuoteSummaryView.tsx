import type { ProductDef } from '../../lib/products/types';
import type { QuoteView } from '../../lib/quotes';
import { formatBRL, formatPercent } from '../../lib/products/money';
import { formatDate } from '../../lib/format';
import { reportHref } from '../../lib/simulator-links';
import {
  COVERAGE_PREMIUM_NOTE,
  answerLines,
  commissionOf,
  insuredLines,
  installmentLines,
  paymentLines,
  relationshipLabel,
  type Line,
} from '../../lib/quote-summary';

/**
 * Resumo: everything the client is about to sign, with the partner's remuneration disclosed as
 * CNSP Resolution 382/2020 requires. One component for the simulator pages (rendered on the server,
 * no JavaScript: QuoteSummary.astro) and the embedded issuance apps (decision 054), so both show the
 * same figures. Styles in steps.css.
 */
interface Props {
  quote: QuoteView;
  product: ProductDef;
  generation: 'v1' | 'v2';
}

const Lines = ({ lines }: { lines: Line[] }) =>
  lines.map((l) => (
    <div key={l.label}>
      <dt>{l.label}</dt>
      <dd>{l.value}</dd>
    </div>
  ));

export default function QuoteSummaryView({ quote, product, generation }: Props) {
  const pricing = quote.precificacao!;
  const contracting = quote.contratacao!;
  const plan = product.plans.find((p) => p.id === pricing.plan);
  // Counted from the policy's issue day, or the server's today in Brasília (never this browser's clock).
  const paymentFrom = quote.vencimentosDesde;
  const issued = Boolean(quote.proposta?.nrApolice);
  const answers = answerLines(product, quote);
  return (
    <>
      <section className="step-section" aria-labelledby="resumo-segurado">
        <h2 id="resumo-segurado">Segurado</h2>
        <dl className="summary-list">
          <Lines lines={insuredLines(quote.segurado)} />
        </dl>
      </section>
      {answers.length > 0 ? (
        <section className="step-section" aria-labelledby="resumo-risco">
          <h2 id="resumo-risco">Dados do seguro</h2>
          <dl className="summary-list">
            <Lines lines={answers} />
          </dl>
        </section>
      ) : null}
      <section className="step-section" aria-labelledby="resumo-plano">
        <h2 id="resumo-plano">Plano {plan?.name}</h2>
        {/* A table from 600 px, one card per coverage below (the UI kit's data-table). */}
        <div className="data-table summary-coverages">
          <div className="data-table-scroll">
            <table className="summary-table">
              <thead>
                <tr>
                  <th scope="col">Cobertura</th>
                  <th scope="col" className="num">
                    Capital segurado
                  </th>
                  <th scope="col" className="num">
                    Prêmio
                  </th>
                  <th scope="col">Franquia</th>
                </tr>
              </thead>
              <tbody>
                {pricing.coverages.map((c) => (
                  <tr key={c.name}>
                    <td data-label="Cobertura">{c.name}</td>
                    <td data-label="Capital segurado" className="num">
                      {formatBRL(c.capital)}
                    </td>
                    <td data-label="Prêmio" className="num">
                      {formatBRL(c.premium)}
                    </td>
                    <td data-label="Franquia">{c.deductible}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
        <p className="summary-note">{COVERAGE_PREMIUM_NOTE}</p>
        <dl className="summary-list summary-premium">
          <div>
            <dt>Prêmio líquido</dt>
            <dd>{formatBRL(pricing.netPremium)}</dd>
          </div>
          <div>
            <dt>Custo de apólice</dt>
            <dd>{formatBRL(pricing.policyCost)}</dd>
          </div>
          <div>
            <dt>IOF ({pricing.iofRate === 0 ? 'isento' : formatPercent(pricing.iofRate)})</dt>
            <dd>{formatBRL(pricing.iof)}</dd>
          </div>
          <div className="summary-total">
            <dt>Prêmio total</dt>
            <dd data-testid="premio-total">{formatBRL(pricing.total)}</dd>
          </div>
        </dl>
      </section>
      <section className="step-section" aria-labelledby="resumo-pagamento">
        <h2 id="resumo-pagamento">Pagamento</h2>
        <dl className="summary-list">
          <Lines lines={paymentLines(contracting, paymentFrom, issued)} />
          {contracting.opcao.interestFree ? null : (
            <div>
              <dt>Total parcelado (com juros)</dt>
              <dd>{formatBRL(contracting.opcao.total)}</dd>
            </div>
          )}
        </dl>
        <div className="data-table-scroll">
          <table className="summary-table">
            <thead>
              <tr>
                <th scope="col">Parcela</th>
                <th scope="col">Vencimento</th>
                <th scope="col" className="num">
                  Valor
                </th>
              </tr>
            </thead>
            <tbody>
              {installmentLines(contracting, paymentFrom).map((i) => (
                <tr key={i.number}>
                  <td>{i.number}ª</td>
                  <td>{i.dueDate}</td>
                  <td className="num">{formatBRL(i.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      {product.beneficiaries ? (
        <section className="step-section" aria-labelledby="resumo-beneficiarios">
          <h2 id="resumo-beneficiarios">Beneficiários</h2>
          {contracting.beneficiarios?.length ? (
            <ul>
              {contracting.beneficiarios.map((b) => (
                <li key={`${b.nome}-${b.parentesco}`}>
                  {b.nome} — {relationshipLabel(b.parentesco)} — {b.percentual}%
                </li>
              ))}
            </ul>
          ) : (
            <p>Herdeiros legais.</p>
          )}
        </section>
      ) : null}
      <section className="step-section" aria-labelledby="resumo-remuneracao">
        <h2 id="resumo-remuneracao">Remuneração do parceiro</h2>
        <p data-testid="remuneracao">
          Em cumprimento à Resolução CNSP nº 382/2020, informamos que{' '}
          {quote.partner ? `o parceiro ${quote.partner.razaoSocial}` : 'o intermediário'} receberá remuneração de{' '}
          {quote.commissionPercent.toLocaleString('pt-BR')}% sobre o prêmio líquido, equivalente a{' '}
          {formatBRL(commissionOf(pricing.netPremium, quote.commissionPercent))}.
        </p>
      </section>
      <p className="summary-validity">
        Cotação válida até {formatDate(quote.validaAte)}.{' '}
        <a href={reportHref(generation, 'cotacao', quote.nrCotacao)} download>
          Baixar a cotação em PDF
        </a>
      </p>
    </>
  );
}
