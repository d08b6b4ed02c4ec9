import { useEffect, useState, type FormEvent } from 'react';
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { Button } from '../../components/ui/Button';
import { Field } from '../../components/ui/Field';
import { createClient, toFailure, type ApiBases } from '../../lib/http';

interface Props {
  apis: ApiBases;
  base: 'plataforma' | 'bff';
}

/**
 * Adds a passkey to the signed-in user's account (decision 068): the browser's registration ceremony
 * (@simplewebauthn/browser) against the options of the user's base. A first factor comes with its
 * recovery codes, shown here once; otherwise the page reloads with the new key listed.
 */
export default function PasskeyRegister({ apis, base }: Props) {
  const [supported, setSupported] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [codes, setCodes] = useState<string[]>();
  useEffect(() => setSupported(browserSupportsWebAuthn()), []);

  if (!supported) return <p className="muted">Este navegador não permite chaves de acesso.</p>;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const nome = String(new FormData(event.currentTarget).get('nome') ?? '').trim() || 'Chave de acesso';
    setBusy(true);
    setError(undefined);
    const api = createClient(apis, base);
    try {
      // The legacy base answers { resultado }, the BFF { dado }.
      const envelope = <T,>(answer: { dado?: T; resultado?: T }) => (answer.dado ?? answer.resultado) as T;
      const { opcoes, estado } = envelope<{ opcoes: Parameters<typeof startRegistration>[0]['optionsJSON']; estado: string }>(
        await api('/v1/seguranca/chaves/opcoes', { method: 'POST' }),
      );
      const resposta = await startRegistration({ optionsJSON: opcoes });
      const done = envelope<{ codigosRecuperacao?: string[] }>(
        await api('/v1/seguranca/chaves', { method: 'POST', body: { estado, resposta, nome } }),
      );
      if (done.codigosRecuperacao) setCodes(done.codigosRecuperacao);
      else window.location.assign(`${window.location.pathname}?aviso=chave`);
    } catch (failure) {
      setError(
        failure instanceof Error && failure.name === 'NotAllowedError'
          ? 'A chave de acesso não foi confirmada.'
          : toFailure(failure).message,
      );
      setBusy(false);
    }
  }

  if (codes)
    return (
      <div>
        <div className="alert alert-success" role="status">
          Chave de acesso cadastrada. Guarde seus códigos de recuperação: eles não serão mostrados de novo.
        </div>
        <ul className="recovery-codes" aria-label="Códigos de recuperação">
          {codes.map((code) => (
            <li key={code}>
              <code>{code}</code>
            </li>
          ))}
        </ul>
        <a className="button button-secondary" href={window.location.pathname}>
          Concluir
        </a>
      </div>
    );

  return (
    <form onSubmit={onSubmit} aria-label="Adicionar chave de acesso">
      {error ? (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      ) : null}
      <Field label="Nome da chave" name="nome" maxLength={60} placeholder="Ex.: notebook do escritório" />
      <Button type="submit" variant="secondary" loading={busy}>
        Adicionar chave de acesso
      </Button>
    </form>
  );
}
