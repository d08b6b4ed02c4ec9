import { useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button';
import { Field } from '../../components/ui/Field';
import { FileField, UploadProgress } from '../../components/ui/FileField';
import { SelectField } from '../../components/ui/Choice';
import { FormAlert } from '../../components/ui/FormAlert';
import { endsSession, leaveEndedSession, payloadOf, type ApiBases } from '../../lib/http';
import { COOKIE_SESSION_HEADER } from '../../lib/session';
import { DOCUMENT_NAME_HEADER } from '../../lib/documents';
import { COMMISSION_PAGES, parseMoneyText } from '../../lib/commissions';
import { NOTA_ACCEPT, NOTA_MESSAGES, notaFileProblem } from '../../lib/nota-fiscal';

interface Props {
  apis: ApiBases;
  /** The company's CNPJ (unmasked) and name. */
  company: { taxId: string; name: string };
  /** Closed months with something owed and no nota standing, with what the statement owes. */
  months: { month: string; label: string; payableText: string }[];
  chosen?: string;
}

type FieldName = 'competencia' | 'numero' | 'valor' | 'arquivo';
type Errors = Partial<Record<FieldName, string>>;

const CONNECTION_FAILED = 'Não foi possível enviar a nota. Verifique a conexão e tente novamente.';

/**
 * Sends the nota fiscal of a closed month: the month, its number and amount, and the file (PDF or
 * XML) as the raw body with its upload progress (XMLHttpRequest — fetch has none), as documents do
 * (decision 040). The name, size, number and amount are checked here first; the server decides again,
 * checks the content and the amount against the statement, and keeps nothing it refuses.
 */
export default function NotaUploadForm({ apis, company, months, chosen }: Props) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [competencia, setCompetencia] = useState(chosen ?? (months.length === 1 ? months[0]!.month : ''));
  const [numero, setNumero] = useState('');
  const [valor, setValor] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string>();
  const [progress, setProgress] = useState<number>();
  const [busy, setBusy] = useState(false);

  function refuse(found: Errors, message?: string) {
    setErrors(found);
    setFailure(message);
    setBusy(false);
    setProgress(undefined);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const file = fileInput.current?.files?.[0];
    const cents = parseMoneyText(valor);
    const found: Errors = {
      competencia: competencia ? undefined : NOTA_MESSAGES.competencia,
      numero: /^\d{1,15}$/.test(numero.trim()) ? undefined : NOTA_MESSAGES.numero,
      valor: cents && cents > 0 ? undefined : NOTA_MESSAGES.valor,
      arquivo: file ? notaFileProblem(file.name, file.size) : NOTA_MESSAGES.noFile,
    };
    if (Object.values(found).some(Boolean) || !file || !cents) return refuse(found);
    setErrors({});
    setFailure(undefined);
    setBusy(true);
    setProgress(0);
    const query = new URLSearchParams({ empresa: company.taxId, competencia, numero: numero.trim(), valor: String(cents) });
    const request = new XMLHttpRequest();
    request.open('POST', `${apis.bff}/v1/comissoes/notas?${query}`);
    request.setRequestHeader(COOKIE_SESSION_HEADER, 'cookie');
    request.setRequestHeader('content-type', 'application/octet-stream');
    request.setRequestHeader(DOCUMENT_NAME_HEADER, encodeURIComponent(file.name));
    request.upload.onprogress = (e) => {
      if (e.lengthComputable) setProgress(Math.round((e.loaded / e.total) * 100));
    };
    request.onerror = () => refuse({}, CONNECTION_FAILED);
    request.onload = () => {
      let body: { dado?: { id: number }; message?: string; erros?: Record<string, string[]> } = {};
      try {
        body = JSON.parse(request.responseText);
      } catch {
        return refuse({}, CONNECTION_FAILED);
      }
      if (request.status >= 200 && request.status < 300) {
        const { id } = payloadOf<{ id: number }>(body);
        setProgress(100);
        return window.location.assign(`${COMMISSION_PAGES.notas}?enviada=${id}#nota-${id}`);
      }
      if (endsSession(request.status, body.message)) return void leaveEndedSession(apis, 'v2');
      const fields: Errors = {
        competencia: body.erros?.competencia?.[0],
        numero: body.erros?.numero?.[0],
        valor: body.erros?.valor?.[0],
        arquivo: body.erros?.arquivo?.[0],
      };
      refuse(fields, Object.values(fields).some(Boolean) ? undefined : (body.message ?? CONNECTION_FAILED));
    };
    request.send(file);
  }

  const selected = months.find((m) => m.month === competencia);
  return (
    <form onSubmit={submit} noValidate className="upload-form" aria-label={`Enviar nota fiscal de ${company.name}`}>
      <FormAlert message={failure} />
      <SelectField
        label="Competência"
        placeholder="Selecione o mês"
        options={months.map((m) => ({ value: m.month, label: `${m.label} — ${m.payableText}` }))}
        value={competencia}
        error={errors.competencia}
        onChange={(event) => setCompetencia(event.target.value)}
      />
      {selected ? (
        <p className="alert alert-info" data-testid="valor-do-extrato">
          Valor do extrato de {selected.label}: <strong>{selected.payableText}</strong>. A nota deve ter exatamente este valor.
        </p>
      ) : null}
      <Field
        label="Número da nota fiscal"
        formatPastedDocuments={false}
        inputMode="numeric"
        autoComplete="off"
        maxLength={15}
        value={numero}
        error={errors.numero}
        onChange={(event) => setNumero(event.target.value)}
      />
      <Field
        label="Valor da nota (R$)"
        inputMode="decimal"
        autoComplete="off"
        placeholder="0,00"
        maxLength={20}
        value={valor}
        error={errors.valor}
        onChange={(event) => setValor(event.target.value)}
      />
      <FileField
        ref={fileInput}
        label="Arquivo da nota"
        hint="O PDF ou o XML da NF-e/NFS-e, até 5 MB."
        accept={NOTA_ACCEPT}
        error={errors.arquivo}
        onChange={() => setErrors((current) => ({ ...current, arquivo: undefined }))}
      />
      <UploadProgress percent={progress} />
      <Button type="submit" loading={busy}>
        Enviar nota fiscal
      </Button>
    </form>
  );
}
