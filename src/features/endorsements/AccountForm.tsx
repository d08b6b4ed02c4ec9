import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button';
import { Field } from '../../components/ui/Field';
import { MaskedInput } from '../../components/ui/MaskedInput';
import { RadioGroup, SelectField } from '../../components/ui/Choice';
import { ConfirmDialog } from '../../components/ui/Dialog';
import type { ApiBases } from '../../lib/http';
import { BANKS } from '../../lib/contracting';
import { cancellationPath } from '../../lib/cancellation';
import { ACCOUNT_TYPES, refundAccountSchema } from '../../lib/refund-account';
import { formatBRL } from '../../lib/products/money';
import { formatIsoDate } from '../../lib/format';
import { checked, sendStep, useStepForm } from './step-form';
import { FormAlert } from '../../components/ui/FormAlert';

interface Props {
  apis: ApiBases;
  generation: 'v1' | 'v2';
  idContratacao: number;
  /** The draft's key: the confirmation names it, so sending it twice cancels once. */
  chave: string;
  /** What comes back to the insured; zero asks for no account — unless scheduled. */
  refund: number;
  /** The day a cancellation ahead is scheduled for: the refund is known only then, so an account is always asked. */
  scheduledFor?: string;
  insuredName: string;
  /** The insured's whole CPF/CNPJ, as digits: an account or key of someone else is refused here too. */
  insuredDocument: string;
  /** What the confirmation does, in a sentence: the dialog asks it once more. */
  consequence: string;
}

const KINDS = [
  { value: 'CONTA', label: 'Conta bancária' },
  { value: 'PIX', label: 'Pix' },
];

/**
 * The last step: where the refund goes — an account of the insured's or their CPF/CNPJ Pix key — and
 * the confirmation, asked once more in a dialog. The button stays busy until the answer, and the
 * server confirms a draft once, so a double click or a second tab never cancels twice.
 */
export default function AccountForm({
  apis,
  generation,
  idContratacao,
  chave,
  refund,
  scheduledFor,
  insuredName,
  insuredDocument,
  consequence,
}: Props) {
  const asksAccount = refund > 0 || scheduledFor !== undefined;
  const [tipo, setTipo] = useState<'CONTA' | 'PIX'>('PIX');
  const [values, setValues] = useState({ banco: '', agencia: '', conta: '', tipoConta: 'corrente', titular: '', chave: '' });
  const { errors, setErrors, failure, setFailure, busy, ready, send } = useStepForm();
  const [asking, setAsking] = useState(false);
  const set = (name: keyof typeof values) => (value: string) => setValues((v) => ({ ...v, [name]: value }));
  const account = () =>
    tipo === 'PIX'
      ? { tipo, chave: values.chave }
      : { tipo, banco: values.banco, agencia: values.agencia, conta: values.conta, tipoConta: values.tipoConta, titular: values.titular };

  function review(event: FormEvent) {
    event.preventDefault();
    setFailure(undefined);
    if (asksAccount) {
      const answer = checked(refundAccountSchema(insuredDocument), account());
      setErrors(answer.ok ? {} : answer.errors);
      if (!answer.ok) return;
    }
    setAsking(true);
  }

  async function confirm() {
    setAsking(false);
    await send(
      () =>
        sendStep<{ nrEndosso: string | null }>(apis, generation, idContratacao, '', asksAccount ? { chave, conta: account() } : { chave }),
      // A schedule has no endorsement yet: its page shows the one the policy has.
      ({ nrEndosso }) =>
        window.location.assign(
          cancellationPath(
            generation,
            'sucesso',
            nrEndosso ? { contratacao: idContratacao, endosso: nrEndosso } : { contratacao: idContratacao },
          ),
        ),
      // The account's fields are named in the form as they are inside `conta` on the server.
      (key) => key.replace(/^conta\./, ''),
    );
  }

  return (
    <form onSubmit={review} noValidate aria-label="Conta para a restituição" className="step-form">
      <FormAlert message={failure} />
      {asksAccount ? (
        <>
          {scheduledFor ? (
            <p>
              O cancelamento fica agendado para <strong>{formatIsoDate(scheduledFor)}</strong>. A restituição, se houver, é calculada nesse
              dia pelo que estiver pago (hoje seria de <strong>{formatBRL(refund)}</strong>) e paga a {insuredName}, em conta ou chave Pix
              do próprio segurado.
            </p>
          ) : (
            <p>
              A restituição de <strong>{formatBRL(refund)}</strong> é paga a {insuredName}, em conta ou chave Pix do próprio segurado.
            </p>
          )}
          <RadioGroup
            label="Receber por"
            name="tipo"
            options={KINDS}
            value={tipo}
            onChange={(v) => setTipo(v as 'CONTA' | 'PIX')}
            error={errors.tipo?.[0]}
          />
          {tipo === 'PIX' ? (
            <Field
              label="Chave Pix"
              hint="A chave de CPF ou CNPJ do segurado: chaves de e-mail, celular e aleatórias não mostram de quem são."
              value={values.chave}
              maxLength={77}
              autoComplete="off"
              onChange={(e) => set('chave')(e.target.value)}
              error={errors.chave?.[0]}
            />
          ) : (
            <div className="account-grid">
              <SelectField
                label="Banco"
                placeholder="Selecione"
                options={BANKS}
                value={values.banco}
                onChange={(e) => set('banco')(e.target.value)}
                error={errors.banco?.[0]}
              />
              <Field
                label="Agência (sem dígito)"
                inputMode="numeric"
                maxLength={5}
                value={values.agencia}
                onChange={(e) => set('agencia')(e.target.value)}
                error={errors.agencia?.[0]}
              />
              <Field
                label="Conta com dígito"
                inputMode="numeric"
                maxLength={15}
                value={values.conta}
                onChange={(e) => set('conta')(e.target.value)}
                error={errors.conta?.[0]}
              />
              <RadioGroup
                label="Tipo de conta"
                name="tipoConta"
                options={ACCOUNT_TYPES}
                value={values.tipoConta}
                onChange={set('tipoConta')}
                error={errors.tipoConta?.[0]}
              />
              <MaskedInput
                label="CPF/CNPJ do titular"
                mask="document"
                value={values.titular}
                onChange={set('titular')}
                hint="O titular da conta deve ser o segurado."
                error={errors.titular?.[0]}
              />
            </div>
          )}
        </>
      ) : (
        <p>Não há valor a restituir: nada do prêmio pago fica a devolver. Nenhuma conta é necessária.</p>
      )}
      <Button type="submit" loading={busy} disabled={busy || !ready}>
        {scheduledFor ? 'Agendar cancelamento' : 'Confirmar cancelamento'}
      </Button>
      <ConfirmDialog
        open={asking}
        title={scheduledFor ? 'Agendar o cancelamento?' : 'Confirmar o cancelamento?'}
        text={`${consequence} ${scheduledFor ? 'Até esse dia o agendamento pode ser desfeito.' : 'Esta ação não pode ser desfeita.'}`}
        confirmLabel={scheduledFor ? 'Sim, agendar' : 'Sim, cancelar'}
        cancelLabel="Voltar"
        onConfirm={confirm}
        onCancel={() => setAsking(false)}
      />
    </form>
  );
}
