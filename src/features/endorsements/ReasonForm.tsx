import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button';
import { Field } from '../../components/ui/Field';
import { RadioGroup, SelectField } from '../../components/ui/Choice';
import { TextAreaField } from '../../components/ui/TextArea';
import type { ApiBases } from '../../lib/http';
import {
  BACKDATE_LIMIT_DAYS,
  DETAIL_MAX,
  effectiveDayErrors,
  reasonStepSchema,
  type EffectiveDayRules,
  type ReasonStep,
} from '../../lib/cancellation';
import { CANCELLATION_REASONS, REQUESTER_LABELS } from '../../lib/endorsements';
import type { Requester } from '../../lib/refund';
import { checked, sendStep, useStepForm } from './step-form';
import { FormAlert } from '../../components/ui/FormAlert';

interface Props {
  apis: ApiBases;
  generation: 'v1' | 'v2';
  idContratacao: number;
  /** The term, today and whether this viewer may date back: the server checks the same rules. */
  rules: EffectiveDayRules;
  /** The first and last day the date field offers. */
  window: { min: string; max: string };
  /** The answer kept in the draft (a reload resumes it), or today's day for a new one. */
  initial: Partial<ReasonStep>;
  next: string;
}

const REQUESTERS = (Object.keys(REQUESTER_LABELS) as Requester[]).map((value) => ({ value, label: REQUESTER_LABELS[value] }));

const DATE_HINTS = {
  partner: 'De hoje até o fim da vigência. Um dia adiante fica agendado: a apólice segue em vigor até lá.',
  staff: `Até ${BACKDATE_LIMIT_DAYS} dias antes de hoje, com justificativa, e até o fim da vigência. Um dia adiante fica agendado.`,
} as const;

/** The motivo step: who asks, why, and from which day the cancellation takes effect. */
export default function ReasonForm({ apis, generation, idContratacao, rules, window: days, initial, next }: Props) {
  const [solicitante, setSolicitante] = useState<Requester>(initial.solicitante ?? 'SEGURADO');
  const [motivo, setMotivo] = useState(initial.motivo ?? '');
  const [detalhe, setDetalhe] = useState(initial.detalhe ?? '');
  const [efetivaEm, setEfetivaEm] = useState(initial.efetivaEm ?? '');
  const { errors, setErrors, failure, setFailure, busy, ready, send } = useStepForm();
  // Only the insurer's staff may date it back (decision 055): for anyone else a past day is just refused.
  const backdated = rules.insurerStaff && efetivaEm !== '' && efetivaEm < rules.today;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(undefined);
    const answer = checked(reasonStepSchema, { solicitante, motivo, detalhe: detalhe || undefined, efetivaEm });
    const found = answer.ok ? effectiveDayErrors(answer.data, rules) : answer.errors;
    setErrors(found);
    if (!answer.ok || Object.keys(found).length > 0) return;
    await send(
      () => sendStep(apis, generation, idContratacao, '/motivo', answer.data),
      () => window.location.assign(next),
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Motivo do cancelamento" className="step-form">
      <FormAlert message={failure} />
      <RadioGroup
        label="Quem pede o cancelamento"
        name="solicitante"
        options={REQUESTERS}
        value={solicitante}
        onChange={(value) => {
          setSolicitante(value as Requester);
          setMotivo('');
        }}
        error={errors.solicitante?.[0]}
      />
      <SelectField
        label="Motivo"
        placeholder="Selecione"
        options={CANCELLATION_REASONS[solicitante]}
        value={motivo}
        onChange={(event) => setMotivo(event.target.value)}
        error={errors.motivo?.[0]}
      />
      <TextAreaField
        label={backdated ? 'Justificativa da data retroativa' : motivo === 'OUTRO' ? 'Descreva o motivo' : 'Observações (opcional)'}
        value={detalhe}
        maxLength={DETAIL_MAX}
        onChange={(event) => setDetalhe(event.target.value)}
        error={errors.detalhe?.[0]}
      />
      <Field
        label="Cancelar a partir de"
        type="date"
        min={days.min}
        max={days.max}
        value={efetivaEm}
        hint={rules.insurerStaff ? DATE_HINTS.staff : DATE_HINTS.partner}
        onChange={(event) => setEfetivaEm(event.target.value)}
        error={errors.efetivaEm?.[0]}
      />
      <Button type="submit" loading={busy} disabled={!ready}>
        Continuar
      </Button>
    </form>
  );
}
