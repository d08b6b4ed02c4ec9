import { useState, type FormEvent } from 'react';
import * as z from 'zod/mini';
import type { ApiBases } from '../../lib/http';
import { productFor } from '../../lib/products/catalog';
import { answersSchema } from '../../lib/products/questions';
import type { Answers } from '../../lib/products/types';
import { nextStep, previousStep, stepPath, type Generation } from '../../lib/quote-flow';
import type { ProductLine } from '../../lib/simulators';
import { answersFromTexts, issuesToErrors, textsFromAnswers } from './form';
import { useStepForm } from './useStepForm';
import { StepAlerts } from './StepAlerts';
import { QuestionInput } from './QuestionInput';
import { StepActions } from './StepActions';
import { quoteApi } from './quote-api';

interface Props {
  apis: ApiBases;
  generation: Generation;
  code: string;
  line: ProductLine;
  nrCotacao: string;
  risco: Answers | null;
  readOnly: boolean;
}

/** Risco (agricultural, machinery, business and personal items — SPEC §4): what is insured and how. */
export default function RiscoStep({ apis, generation, code, line, nrCotacao, risco, readOnly }: Props) {
  const product = productFor(code)!;
  const questions = product.riskQuestions;
  const flow = { hasRisk: true, finalStep: product.finalStep };
  const [texts, setTexts] = useState(() => textsFromAnswers(questions, risco));
  const {
    form,
    errors,
    failure,
    submitting,
    submit: save,
    restored,
  } = useStepForm<Record<string, string>>({
    values: () => texts,
    restore: (draft) => setTexts((t) => ({ ...t, ...draft })),
    enabled: !readOnly,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const answers = answersFromTexts(questions, texts);
    const checked = z.safeParse(answersSchema(questions), answers);
    void save(
      checked.success ? {} : issuesToErrors(checked.error, 'risco'),
      () => quoteApi(apis, generation).save(nrCotacao, 'risco', { risco: answers }),
      () => stepPath(generation, line, nextStep(flow, 'risco')!, nrCotacao),
    );
  }

  return (
    <form ref={form} onSubmit={submit} noValidate className="step-form" aria-label="Dados do risco">
      <StepAlerts restored={restored} failure={failure} />
      <fieldset disabled={readOnly} className="step-fieldset">
        <section className="step-section">
          <h2>Dados do risco</h2>
          <div className="step-grid">
            {questions.map((question) => (
              <QuestionInput
                key={question.name}
                question={question}
                fieldKey={`risco.${question.name}`}
                value={texts[question.name] ?? ''}
                error={errors[`risco.${question.name}`]}
                onChange={(value) => setTexts((t) => ({ ...t, [question.name]: value }))}
              />
            ))}
          </div>
        </section>
      </fieldset>
      <StepActions
        readOnly={readOnly}
        submitting={submitting}
        backHref={stepPath(generation, line, previousStep(flow, 'risco')!, nrCotacao, { action: readOnly ? 'visualizar' : 'editar' })}
        nextHref={stepPath(generation, line, nextStep(flow, 'risco')!, nrCotacao, { action: 'visualizar' })}
      />
    </form>
  );
}
