import { useState } from 'react';
import * as z from 'zod/mini';
import { Button } from '../../components/ui/Button';
import { Field } from '../../components/ui/Field';
import { RadioGroup } from '../../components/ui/Choice';
import { apiBaseOf, type ApiBases } from '../../lib/http';
import { post } from '../../lib/post';
import { insuredSendSchema, type SendableInstallment } from '../../lib/insured-messages';

interface Props {
  apis: ApiBases;
  generation: 'v1' | 'v2';
  nrApolice: string;
  /** The insured's e-mail on file, masked; empty when there is none. */
  maskedEmail: string;
  /** The installments whose boleto and Pix may be sent: open, payable today or overdue (with its note). */
  installments: SendableInstallment[];
}

type Item = { tipo: 'apolice' } | { tipo: 'boleto'; numero: number };
const keyOf = (item: Item) => (item.tipo === 'apolice' ? 'apolice' : `boleto-${item.numero}`);

/**
 * Sending the insured the policy or an installment's boleto and Pix (issue 31): by e-mail to the
 * address on file or another typed one (the same schema as the endpoint), or as a WhatsApp share link
 * copied to the clipboard. Each answer is said beside what was asked.
 */
export default function InsuredMessagesForm({ apis, generation, nrApolice, maskedEmail, installments }: Props) {
  const [to, setTo] = useState(maskedEmail ? 'segurado' : 'outro');
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string>();
  const [busy, setBusy] = useState<string>();
  const [said, setSaid] = useState<{ key: string; ok: boolean; text: string; href?: string }>();
  const base = apiBaseOf(generation);

  async function send(item: Item) {
    const body = { ...item, ...(to === 'outro' ? { email } : {}) };
    const parsed = z.safeParse(insuredSendSchema, body);
    if (!parsed.success) {
      setEmailError(parsed.error.issues.find((i) => i.path[0] === 'email')?.message);
      return;
    }
    setEmailError(undefined);
    setBusy(`email-${keyOf(item)}`);
    const result = await post<{ envio: { para: string } }>(apis, base, `/v1/apolices/${nrApolice}/envios`, body);
    setBusy(undefined);
    if (result.ok) return setSaid({ key: keyOf(item), ok: true, text: `Enviado para ${result.data.envio.para}.` });
    if (result.errors.email?.[0]) setEmailError(result.errors.email[0]);
    setSaid({ key: keyOf(item), ok: false, text: result.message });
  }

  async function whatsapp(item: Item) {
    setBusy(`whatsapp-${keyOf(item)}`);
    const result = await post<{ link: string }>(apis, base, `/v1/apolices/${nrApolice}/link-whatsapp`, item);
    setBusy(undefined);
    if (!result.ok) return setSaid({ key: keyOf(item), ok: false, text: result.message });
    const copied = await navigator.clipboard?.writeText(result.data.link).then(
      () => true,
      () => false,
    );
    setSaid({
      key: keyOf(item),
      ok: true,
      text: copied ? 'Link copiado: cole na conversa do WhatsApp ou abra abaixo.' : 'Abra o link abaixo para enviar pelo WhatsApp.',
      href: result.data.link,
    });
  }

  const actions = (item: Item, emailLabel: string, what: string) => {
    const key = keyOf(item);
    return (
      <div className="insured-actions" data-testid={`envio-${key}`}>
        <Button type="button" size="small" loading={busy === `email-${key}`} onClick={() => send(item)}>
          {emailLabel}
        </Button>
        <Button type="button" size="small" variant="outline" loading={busy === `whatsapp-${key}`} onClick={() => whatsapp(item)}>
          Copiar link para WhatsApp<span className="visually-hidden"> ({what})</span>
        </Button>
        {said?.key === key ? (
          <p className={said.ok ? 'insured-said' : 'insured-said insured-said-error'} role={said.ok ? 'status' : 'alert'}>
            {said.text}{' '}
            {said.href ? (
              <a href={said.href} target="_blank" rel="noopener noreferrer" data-testid="link-whatsapp">
                Abrir no WhatsApp
              </a>
            ) : null}
          </p>
        ) : null}
      </div>
    );
  };

  return (
    <div className="insured-messages-form">
      <RadioGroup
        label="Enviar para"
        name="destino"
        value={to}
        onChange={setTo}
        options={[
          ...(maskedEmail ? [{ value: 'segurado', label: `E-mail do segurado (${maskedEmail})` }] : []),
          { value: 'outro', label: 'Outro e-mail' },
        ]}
      />
      {to === 'outro' ? (
        <Field
          label="E-mail"
          type="email"
          inputMode="email"
          autoComplete="off"
          value={email}
          error={emailError}
          onChange={(e) => setEmail(e.target.value)}
        />
      ) : null}
      {actions({ tipo: 'apolice' }, 'Enviar apólice por e-mail', 'apólice')}
      {installments.map((i) => (
        <div key={i.numero} className="insured-installment">
          <p className="insured-installment-title">
            {i.numero}ª parcela — vencimento {i.vencimento}
          </p>
          {i.nota ? (
            <p className="insured-installment-note" data-testid={`nota-boleto-${i.numero}`}>
              {i.nota}
            </p>
          ) : null}
          {actions({ tipo: 'boleto', numero: i.numero }, 'Enviar boleto/Pix por e-mail', `boleto da ${i.numero}ª parcela`)}
        </div>
      ))}
    </div>
  );
}
