import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button';
import { TextAreaField } from '../../components/ui/TextArea';
import { DEFAULT_ERROR } from '../../lib/http';
import { COOKIE_SESSION_HEADER } from '../../lib/session';

type Outcome = { ok: true; text: string } | { ok: false; text: string };

/**
 * The demo bank's till: paste a linha digitável or a Pix "copia e cola" and pay it, as a bank would
 * confirm it (server/services/charges.ts payCharge).
 */
export default function DemoBankForm() {
  const [code, setCode] = useState('');
  const [outcome, setOutcome] = useState<Outcome>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setOutcome(undefined);
    try {
      const response = await fetch('/api/pagamentos/v1/banco-demonstracao', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', [COOKIE_SESSION_HEADER]: 'cookie' },
        body: JSON.stringify({ codigo: code }),
      });
      const answer = (await response.json()) as { dado?: { nrApolice: string; numero: number; valor: number }; message?: string };
      if (response.ok && answer.dado) {
        const { nrApolice, numero, valor } = answer.dado;
        const amount = (valor / 100).toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });
        setOutcome({ ok: true, text: `Pago: ${numero}ª parcela da apólice ${nrApolice}, ${amount}.` });
        setCode('');
      } else setOutcome({ ok: false, text: answer.message ?? DEFAULT_ERROR.text });
    } catch {
      setOutcome({ ok: false, text: DEFAULT_ERROR.text });
    }
    setBusy(false);
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Pagar no banco de demonstração">
      {outcome ? (
        <div className={`alert ${outcome.ok ? 'alert-success' : 'alert-error'}`} role={outcome.ok ? 'status' : 'alert'}>
          {outcome.text}
        </div>
      ) : null}
      <TextAreaField
        label="Linha digitável ou Pix copia e cola"
        value={code}
        maxLength={512}
        onChange={(event) => setCode(event.target.value)}
      />
      <Button type="submit" loading={busy}>
        Pagar
      </Button>
    </form>
  );
}
