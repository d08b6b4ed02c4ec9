import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button';
import { CheckboxField, RadioGroup } from '../../components/ui/Choice';
import type { ApiBases } from '../../lib/http';
import { coverageStepSchema, type CoverageInForce, type CoverageStep } from '../../lib/cancellation';
import { formatBRL } from '../../lib/products/money';
import { checked, sendStep, useStepForm } from './step-form';
import { FormAlert } from '../../components/ui/FormAlert';

interface Props {
  apis: ApiBases;
  generation: 'v1' | 'v2';
  idContratacao: number;
  /** The main coverage, which goes only with the whole policy. */
  main: CoverageInForce;
  /** The additional coverages the product lets go one by one; none when it does not. */
  droppable: CoverageInForce[];
  initial: CoverageStep | undefined;
  next: string;
}

/** The coberturas step: the whole policy, or some additional coverages where the product allows. */
export default function CoverageForm({ apis, generation, idContratacao, main, droppable, initial, next }: Props) {
  const [escopo, setEscopo] = useState<CoverageStep['escopo']>(initial?.escopo ?? 'TOTAL');
  const [chosen, setChosen] = useState<string[]>(initial?.escopo === 'PARCIAL' ? initial.coberturas : []);
  const { errors, setErrors, failure, setFailure, busy, ready, send } = useStepForm();
  const options = [
    { value: 'TOTAL', label: 'Cancelar a apólice inteira' },
    ...(droppable.length > 0 ? [{ value: 'PARCIAL', label: 'Cancelar só algumas coberturas adicionais' }] : []),
  ];

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(undefined);
    const answer = checked(coverageStepSchema, escopo === 'TOTAL' ? { escopo } : { escopo, coberturas: chosen });
    if (!answer.ok) return setErrors(answer.errors);
    setErrors({});
    await send(
      () => sendStep(apis, generation, idContratacao, '/coberturas', answer.data),
      () => window.location.assign(next),
    );
  }

  const toggle = (id: string, on: boolean) => setChosen((list) => (on ? [...list, id] : list.filter((c) => c !== id)));

  return (
    <form onSubmit={submit} noValidate aria-label="Coberturas a cancelar" className="step-form">
      <FormAlert message={failure} />
      <RadioGroup
        label="O que cancelar"
        name="escopo"
        options={options}
        value={escopo}
        onChange={(value) => setEscopo(value as CoverageStep['escopo'])}
        error={errors.escopo?.[0]}
      />
      {droppable.length === 0 ? (
        <p className="hint">Este produto não permite cancelar coberturas separadamente: o cancelamento é da apólice inteira.</p>
      ) : null}
      {escopo === 'PARCIAL' ? (
        <fieldset className="field coverage-choice" aria-describedby={errors.coberturas ? 'coberturas-erro' : undefined}>
          <legend className="field-label">Coberturas adicionais a cancelar</legend>
          <p className="hint">A cobertura básica ({main.name}) continua: ela só sai com a apólice inteira.</p>
          {droppable.map((c) => (
            <CheckboxField
              key={c.id}
              label={`${c.name} — prêmio ${formatBRL(c.premium)}`}
              checked={chosen.includes(c.id)}
              onChange={(event) => toggle(c.id, event.target.checked)}
            />
          ))}
          {errors.coberturas ? (
            <p className="field-error" id="coberturas-erro" role="alert">
              {errors.coberturas[0]}
            </p>
          ) : null}
        </fieldset>
      ) : null}
      <Button type="submit" loading={busy} disabled={!ready}>
        Ver o resumo
      </Button>
    </form>
  );
}
