import { useState, type FormEvent } from 'react';
import * as z from 'zod/mini';
import { Button } from '../../components/ui/Button';
import { Field } from '../../components/ui/Field';
import { RadioGroup, SelectField } from '../../components/ui/Choice';
import {
  asksDueDay,
  BANKS,
  BENEFICIARY_NAME_MAX_LENGTH,
  contractingSchema,
  DUE_DAYS,
  FIRST_DUE_AFTER_DAYS,
  RELATIONSHIPS,
  type Contracting,
} from '../../lib/contracting';
import type { ApiBases } from '../../lib/http';
import { productFor } from '../../lib/products/catalog';
import { DEFAULT_PAYMENT_METHOD, installmentOptions, PAYMENT_METHODS } from '../../lib/products/engine';
import { formatBRL } from '../../lib/products/money';
import type { InstallmentOption, PaymentMethod } from '../../lib/products/types';
import { nextStep, previousStep, stepPath, type Generation } from '../../lib/quote-flow';
import type { ProductLine } from '../../lib/simulators';
import { issuesToErrors, type FieldErrors } from './form';
import { useStepForm } from './useStepForm';
import { StepAlerts } from './StepAlerts';
import { StepActions } from './StepActions';
import { quoteApi } from './quote-api';

interface Props {
  apis: ApiBases;
  generation: Generation;
  code: string;
  line: ProductLine;
  nrCotacao: string;
  /** The priced total (centavos) the installments split. */
  total: number;
  contratacao: Contracting | null;
  readOnly: boolean;
}

interface Beneficiary {
  nome: string;
  parentesco: string;
  percentual: string;
}

interface ContractingDraft {
  method: PaymentMethod;
  count: string;
  dueDay: string;
  debit: { banco: string; agencia: string; conta: string };
  beneficiaries: Beneficiary[];
}

export const installmentLabel = (option: InstallmentOption): string => {
  if (option.count === 1) return `À vista: ${formatBRL(option.total)}`;
  const each =
    option.first === option.other
      ? `${option.count}x de ${formatBRL(option.other)}`
      : `1x de ${formatBRL(option.first)} + ${option.count - 1}x de ${formatBRL(option.other)}`;
  return `${each} ${option.interestFree ? 'sem juros' : `com juros (total ${formatBRL(option.total)})`}`;
};

/**
 * Contratação: payment method, installments with their values, due day, the debit account, and the
 * beneficiaries of a life policy. The card number is not asked here (docs/decisions/017).
 */
export default function ContratacaoStep({ apis, generation, code, line, nrCotacao, total, contratacao, readOnly }: Props) {
  const product = productFor(code)!;
  const flow = { hasRisk: product.riskQuestions.length > 0, finalStep: product.finalStep };
  const [method, setMethod] = useState<PaymentMethod>(contratacao?.formaPagamento ?? DEFAULT_PAYMENT_METHOD);
  const [count, setCount] = useState(String(contratacao?.parcelas ?? 1));
  const [dueDay, setDueDay] = useState(String(contratacao?.diaVencimento ?? 10));
  const [debit, setDebit] = useState({
    banco: contratacao?.debito?.banco ?? '',
    agencia: contratacao?.debito?.agencia ?? '',
    conta: contratacao?.debito?.conta ?? '',
  });
  const [beneficiaries, setBeneficiaries] = useState<Beneficiary[]>(() =>
    (contratacao?.beneficiarios ?? []).map((b) => ({ nome: b.nome, parentesco: b.parentesco, percentual: String(b.percentual) })),
  );
  const {
    form,
    errors,
    failure,
    submitting,
    submit: save,
    restored,
  } = useStepForm<ContractingDraft>({
    values: () => ({ method, count, dueDay, debit, beneficiaries }),
    restore: (draft) => {
      setMethod(draft.method);
      setCount(draft.count);
      setDueDay(draft.dueDay);
      setDebit(draft.debit);
      setBeneficiaries(draft.beneficiaries);
    },
    enabled: !readOnly,
  });

  const options = installmentOptions(product, total, method);
  const chosen = options.find((o) => String(o.count) === count);

  function changeMethod(value: string) {
    setMethod(value as PaymentMethod);
    // Keep the count when the new method offers it; else fall back to paying at once.
    if (!installmentOptions(product, total, value as PaymentMethod).some((o) => String(o.count) === count)) setCount('1');
  }

  const setBeneficiary = (index: number, patch: Partial<Beneficiary>) =>
    setBeneficiaries((list) => list.map((b, i) => (i === index ? { ...b, ...patch } : b)));

  function submit(event: FormEvent) {
    event.preventDefault();
    const body = {
      formaPagamento: method,
      parcelas: Number(count),
      ...(asksDueDay(method) ? { diaVencimento: Number(dueDay) } : {}),
      ...(method === 'debito' ? { debito: debit } : {}),
      ...(product.beneficiaries && beneficiaries.length > 0
        ? { beneficiarios: beneficiaries.map((b) => ({ ...b, percentual: Number(b.percentual.replace(/\D/g, '') || NaN) })) }
        : {}),
    };
    const checked = z.safeParse(contractingSchema, body);
    const found: FieldErrors = checked.success ? {} : issuesToErrors(checked.error, 'contratacao');
    if (!chosen) found['contratacao.parcelas'] ??= 'Escolha o número de parcelas.';
    void save(
      found,
      () => quoteApi(apis, generation).save(nrCotacao, 'contratacao', { contratacao: body }),
      () => stepPath(generation, line, nextStep(flow, 'contratacao')!, nrCotacao),
    );
  }

  return (
    <form ref={form} onSubmit={submit} noValidate className="step-form" aria-label="Contratação">
      <StepAlerts restored={restored} failure={failure} />
      <fieldset disabled={readOnly} className="step-fieldset">
        <section className="step-section">
          <h2>Pagamento</h2>
          <p>
            Prêmio total: <strong>{formatBRL(total)}</strong>
          </p>
          <div data-field="contratacao.formaPagamento">
            <RadioGroup
              label="Forma de pagamento"
              name="formaPagamento"
              value={method}
              onChange={changeMethod}
              error={errors['contratacao.formaPagamento']}
              options={PAYMENT_METHODS.map((m) => ({ value: m.value, label: m.label }))}
            />
          </div>
          <div className="step-grid">
            <div data-field="contratacao.parcelas">
              <SelectField
                label="Parcelas"
                value={count}
                onChange={(e) => setCount(e.target.value)}
                error={errors['contratacao.parcelas']}
                options={options.map((o) => ({ value: String(o.count), label: installmentLabel(o) }))}
              />
            </div>
            {asksDueDay(method) ? (
              <div data-field="contratacao.diaVencimento">
                <SelectField
                  label="Dia de vencimento"
                  value={dueDay}
                  onChange={(e) => setDueDay(e.target.value)}
                  error={errors['contratacao.diaVencimento']}
                  options={DUE_DAYS.map((d) => ({ value: String(d), label: `Dia ${d}` }))}
                />
              </div>
            ) : null}
          </div>
          {asksDueDay(method) ? null : (
            <p className="alert alert-info">O Pix é pago à vista: vence {FIRST_DUE_AFTER_DAYS} dias após a emissão da apólice.</p>
          )}
          {method === 'cartao' ? (
            <p className="alert alert-info">
              Os dados do cartão serão pedidos pela seguradora, em ambiente seguro, depois do envio da proposta.
            </p>
          ) : null}
          {method === 'debito' ? (
            <div className="step-grid">
              <div data-field="contratacao.debito.banco">
                <SelectField
                  label="Banco"
                  placeholder="Selecione"
                  options={BANKS}
                  value={debit.banco}
                  error={errors['contratacao.debito.banco']}
                  onChange={(e) => setDebit((d) => ({ ...d, banco: e.target.value }))}
                />
              </div>
              <div data-field="contratacao.debito.agencia">
                <Field
                  label="Agência"
                  inputMode="numeric"
                  maxLength={5}
                  value={debit.agencia}
                  error={errors['contratacao.debito.agencia']}
                  onChange={(e) => setDebit((d) => ({ ...d, agencia: e.target.value.replace(/\D/g, '') }))}
                />
              </div>
              <div data-field="contratacao.debito.conta">
                <Field
                  label="Conta com dígito"
                  inputMode="numeric"
                  maxLength={15}
                  value={debit.conta}
                  error={errors['contratacao.debito.conta']}
                  onChange={(e) => setDebit((d) => ({ ...d, conta: e.target.value.replace(/[^\d-]/g, '') }))}
                />
              </div>
            </div>
          ) : null}
        </section>

        {product.beneficiaries ? (
          <section className="step-section" data-field="contratacao.beneficiarios">
            <h2>Beneficiários</h2>
            <p>Sem beneficiários indicados, o capital é pago aos herdeiros legais. Os percentuais devem somar 100%.</p>
            {errors['contratacao.beneficiarios'] ? (
              <p className="field-error" role="alert">
                {errors['contratacao.beneficiarios']}
              </p>
            ) : null}
            {beneficiaries.map((b, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a row is its position, as the API's errors name it (beneficiarios.N)
              <div key={index} className="beneficiary step-grid">
                <div data-field={`contratacao.beneficiarios.${index}.nome`}>
                  <Field
                    label={`Nome do beneficiário ${index + 1}`}
                    maxLength={BENEFICIARY_NAME_MAX_LENGTH}
                    value={b.nome}
                    error={errors[`contratacao.beneficiarios.${index}.nome`]}
                    onChange={(e) => setBeneficiary(index, { nome: e.target.value })}
                  />
                </div>
                <div data-field={`contratacao.beneficiarios.${index}.parentesco`}>
                  <SelectField
                    label="Parentesco"
                    placeholder="Selecione"
                    options={RELATIONSHIPS}
                    value={b.parentesco}
                    error={errors[`contratacao.beneficiarios.${index}.parentesco`]}
                    onChange={(e) => setBeneficiary(index, { parentesco: e.target.value })}
                  />
                </div>
                <div data-field={`contratacao.beneficiarios.${index}.percentual`}>
                  <Field
                    label="Percentual (%)"
                    inputMode="numeric"
                    maxLength={3}
                    value={b.percentual}
                    error={errors[`contratacao.beneficiarios.${index}.percentual`]}
                    onChange={(e) => setBeneficiary(index, { percentual: e.target.value.replace(/\D/g, '') })}
                  />
                </div>
                <Button
                  type="button"
                  variant="outline"
                  size="small"
                  onClick={() => setBeneficiaries((list) => list.filter((_, i) => i !== index))}
                >
                  Remover beneficiário {index + 1}
                </Button>
              </div>
            ))}
            {beneficiaries.length < 5 ? (
              <Button
                type="button"
                variant="secondary"
                size="small"
                onClick={() =>
                  setBeneficiaries((list) => [...list, { nome: '', parentesco: '', percentual: list.length === 0 ? '100' : '' }])
                }
              >
                Adicionar beneficiário
              </Button>
            ) : null}
          </section>
        ) : null}
      </fieldset>
      <StepActions
        readOnly={readOnly}
        submitting={submitting}
        backHref={stepPath(generation, line, previousStep(flow, 'contratacao')!, nrCotacao, { action: readOnly ? 'visualizar' : 'editar' })}
        nextHref={contratacao ? stepPath(generation, line, nextStep(flow, 'contratacao')!, nrCotacao, { action: 'visualizar' }) : undefined}
      />
    </form>
  );
}
