import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button';
import { Field } from '../../components/ui/Field';
import { TextAreaField } from '../../components/ui/TextArea';
import { CheckboxField } from '../../components/ui/Choice';
import { DEFAULT_ERROR } from '../../lib/http';
import { COOKIE_SESSION_HEADER } from '../../lib/session';
import { formatBRL } from '../../lib/products/money';
import type { ReceiptSituation } from '../../lib/receipts';

type Outcome = { ok: true; text: string } | { ok: false; text: string };

interface Paid {
  situacao: ReceiptSituation;
  nrApolice: string;
  numero: number;
  valor: number;
  devido: number | null;
  credito: number;
}

/** What the till says of a payment, by what it did (server/services/after-sale/charges.ts payCharge, decision 059). */
function paidText({ situacao, nrApolice, numero, valor, devido, credito }: Paid): string {
  const which = `${numero}ª parcela da apólice ${nrApolice}`;
  if (situacao === 'PARCIAL')
    return `Pagamento parcial: ${formatBRL(valor)} da ${which}${devido === null ? '' : ` (devido ${formatBRL(devido)})`}. A parcela segue em aberto.`;
  if (situacao === 'CREDITO')
    return `Pago de novo: ${which}, ${formatBRL(valor)}. A parcela já estava paga: ${formatBRL(credito)} em duplicidade, na fila de restituições.`;
  if (credito > 0) return `Pago: ${which}, ${formatBRL(valor)}. ${formatBRL(credito)} pago a mais, na fila de restituições.`;
  return `Pago: ${which}, ${formatBRL(valor)}.`;
}

/**
 * The demo bank's till: paste a linha digitável or a Pix "copia e cola" and pay it, as a bank would
 * confirm it — the amount owed that day, or another one typed (a partial payment, or more than due) —
 * or pay again a slip that already paid its installment (a duplicate, decision 074).
 */
export default function DemoBankForm() {
  const [code, setCode] = useState('');
  const [amount, setAmount] = useState('');
  const [again, setAgain] = useState(false);
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
        body: JSON.stringify({ codigo: code, ...(amount.trim() ? { valor: amount } : {}), ...(again ? { duplicidade: true } : {}) }),
      });
      const answer = (await response.json()) as { dado?: Paid; message?: string; erros?: Record<string, string[]> };
      if (response.ok && answer.dado) {
        setOutcome({ ok: true, text: paidText(answer.dado) });
        setCode('');
        setAmount('');
        setAgain(false);
      } else setOutcome({ ok: false, text: answer.erros?.valor?.[0] ?? answer.message ?? DEFAULT_ERROR.text });
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
      <Field
        label="Valor pago (R$)"
        hint="Em branco: o valor devido hoje. Outro valor simula um pagamento parcial ou a mais."
        inputMode="decimal"
        maxLength={30}
        value={amount}
        onChange={(event) => setAmount(event.target.value)}
      />
      <CheckboxField
        label="Pagar de novo uma parcela já paga (simula um pagamento em duplicidade: com o valor em branco, o mesmo com que foi paga)"
        checked={again}
        onChange={(event) => setAgain(event.target.checked)}
      />
      <Button type="submit" loading={busy}>
        Pagar
      </Button>
    </form>
  );
}
