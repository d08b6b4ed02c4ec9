import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button';
import { CheckboxField } from '../../components/ui/Choice';
import type { ApiBases } from '../../lib/http';
import { stepPath, type Generation } from '../../lib/quote-flow';
import type { ProductLine } from '../../lib/simulators';
import { goTo, quoteApi } from './quote-api';

interface Props {
  apis: ApiBases;
  generation: Generation;
  line: ProductLine;
  nrCotacao: string;
  finalStep: 'proposta' | 'finalizacao';
}

/**
 * The resumo's one interactive part: accepting the terms and sending the proposal. The button stays
 * busy until the answer arrives and the server answers a repeated send with the same proposal.
 */
export default function ProposalSubmit({ apis, generation, line, nrCotacao, finalStep }: Props) {
  const [accepted, setAccepted] = useState(false);
  const [error, setError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [sending, setSending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(undefined);
    if (!accepted) return setError('Para enviar a proposta, aceite o termo de presente proposta.');
    setError(undefined);
    setSending(true);
    const result = await quoteApi(apis, generation).propose(nrCotacao, true);
    if (!result.ok) {
      setSending(false);
      setError(result.errors.aceiteTermo);
      return setFailure(result.message);
    }
    goTo(stepPath(generation, line, finalStep, nrCotacao, { action: 'visualizar' }));
  }

  return (
    <form onSubmit={submit} noValidate className="proposal-submit" aria-label="Enviar proposta">
      {failure ? (
        <div className="alert alert-error" role="alert">
          {failure}
        </div>
      ) : null}
      <CheckboxField
        checked={accepted}
        error={error}
        onChange={(e) => setAccepted(e.target.checked)}
        label={
          <>
            Li e aceito o{' '}
            <a href="/termo-presente-proposta" target="_blank" rel="noopener">
              termo de presente proposta
            </a>
            .
          </>
        }
      />
      <Button type="submit" size="large" loading={sending}>
        Enviar proposta
      </Button>
    </form>
  );
}
