import { useEffect, useState, type FormEvent } from 'react';
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { Button } from '../../components/ui/Button';
import { RecoveryCodes } from '../../components/ui/RecoveryCodes';
import { Field, PasswordField } from '../../components/ui/Field';
import { createClient, payloadOf, toFailure, type ApiBases } from '../../lib/http';
import { STEP_UP_CODE, STEP_UP_MINUTES } from '../../lib/second-factor';

interface Props {
  apis: ApiBases;
  base: 'plataforma' | 'bff';
  /** The user has an authenticator app: its code may confirm instead of the password. */
  hasApp: boolean;
}

/**
 * Adds a passkey to the signed-in user's account (decision 068): the browser's registration ceremony
 * (@simplewebauthn/browser) against the options of the user's base. A first factor comes with its
 * recovery codes, shown here once; otherwise the page reloads with the new key listed. Without a
 * recent proof the base answers CONFIRMACAO_NECESSARIA (decision 073): the island asks for the
 * password (or an app code) right here, then goes on.
 */
export default function PasskeyRegister({ apis, base, hasApp }: Props) {
  const [supported, setSupported] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [codes, setCodes] = useState<string[]>();
  /** The key's name while the island waits for "Confirme que é você". */
  const [confirming, setConfirming] = useState<string>();
  useEffect(() => setSupported(browserSupportsWebAuthn()), []);

  if (!supported) return <p className="muted">Este navegador não permite chaves de acesso.</p>;

  const api = createClient(apis, base);

  async function register(nome: string) {
    setBusy(true);
    setError(undefined);
    try {
      const { opcoes, estado } = payloadOf<{ opcoes: Parameters<typeof startRegistration>[0]['optionsJSON']; estado: string }>(
        await api('/v1/seguranca/chaves/opcoes', { method: 'POST' }),
      );
      const resposta = await startRegistration({ optionsJSON: opcoes });
      const done = payloadOf<{ codigosRecuperacao?: string[] }>(
        await api('/v1/seguranca/chaves', { method: 'POST', body: { estado, resposta, nome } }),
      );
      if (done.codigosRecuperacao) setCodes(done.codigosRecuperacao);
      else window.location.assign(`${window.location.pathname}?aviso=chave`);
    } catch (failure) {
      const refusal = toFailure(failure);
      if (refusal.code === STEP_UP_CODE) setConfirming(nome);
      else
        setError(
          failure instanceof Error && failure.name === 'NotAllowedError' ? 'A chave de acesso não foi confirmada.' : refusal.message,
        );
      setBusy(false);
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    await register(String(new FormData(event.currentTarget).get('nome') ?? '').trim() || 'Chave de acesso');
  }

  async function onConfirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const senha = String(form.get('senha') ?? '');
    const codigo = String(form.get('codigo') ?? '').trim();
    setBusy(true);
    setError(undefined);
    try {
      await api('/v1/seguranca/confirmacao', { method: 'POST', body: codigo ? { codigo } : { senha } });
    } catch (failure) {
      setError(toFailure(failure).message);
      setBusy(false);
      return;
    }
    const nome = confirming ?? 'Chave de acesso';
    setConfirming(undefined);
    await register(nome);
  }

  if (codes)
    return (
      <div>
        <div className="alert alert-success" role="status">
          Chave de acesso cadastrada. Guarde seus códigos de recuperação: eles não serão mostrados de novo.
        </div>
        <RecoveryCodes codes={codes} />
        <a className="button button-secondary" href={window.location.pathname}>
          Concluir
        </a>
      </div>
    );

  const alert = error ? (
    <div className="alert alert-error" role="alert">
      {error}
    </div>
  ) : null;

  if (confirming !== undefined)
    return (
      <form onSubmit={onConfirm} aria-label="Confirmar que é você" noValidate>
        <h4>Confirme que é você</h4>
        <p>
          Para adicionar uma chave de acesso, informe a sua senha{hasApp ? ' ou um código do aplicativo autenticador' : ''}. A confirmação
          vale por {STEP_UP_MINUTES} minutos nesta sessão.
        </p>
        {alert}
        <PasswordField label="Senha" name="senha" autoComplete="current-password" maxLength={128} />
        {hasApp ? (
          <Field
            label="Ou código do aplicativo autenticador"
            name="codigo"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            announceLimit={false}
            hint="Preencha só um dos dois."
          />
        ) : null}
        <Button type="submit" variant="secondary" loading={busy}>
          Confirmar e adicionar a chave
        </Button>
      </form>
    );

  return (
    <form onSubmit={onSubmit} aria-label="Adicionar chave de acesso">
      {alert}
      <Field label="Nome da chave" name="nome" maxLength={60} placeholder="Ex.: notebook do escritório" />
      <Button type="submit" variant="secondary" loading={busy}>
        Adicionar chave de acesso
      </Button>
    </form>
  );
}
