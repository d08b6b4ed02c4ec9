import { useEffect, useState } from 'react';
import { Stepper } from '../../../components/ui/Stepper';
import { createClient, payloadOf, toFailure, type ApiBases } from '../../../lib/http';
import { clockPhrase } from '../../../lib/acceptance';
import { formatDate } from '../../../lib/format';
import { productFor } from '../../../lib/products/catalog';
import { flowOf } from '../../../lib/products/flow';
import { ratingAnswers, type QuoteView } from '../../../lib/quotes';
import { STEP_LABELS, stepsOf, type QuoteStep } from '../../../lib/quote-flow';
import { reportHref } from '../../../lib/simulator-links';
import type { SimulatorCode } from '../../../lib/simulators';
import type { EmbeddedStep } from '../../../lib/embedded-apps';
import CadastroStep from '../../simulators/CadastroStep';
import ContratacaoStep from '../../simulators/ContratacaoStep';
import PlanosStep from '../../simulators/PlanosStep';
import ProposalSubmit from '../../simulators/ProposalSubmit';
import QuoteSummaryView from '../../simulators/QuoteSummaryView';
import RiscoStep from '../../simulators/RiscoStep';
import { stepPath } from './embedded-quote-flow';

interface Common {
  apis: ApiBases;
  simulator: SimulatorCode;
}

const common = ({ apis, simulator }: Common) => ({ apis, generation: 'v1' as const, code: simulator.code, line: simulator.line });

function Heading({ simulator, quote }: { simulator: SimulatorCode; quote?: QuoteView }) {
  const product = productFor(simulator.code)!;
  return (
    <header className="quote-header">
      <div>
        <p className="quote-eyebrow">{quote?.offerName ?? simulator.name}</p>
        <h1>{product.name}</h1>
      </div>
      {quote ? (
        <dl className="quote-facts">
          <div>
            <dt>Cotação</dt>
            <dd data-testid="nr-cotacao">{quote.nrCotacao}</dd>
          </div>
          <div>
            <dt>Situação</dt>
            <dd>{quote.statusLabel}</dd>
          </div>
          {quote.proposta ? null : (
            <div>
              <dt>Válida até</dt>
              <dd>{formatDate(quote.validaAte)}</dd>
            </div>
          )}
        </dl>
      ) : null}
    </header>
  );
}

/** A new issuance: the cadastro of the offer the simulator start answered. */
export function NewIssuance(props: Common & { nrOferta: number }) {
  const product = productFor(props.simulator.code)!;
  const steps = stepsOf(flowOf(product)).map((s) => ({ id: s, label: STEP_LABELS[s] }));
  return (
    <>
      <Heading simulator={props.simulator} />
      <Stepper steps={steps} current="cadastro" />
      <CadastroStep {...common(props)} nrOferta={props.nrOferta} readOnly={false} />
    </>
  );
}

/** A saved quote's step, read from the platform API as the legacy simulator pages read it. */
export function QuoteStepView(props: Common & { nrCotacao: string; step: EmbeddedStep; action?: 'editar' | 'visualizar' }) {
  const [quote, setQuote] = useState<QuoteView>();
  const [failure, setFailure] = useState<string>();
  useEffect(() => {
    createClient(
      props.apis,
      'plataforma',
    )<{ resultado?: { cotacao: QuoteView } }>(`/v1/cotacoes/${props.nrCotacao}`)
      .then((answer) => setQuote(payloadOf(answer)!.cotacao))
      .catch((error) => setFailure(toFailure(error).message));
  }, [props.apis, props.nrCotacao]);

  if (failure) {
    return (
      <div className="alert alert-error" role="alert">
        {failure}
      </div>
    );
  }
  if (!quote) return <p role="status">Carregando a cotação…</p>;
  if (quote.code !== props.simulator.code) {
    return (
      <div className="alert alert-error" role="alert">
        Esta cotação é de outro produto ({quote.productName}).
      </div>
    );
  }
  const product = productFor(quote.code)!;
  const steps = stepsOf(flowOf(product));
  const finalStep = product.finalStep;
  // A step not reached yet shows the furthest one reached; the final step only once sent.
  const asked: QuoteStep = props.step === 'proposta' || props.step === 'finalizacao' ? finalStep : props.step;
  const reached = steps.indexOf(quote.etapa);
  const step: QuoteStep = quote.proposta ? (asked === finalStep ? finalStep : asked) : steps.indexOf(asked) > reached ? quote.etapa : asked;
  const readOnly = !quote.editable || props.action === 'visualizar';
  const action = readOnly ? 'visualizar' : 'editar';
  const stepper = steps.map((s) => ({ id: s, label: STEP_LABELS[s], href: stepPath('v1', quote.line, s, quote.nrCotacao, { action }) }));
  const shared = { ...common(props), nrCotacao: quote.nrCotacao, readOnly };

  return (
    <>
      <Heading simulator={props.simulator} quote={quote} />
      <Stepper steps={stepper} current={step} />
      {quote.proposta && step !== finalStep ? (
        <div className="alert alert-info" role="status">
          Proposta nº {quote.proposta.nrProposta} enviada: esta cotação não pode mais ser alterada.
        </div>
      ) : null}
      {step === 'cadastro' ? (
        <CadastroStep
          {...common(props)}
          nrOferta={quote.nrOferta}
          readOnly={readOnly}
          quote={{ nrCotacao: quote.nrCotacao, segurado: quote.segurado, respostas: quote.respostas }}
        />
      ) : null}
      {step === 'risco' ? <RiscoStep {...shared} risco={quote.risco} /> : null}
      {step === 'planos' ? <PlanosStep {...shared} answers={ratingAnswers(quote)} selecao={quote.selecao} /> : null}
      {step === 'contratacao' ? <ContratacaoStep {...shared} total={quote.precificacao!.total} contratacao={quote.contratacao} /> : null}
      {step === 'resumo' ? <Summary quote={quote} editable={quote.editable} apis={props.apis} finalStep={finalStep} /> : null}
      {step === finalStep && quote.proposta ? <Done quote={quote} /> : null}
    </>
  );
}

function Summary({
  quote,
  editable,
  apis,
  finalStep,
}: {
  quote: QuoteView;
  editable: boolean;
  apis: ApiBases;
  finalStep: 'proposta' | 'finalizacao';
}) {
  // The simulator pages' own summary (remuneration disclosed, CNSP 382/2020), then the send form.
  return (
    <div className="step-form summary">
      <QuoteSummaryView quote={quote} product={productFor(quote.code)!} generation="v1" />
      {editable ? <ProposalSubmit apis={apis} generation="v1" line={quote.line} nrCotacao={quote.nrCotacao} finalStep={finalStep} /> : null}
    </div>
  );
}

function Done({ quote }: { quote: QuoteView }) {
  return (
    <section className="step-section" aria-labelledby="proposta-titulo">
      <h2 id="proposta-titulo">
        Proposta nº <span data-testid="nr-proposta">{quote.proposta!.nrProposta}</span> enviada
      </h2>
      <p>Situação: {quote.proposta!.status}</p>
      {clockPhrase(quote.proposta!.clock, formatDate) ? (
        <p className="alert alert-info" data-testid="prazo-aceite">
          {clockPhrase(quote.proposta!.clock, formatDate)}
        </p>
      ) : null}
      <p className="step-actions">
        <a className="button button-primary" href={reportHref('v1', 'proposta', quote.nrCotacao)}>
          Proposta em PDF
        </a>
        <a className="button button-outline" href="/historico">
          Histórico de cotações
        </a>
      </p>
    </section>
  );
}
