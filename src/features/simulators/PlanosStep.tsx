import { useMemo, useState } from 'react';
import { Button } from '../../components/ui/Button';
import { MaskedInput } from '../../components/ui/MaskedInput';
import type { ApiBases } from '../../lib/http';
import { productFor } from '../../lib/products/catalog';
import { interestFreeOffer, price, resolveCapitals, validateSelection } from '../../lib/products/engine';
import { formatBRL } from '../../lib/products/money';
import type { Answers, Selection } from '../../lib/products/types';
import { nextStep, previousStep, stepPath, type Generation } from '../../lib/quote-flow';
import type { ProductLine } from '../../lib/simulators';
import { centsFromText, textFromCents, type FieldErrors } from './form';
import { StepActions } from './StepActions';
import { goTo, quoteApi } from './quote-api';
import { useStepDraft } from './useStepDraft';
import { StepAlerts } from './StepAlerts';

interface Props {
  apis: ApiBases;
  generation: Generation;
  code: string;
  line: ProductLine;
  nrCotacao: string;
  /** What the rating reads: cadastro and risco answers with the insured's type and birth date. */
  answers: Answers;
  selecao: Selection | null;
  readOnly: boolean;
}

type CapitalTexts = Record<string, Record<string, string>>;

/**
 * Planos: the line's plans side by side with their coverages and premiums. Adjustable sums insured
 * re-price at once in the browser with the catalog's own engine; saving re-prices on the server,
 * whose figure is the one that counts.
 */
export default function PlanosStep({ apis, generation, code, line, nrCotacao, answers, selecao, readOnly }: Props) {
  const product = productFor(code)!;
  const flow = { hasRisk: product.riskQuestions.length > 0, finalStep: product.finalStep };
  const capitalsOf = useMemo(
    () => Object.fromEntries(product.plans.map((plan) => [plan.id, resolveCapitals(product, answers, plan.id)])),
    [product, answers],
  );
  const [texts, setTexts] = useState<CapitalTexts>(() =>
    Object.fromEntries(
      product.plans.map((plan) => [
        plan.id,
        Object.fromEntries(
          capitalsOf[plan.id]!.filter((c) => c.adjustable).map((c) => [
            c.id,
            textFromCents(selecao?.plan === plan.id && selecao.capitals[c.id] !== undefined ? selecao.capitals[c.id]! : c.default),
          ]),
        ),
      ]),
    ),
  );
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string>();
  const [saving, setSaving] = useState<string>();
  // The sums typed in every plan survive a session that ends before the choice is saved (see useStepForm).
  const draft = useStepDraft<CapitalTexts>((kept) => setTexts((t) => ({ ...t, ...kept })), !readOnly);

  const selectionOf = (planId: string): Selection => ({
    plan: planId,
    capitals: Object.fromEntries(Object.entries(texts[planId] ?? {}).map(([id, text]) => [id, centsFromText(text) ?? -1])),
  });

  const quotes = product.plans.map((plan) => {
    const selection = selectionOf(plan.id);
    const errors = validateSelection(product, answers, selection);
    const pricing = Object.keys(errors).length === 0 ? price(product, answers, selection) : undefined;
    // Only what the contratação offers as it opens (boleto), so the card never promises more than the next step.
    const best = pricing ? interestFreeOffer(product, pricing.total) : undefined;
    return { plan, selection, errors, pricing, best };
  });

  async function choose(planId: string) {
    const chosen = quotes.find((q) => q.plan.id === planId)!;
    setFailure(undefined);
    if (!chosen.pricing) return;
    setSaving(planId);
    draft.keep(texts);
    const result = await quoteApi(apis, generation).save(nrCotacao, 'planos', { selecao: chosen.selection });
    if (!result.ok && result.sessionEnded) return;
    draft.drop();
    if (!result.ok) {
      setSaving(undefined);
      setServerErrors(result.errors);
      setFailure(result.message);
      return;
    }
    goTo(stepPath(generation, line, nextStep(flow, 'planos')!, nrCotacao));
  }

  return (
    <div className="step-form">
      <StepAlerts restored={draft.restored} failure={failure} />
      <div className="plans">
        {quotes.map(({ plan, errors, pricing, best }) => {
          const chosen = selecao?.plan === plan.id;
          return (
            <section key={plan.id} className={`plan${chosen ? ' plan-chosen' : ''}`} aria-labelledby={`plano-${plan.id}`}>
              <header className="plan-header">
                <h2 id={`plano-${plan.id}`}>{plan.name}</h2>
                {chosen ? <span className="badge">Plano escolhido</span> : null}
                <p>{plan.description}</p>
              </header>
              <ul className="plan-coverages">
                {capitalsOf[plan.id]!.map((capital) => {
                  const key = `selecao.${capital.id}`;
                  const coverage = product.coverages.find((c) => c.id === capital.id);
                  const error = errors[capital.id] ?? (chosen ? serverErrors[key] : undefined);
                  return (
                    <li key={capital.id} className="plan-coverage" data-field={key}>
                      {capital.adjustable && !readOnly ? (
                        <MaskedInput
                          label={capital.name}
                          mask="money"
                          value={texts[plan.id]?.[capital.id] ?? ''}
                          error={error}
                          hint={`Entre ${formatBRL(capital.min)} e ${formatBRL(capital.max)}`}
                          onChange={(value) => setTexts((t) => ({ ...t, [plan.id]: { ...t[plan.id], [capital.id]: value } }))}
                        />
                      ) : (
                        <div className="plan-coverage-fixed">
                          <span className="plan-coverage-name">{capital.name}</span>
                          <strong>{formatBRL(pricing?.coverages.find((c) => c.id === capital.id)?.capital ?? capital.default)}</strong>
                        </div>
                      )}
                      {coverage ? <small className="plan-deductible">Franquia: {coverage.deductible}</small> : null}
                    </li>
                  );
                })}
              </ul>
              <div className="plan-price" aria-live="polite">
                {pricing ? (
                  <>
                    <span className="plan-total">{formatBRL(pricing.total)}</span>
                    <span className="plan-total-label">prêmio total por ano, com IOF</span>
                    {best ? (
                      <span>
                        ou {best.option.count}x de {formatBRL(best.option.other)} sem juros {best.phrase}
                      </span>
                    ) : null}
                  </>
                ) : (
                  <span className="plan-total-label">Ajuste os capitais para ver o prêmio.</span>
                )}
              </div>
              {readOnly ? null : (
                <Button
                  type="button"
                  block
                  variant={chosen ? 'primary' : 'secondary'}
                  loading={saving === plan.id}
                  disabled={!pricing || (saving !== undefined && saving !== plan.id)}
                  onClick={() => void choose(plan.id)}
                >
                  {chosen ? 'Continuar com este plano' : `Escolher ${plan.name}`}
                </Button>
              )}
            </section>
          );
        })}
      </div>
      <StepActions
        readOnly
        backHref={stepPath(generation, line, previousStep(flow, 'planos')!, nrCotacao, { action: readOnly ? 'visualizar' : 'editar' })}
        nextHref={
          readOnly && selecao ? stepPath(generation, line, nextStep(flow, 'planos')!, nrCotacao, { action: 'visualizar' }) : undefined
        }
      />
    </div>
  );
}
