import { useState, type FormEvent, type MouseEvent } from 'react';
import { Button, buttonClass } from '../../components/ui/Button';
import { TextAreaField } from '../../components/ui/TextArea';
import type { ApiBases } from '../../lib/http';
import { DECISION_TEXT_MAX } from '../../lib/acceptance';
import type { DecisionKind } from '../../lib/proposal-decision';
import { post } from '../../lib/post';

interface Props {
  apis: ApiBases;
  nrProposta: string;
  /** Documents were asked for already: asking again is not offered. */
  waiting: boolean;
  /** A decision chosen, or sent and refused, before this island ran (the page's own GET and POST). */
  initialMode?: DecisionKind;
  initialReason?: string;
  initialError?: string;
  initialFailure?: string;
  /** The queue's page this proposal is on (`pagina=2&cursor=…`): a choice made without the script comes back to it. */
  at?: string;
}

/** Each decision is confirmed on a second step; refusing and asking for documents say why (`label`). */
const DECISIONS: Record<DecisionKind, { label?: string; question?: string; confirm: string }> = {
  ACEITAR: { question: 'Aceitar a proposta emite a apólice e avisa o vendedor e o segurado.', confirm: 'Confirmar aceite' },
  RECUSAR: { label: 'Motivo da recusa', confirm: 'Confirmar recusa' },
  SOLICITAR_DOCUMENTOS: { label: 'Documentos pedidos ao parceiro', confirm: 'Pedir documentos' },
};

const QUEUE = '/v2/propostas/analise';

/**
 * The ADMIN's decision on one proposal of the analysis queue: accept at once, or refuse / ask for
 * documents with a reason the partner will read. Plain forms underneath (decision 057): before this
 * island runs, choosing is a GET that reopens the queue with this form open and confirming a POST the
 * page decides; once it runs, both happen here and the queue reloads with the outcome.
 */
export default function ProposalDecision({
  apis,
  nrProposta,
  waiting,
  initialMode,
  initialReason,
  initialError,
  initialFailure,
  at,
}: Props) {
  const [mode, setMode] = useState<DecisionKind | undefined>(initialMode);
  const [reason, setReason] = useState(initialReason ?? '');
  const [error, setError] = useState<string | undefined>(initialError);
  const [failure, setFailure] = useState<string | undefined>(initialFailure);
  const [busy, setBusy] = useState(false);
  const anchor = `#proposta-${nrProposta}`;
  const page = at ? `${QUEUE}?${at}` : QUEUE;

  async function decide(decisao: DecisionKind, motivo: string) {
    setBusy(true);
    setFailure(undefined);
    const result = await post(
      apis,
      'bff',
      `/v1/propostas/${nrProposta}/decisao`,
      decisao === 'ACEITAR' ? { decisao } : { decisao, motivo },
    );
    if (result.ok) return window.location.assign(`${QUEUE}?decidida=${nrProposta}`);
    setBusy(false);
    setError(result.errors.motivo?.[0]);
    if (!result.errors.motivo) setFailure(result.message);
  }

  // A reason typed for one decision is never sent as another's.
  function choose(next: DecisionKind | undefined) {
    setMode(next);
    setReason('');
    setError(undefined);
    setFailure(undefined);
  }

  const chooseHere = (next: DecisionKind | undefined) => (event: MouseEvent) => {
    event.preventDefault();
    if (!busy) choose(next);
  };

  // The text as the form holds it: typed before the island hydrated, it is in the field, not yet in state.
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const typed = new FormData(event.currentTarget).get('motivo');
    if (mode) void decide(mode, typeof typed === 'string' ? typed : reason);
  }

  return (
    <div className="proposal-decision">
      {failure ? (
        <div className="alert alert-error" role="alert">
          {failure}
        </div>
      ) : null}
      {mode ? (
        <form
          method="post"
          action={`${page}${anchor}`}
          onSubmit={submit}
          noValidate
          aria-label={`${DECISIONS[mode].confirm}: proposta ${nrProposta}`}
        >
          <input type="hidden" name="nrProposta" value={nrProposta} />
          <input type="hidden" name="decisao" value={mode} />
          {DECISIONS[mode].question ? <p>{DECISIONS[mode].question}</p> : null}
          {DECISIONS[mode].label ? (
            <TextAreaField
              label={DECISIONS[mode].label}
              name="motivo"
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
            <a
              className={buttonClass('outline')}
              href={`${page}${anchor}`}
              aria-disabled={busy || undefined}
              onClick={chooseHere(undefined)}
            >
              Voltar
            </a>
          </div>
        </form>
      ) : (
        <form method="get" action={`${QUEUE}${anchor}`} className="decision-actions" aria-label={`Decidir a proposta ${nrProposta}`}>
          {[...new URLSearchParams(at).entries()].map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <input type="hidden" name="decidir" value={nrProposta} />
          <Button type="submit" name="acao" value="ACEITAR" onClick={chooseHere('ACEITAR')}>
            Aceitar<span className="visually-hidden"> a proposta {nrProposta}</span>
          </Button>
          <Button type="submit" name="acao" value="RECUSAR" variant="outline" onClick={chooseHere('RECUSAR')}>
            Recusar<span className="visually-hidden"> a proposta {nrProposta}</span>
          </Button>
          {waiting ? null : (
            <Button type="submit" name="acao" value="SOLICITAR_DOCUMENTOS" variant="outline" onClick={chooseHere('SOLICITAR_DOCUMENTOS')}>
              Pedir documentos<span className="visually-hidden"> da proposta {nrProposta}</span>
            </Button>
          )}
        </form>
      )}
    </div>
  );
}
