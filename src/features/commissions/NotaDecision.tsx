import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button';
import { FormAlert } from '../../components/ui/FormAlert';
import { TextAreaField } from '../../components/ui/TextArea';
import type { ApiBases } from '../../lib/http';
import { COMMISSION_PAGES } from '../../lib/commissions';
import { NOTA_REASON_MAX, NOTA_TRANSITIONS, type NotaDecision as Decision } from '../../lib/nota-fiscal';
import { post } from '../../lib/post';

interface Props {
  apis: ApiBases;
  id: number;
  /** What the nota is, for the buttons' accessible names ('nota 123 de março de 2026'). */
  label: string;
  /** The decisions its state still takes (lib/nota-fiscal.ts decisionsFor). */
  decisions: Decision[];
}

/**
 * The insurer's ADMIN deciding one nota fiscal: approve, refuse with a reason the partner will read,
 * or record its payment. Refusing asks for the reason on a second step; the list reloads with the outcome.
 */
export default function NotaDecision({ apis, id, label, decisions }: Props) {
  const [refusing, setRefusing] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function decide(decisao: Decision) {
    setBusy(true);
    setFailure(undefined);
    const result = await post(
      apis,
      'bff',
      `/v1/comissoes/notas/${id}/decisao`,
      decisao === 'RECUSAR' ? { decisao, motivo: reason } : { decisao },
    );
    if (result.ok) return window.location.assign(`${COMMISSION_PAGES.notas}?decidida=${id}#nota-${id}`);
    setBusy(false);
    setError(result.errors.motivo?.[0]);
    if (!result.errors.motivo) setFailure(result.message);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void decide('RECUSAR');
  }

  if (refusing)
    return (
      <form onSubmit={submit} noValidate className="nota-decision" aria-label={`Recusar ${label}`}>
        <FormAlert message={failure} />
        <TextAreaField
          label="Motivo da recusa"
          value={reason}
          maxLength={NOTA_REASON_MAX}
          error={error}
          onChange={(event) => setReason(event.target.value)}
        />
        <div className="decision-actions">
          <Button type="submit" loading={busy}>
            Confirmar recusa
          </Button>
          <Button type="button" variant="outline" disabled={busy} onClick={() => setRefusing(false)}>
            Voltar
          </Button>
        </div>
      </form>
    );
  return (
    <div className="nota-decision">
      <FormAlert message={failure} />
      <div className="decision-actions">
        {decisions.map((decision) => (
          <Button
            key={decision}
            type="button"
            variant={decision === 'RECUSAR' ? 'outline' : 'primary'}
            loading={busy && decision !== 'RECUSAR'}
            disabled={busy}
            onClick={() => (decision === 'RECUSAR' ? setRefusing(true) : void decide(decision))}
          >
            {NOTA_TRANSITIONS[decision].label}
            <span className="visually-hidden"> {label}</span>
          </Button>
        ))}
      </div>
    </div>
  );
}
