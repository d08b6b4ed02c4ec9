import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button';
import { describedBy, FieldFrame } from '../../components/ui/Field';
import { SelectField, type ChoiceOption } from '../../components/ui/Choice';
import { apiBaseOf, endsSession, leaveEndedSession, payloadOf, type ApiBases } from '../../lib/http';
import { FormAlert } from '../../components/ui/FormAlert';
import { COOKIE_SESSION_HEADER } from '../../lib/session';
import {
  DOCUMENT_ACCEPT,
  DOCUMENT_MESSAGES,
  DOCUMENT_NAME_HEADER,
  downloadHref,
  formatSize,
  nameProblem,
  sizeProblem,
} from '../../lib/documents';

interface Props {
  apis: ApiBases;
  generation: 'v1' | 'v2';
  nrProposta: string;
  categories: ChoiceOption[];
  /** The proposal's page, where its state and clock are seen. */
  proposalHref: string;
}

type Errors = Partial<Record<'categoria' | 'arquivo', string>>;
type Sent = { id: number; nome: string; tamanho: number; retomada: boolean };

const CONNECTION_FAILED = 'Não foi possível enviar o arquivo. Verifique a conexão e tente novamente.';

/**
 * Sends one document of a proposal: its kind and the file, with a real progress bar (XMLHttpRequest's
 * upload events — fetch has none). Name and size are checked here first so a refused file is never
 * sent; the server checks them again, and the content by its magic bytes (decision 040).
 */
export default function UploadForm({ apis, generation, nrProposta, categories, proposalHref }: Props) {
  const fileId = useId();
  const progressId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [categoria, setCategoria] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string>();
  const [progress, setProgress] = useState<number>();
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<Sent[]>([]);
  const base = apiBaseOf(generation);

  function refuse(found: Errors, message?: string) {
    setErrors(found);
    setFailure(message);
    setBusy(false);
    setProgress(undefined);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const file = fileInput.current?.files?.[0];
    const found: Errors = {
      categoria: categoria ? undefined : DOCUMENT_MESSAGES.category,
      arquivo: file ? (nameProblem(file.name) ?? sizeProblem(file.size)) : DOCUMENT_MESSAGES.noFile,
    };
    if (found.categoria || found.arquivo || !file) return refuse(found);
    setErrors({});
    setFailure(undefined);
    setBusy(true);
    setProgress(0);
    const request = new XMLHttpRequest();
    request.open('POST', `${apis[base]}/v1/propostas/${nrProposta}/documentos?categoria=${encodeURIComponent(categoria)}`);
    request.setRequestHeader(COOKIE_SESSION_HEADER, 'cookie');
    request.setRequestHeader('content-type', 'application/octet-stream');
    request.setRequestHeader(DOCUMENT_NAME_HEADER, encodeURIComponent(file.name));
    request.upload.onprogress = (e) => {
      if (e.lengthComputable) setProgress(Math.round((e.loaded / e.total) * 100));
    };
    request.onerror = () => refuse({}, CONNECTION_FAILED);
    request.onload = () => {
      type Answer = { documento: Omit<Sent, 'retomada'>; retomada: boolean };
      let body: { dado?: Answer; resultado?: Answer; message?: string; erros?: Record<string, string[]> } = {};
      try {
        body = JSON.parse(request.responseText);
      } catch {
        return refuse({}, CONNECTION_FAILED);
      }
      if (request.status >= 200 && request.status < 300) {
        const payload = payloadOf(body);
        setSent((list) => [...list, { ...payload.documento, retomada: payload.retomada }]);
        setProgress(100);
        setBusy(false);
        setCategoria('');
        if (fileInput.current) fileInput.current.value = '';
        return;
      }
      if (endsSession(request.status, body.message)) return void leaveEndedSession(apis, generation);
      const fields: Errors = { categoria: body.erros?.categoria?.[0], arquivo: body.erros?.arquivo?.[0] };
      refuse(fields, fields.categoria || fields.arquivo ? undefined : (body.message ?? CONNECTION_FAILED));
    };
    request.send(file);
  }

  const resumed = sent.some((s) => s.retomada);
  return (
    <form onSubmit={submit} noValidate className="upload-form" aria-label={`Enviar documento da proposta ${nrProposta}`}>
      <FormAlert message={failure} />
      <SelectField
        label="Tipo de documento"
        placeholder="Selecione"
        options={categories}
        value={categoria}
        error={errors.categoria}
        onChange={(event) => setCategoria(event.target.value)}
      />
      <FieldFrame id={fileId} label="Arquivo" error={errors.arquivo} hint="PDF, JPEG ou PNG, até 10 MB.">
        <div className="field-control">
          <input
            ref={fileInput}
            id={fileId}
            type="file"
            className="field-input"
            accept={DOCUMENT_ACCEPT}
            aria-invalid={errors.arquivo ? true : undefined}
            aria-describedby={describedBy(fileId, errors.arquivo, 'dica')}
            onChange={() => setErrors((current) => ({ ...current, arquivo: undefined }))}
          />
        </div>
      </FieldFrame>
      {progress !== undefined ? (
        <div className="upload-progress">
          <label htmlFor={progressId}>Progresso do envio</label>
          <progress id={progressId} max={100} value={progress} aria-valuetext={`${progress}%`}>
            {progress}%
          </progress>
          <span aria-hidden="true">{progress}%</span>
        </div>
      ) : null}
      <Button type="submit" loading={busy}>
        Enviar documento
      </Button>
      {sent.length > 0 ? (
        <div className="alert alert-success" role="status" data-testid="documentos-enviados">
          <p>{sent.length === 1 ? 'Documento enviado:' : 'Documentos enviados:'}</p>
          <ul>
            {sent.map((s) => (
              <li key={s.id}>
                <a href={downloadHref(generation, s.id)}>{s.nome}</a> ({formatSize(s.tamanho)})
              </li>
            ))}
          </ul>
          {resumed ? (
            <p data-testid="analise-retomada">
              A análise da proposta foi retomada: o prazo de aceitação voltou a correr. <a href={proposalHref}>Ver a proposta</a>
            </p>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}
