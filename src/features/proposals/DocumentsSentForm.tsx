import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button';
import { useHydrated } from '../../components/ui/useHydrated';
import { TextAreaField } from '../../components/ui/TextArea';
import { apiBaseOf, type ApiBases } from '../../lib/http';
import { DECISION_TEXT_MAX } from '../../lib/acceptance';
import { post } from '../../lib/post';

interface Props {
  apis: ApiBases;
  generation: 'v1' | 'v2';
  nrCotacao: string;
}

/**
 * The partner's answer to the insurer's request for documents: what was sent and how. Sending it
 * resumes the 25-day acceptance clock; the proposal page reloads with its new state.
 */
export default function DocumentsSentForm({ apis, generation, nrCotacao }: Props) {
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const ready = useHydrated();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setFailure(undefined);
    const result = await post(apis, apiBaseOf(generation), `/v1/cotacoes/${nrCotacao}/proposta/documentos`, { mensagem: message });
    if (result.ok) return window.location.reload();
    setBusy(false);
    setError(result.errors.mensagem?.[0]);
    if (!result.errors.mensagem) setFailure(result.message);
  }

  return (
    <form onSubmit={submit} noValidate className="documents-sent" aria-label="Informar envio dos documentos">
      {failure ? (
        <div className="alert alert-error" role="alert">
          {failure}
        </div>
      ) : null}
      <TextAreaField
        label="Documentos enviados"
        hint="Diga quais documentos enviou à seguradora e por qual canal."
        value={message}
        maxLength={DECISION_TEXT_MAX}
        error={error}
        onChange={(event) => setMessage(event.target.value)}
      />
      {/* Sending needs the island: until it runs, a click would only reload the page and lose the text. */}
      <Button type="submit" loading={busy} disabled={!ready}>
        Informar envio dos documentos
      </Button>
    </form>
  );
}
