import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button';
import { TextAreaField } from '../../components/ui/TextArea';
import type { ApiBases } from '../../lib/http';
import { DECISION_TEXT_MAX } from '../../lib/acceptance';
import { post } from './post';

interface Props {
  apis: ApiBases;
  nrProposta: string;
  /** Documents were asked for already: asking again is not offered. */
  waiting: boolean;
}

type Decision = 'ACEITAR' | 'RECUSAR' | 'SOLICITAR_DOCUMENTOS';
/** Each decision is confirmed on a second step; refusing and asking for documents say why (`label`). */
const DECISIONS: Record<Decision, { label?: string; question?: string; confirm: string }> = {
  ACEITAR: { question: 'Aceitar a proposta emite a apólice e avisa o vendedor e o segurado.', confirm: 'Confirmar aceite' },
  RECUSAR: { label: 'Motivo da recusa', confirm: 'Confirmar recusa' },
  SOLICITAR_DOCUMENTOS: { label: 'Documentos pedidos ao parceiro', confirm: 'Pedir documentos' },
};

/**
 * The ADMIN's decision on one proposal of the analysis queue: accept at once, or refuse / ask for
 * documents with a reason the partner will read. The queue reloads with the outcome.
 */
export default function ProposalDecision({ apis, nrProposta, waiting }: Props) {
  const [mode, setMode] = useState<Decision>();
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
      `/v1/propostas/${nrProposta}/decisao`,
      decisao === 'ACEITAR' ? { decisao } : { decisao, motivo: reason },
    );
    if (result.ok) return window.location.assign(`/v2/propostas/analise?decidida=${nrProposta}`);
    setBusy(false);
    setError(result.errors.motivo?.[0]);
    if (!result.errors.motivo) setFailure(result.message);
  }

  // A reason typed for one decision is never sent as another's.
  function choose(next: Decision | undefined) {
    setMode(next);
    setReason('');
    setError(undefined);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (mode) void decide(mode);
  }

  return (
    <div className="proposal-decision">
      {failure ? (
        <div className="alert alert-error" role="alert">
          {failure}
        </div>
      ) : null}
      {mode ? (
        <form onSubmit={submit} noValidate aria-label={`${DECISIONS[mode].confirm}: proposta ${nrProposta}`}>
          {DECISIONS[mode].question ? <p>{DECISIONS[mode].question}</p> : null}
          {DECISIONS[mode].label ? (
            <TextAreaField
              label={DECISIONS[mode].label}
              value={reason}
              maxLength={DECISION_TEXT_MAX}
              error={error}
              onChange={(event) => setReason(event.target.value)}
            />
          ) : null}
          <div className="decision-actions">
            <Button type="submit" loading={busy}>
              {DECISIONS[mode].confirm}
            </Button>
            <Button type="button" variant="outline" disabled={busy} onClick={() => choose(undefined)}>
              Voltar
            </Button>
          </div>
        </form>
      ) : (
        <div className="decision-actions">
          <Button type="button" onClick={() => choose('ACEITAR')}>
            Aceitar<span className="visually-hidden"> a proposta {nrProposta}</span>
          </Button>
          <Button type="button" variant="outline" disabled={busy} onClick={() => choose('RECUSAR')}>
            Recusar<span className="visually-hidden"> a proposta {nrProposta}</span>
          </Button>
          {waiting ? null : (
            <Button type="button" variant="outline" disabled={busy} onClick={() => choose('SOLICITAR_DOCUMENTOS')}>
              Pedir documentos<span className="visually-hidden"> da proposta {nrProposta}</span>
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
