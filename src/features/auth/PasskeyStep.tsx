import { useEffect, useState } from 'react';
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { Button } from '../../components/ui/Button';
import { createClient, toFailure, type ApiBases } from '../../lib/http';

interface Props {
  apis: ApiBases;
  /** verificar: sign in with a passkey the account has; cadastrar: make a new passkey the account's factor. */
  purpose: 'verificar' | 'cadastrar';
  next: string;
}

interface Finished {
  codigosRecuperacao?: string[];
}

/**
 * The passkey way through the second step (decision 068): the browser's own ceremony
 * (@simplewebauthn/browser) against the options the server gives for this sign-in's challenge. A
 * browser without WebAuthn shows nothing: the code form beside it works everywhere.
 */
export default function PasskeyStep({ apis, purpose, next }: Props) {
  const [supported, setSupported] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [codes, setCodes] = useState<string[]>();
  const [remember, setRemember] = useState(false);
  useEffect(() => setSupported(browserSupportsWebAuthn()), []);
  if (!supported) return null;

  async function run() {
    setBusy(true);
    setError(undefined);
    const auth = createClient(apis, 'auth');
    try {
      const { dado } = await auth<{ dado: { opcoes: never; estado?: string } }>('/v1/segundo-fator/passkey/opcoes', { method: 'POST' });
      const resposta =
        purpose === 'verificar'
          ? await startAuthentication({ optionsJSON: dado.opcoes })
          : await startRegistration({ optionsJSON: dado.opcoes });
      const done = await auth<{ dado: Finished }>('/v1/segundo-fator/passkey', {
        method: 'POST',
        body: { resposta, estado: dado.estado, lembrar: remember, nome: 'Chave de acesso' },
      });
      if (done.dado.codigosRecuperacao) setCodes(done.dado.codigosRecuperacao);
      else window.location.assign(next);
    } catch (failure) {
      // The person closed the browser's dialog, or the key did not answer: say so, keep the code form.
      const message =
        failure instanceof Error && failure.name === 'NotAllowedError'
          ? 'A chave de acesso não foi confirmada.'
          : toFailure(failure).message;
      setError(message || 'Não foi possível usar a chave de acesso.');
      setBusy(false);
    }
  }

  if (codes)
    return (
      <section aria-labelledby="codigos-titulo">
        <div className="alert alert-success" role="status">
          Chave de acesso cadastrada.
        </div>
        <h3 id="codigos-titulo">Guarde seus códigos de recuperação</h3>
        <p>Se perder a chave, entre com um destes códigos. Cada um vale uma vez, e eles não serão mostrados de novo.</p>
        <ul className="recovery-codes" aria-label="Códigos de recuperação">
          {codes.map((code) => (
            <li key={code}>
              <code>{code}</code>
            </li>
          ))}
        </ul>
        <a className="button button-primary" href={next}>
          Continuar
        </a>
      </section>
    );

  return (
    <div className="passkey-step">
      <p className="passkey-or">ou</p>
      {error ? (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      ) : null}
      <label className="remember">
        <input type="checkbox" checked={remember} onChange={(event) => setRemember(event.currentTarget.checked)} /> Lembrar este dispositivo
        por 30 dias
      </label>
      <Button type="button" variant="secondary" block loading={busy} onClick={run}>
        {purpose === 'verificar' ? 'Entrar com chave de acesso' : 'Usar uma chave de acesso (passkey)'}
      </Button>
    </div>
  );
}
