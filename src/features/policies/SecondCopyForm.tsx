import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button';
import { Field } from '../../components/ui/Field';
import { apiBaseOf, type ApiBases } from '../../lib/http';
import { post } from '../../lib/post';

interface Props {
  apis: ApiBases;
  generation: 'v1' | 'v2';
  nrApolice: string;
  numero: number;
  /** ISO days the new due date may take: today up to ten days ahead. */
  min: string;
  max: string;
}

/**
 * The 2ª via of an overdue installment: a new due date, and the server works out the fine and
 * interest up to it; the page reloads with the new boleto and Pix.
 */
export default function SecondCopyForm({ apis, generation, nrApolice, numero, min, max }: Props) {
  const [date, setDate] = useState(min);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const result = await post(apis, apiBaseOf(generation), `/v1/apolices/${nrApolice}/parcelas/${numero}/segunda-via`, {
      vencimento: date,
    });
    if (result.ok) return window.location.reload();
    setBusy(false);
    setError(result.errors.vencimento?.[0] ?? result.message);
  }

  return (
    <form onSubmit={submit} noValidate className="second-copy" aria-label={`2ª via da parcela ${numero}`}>
      <Field
        label="Novo vencimento"
        type="date"
        value={date}
        min={min}
        max={max}
        error={error}
        onChange={(event) => setDate(event.target.value)}
      />
      <Button type="submit" size="small" loading={busy}>
        Emitir 2ª via<span className="visually-hidden"> da parcela {numero}</span>
      </Button>
    </form>
  );
}
