import { useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button';
import { useHydrated } from '../../components/ui/useHydrated';
import { FileField, UploadProgress } from '../../components/ui/FileField';
import { SelectField, type ChoiceOption } from '../../components/ui/Choice';
import { apiBaseOf, createClient, endsSession, leaveEndedSession, payloadOf, toFailure, type ApiBases } from '../../lib/http';
import { FormAlert } from '../../components/ui/FormAlert';
import { COOKIE_SESSION_HEADER } from '../../lib/session';
import { formatDateTime } from '../../lib/format';
import { PROPOSAL_STATUS_LABELS, type ProposalStatus } from '../../lib/acceptance';
import {
  DOCUMENT_ACCEPT,
  DOCUMENT_MESSAGES,
  DOCUMENT_NAME_HEADER,
  downloadHref,
  formatSize,
  nameProblem,
  sizeProblem,
} from '../../lib/documents';
import { limitsSummary, quotaProblem, REMOVAL_MESSAGES, usageSummary, type UploadUsage } from '../../lib/document-limits';

/** A document as the list shows it. */
export interface SentDocument {
  id: number;
  nome: string;
  categoriaLabel: string;
  tamanho: number;
  enviadoEm: string;
  enviadoPor: string;
  podeRemover: boolean;
}

export interface ProposalFacts {
  nrProposta: string;
  href: string;
  status: ProposalStatus;
  /** The insurer's request for documents (shown while they are awaited). */
  pedido: string | null;
  productName: string;
  nomeSegurado: string;
  nrApolice: string | null;
}

interface Props {
  apis: ApiBases;
  generation: 'v1' | 'v2';
  proposal: ProposalFacts;
  categories: ChoiceOption[];
  documents: SentDocument[];
  usage: Pick<UploadUsage, 'userDay' | 'proposal'>;
}

type Errors = Partial<Record<'categoria' | 'arquivo', string>>;
type Sent = { id: number; nome: string; tamanho: number };

const CONNECTION_FAILED = 'Não foi possível enviar o arquivo. Verifique a conexão e tente novamente.';
const SUSPENDED_AGAIN = 'A proposta voltou a aguardar documentos: o prazo de aceitação fica suspenso até um novo envio.';

/**
 * A proposal's documents (issues 14 and 27): its state and the insurer's request, the limits and what is
 * used of them, the upload with a real progress bar (XMLHttpRequest's upload events — fetch has none)
 * and the list of what was sent, which the upload and the removal of a document sent by mistake update
 * in place. Name, size and the limits are checked here first so a refused file is never sent; the
 * server decides again (decisions 040, 057). Nothing that needs the script can be clicked before it runs.
 */
export default function ProposalDocuments({ apis, generation, proposal, categories, documents: initial, usage: initialUsage }: Props) {
  const fileInput = useRef<HTMLInputElement>(null);
  const ready = useHydrated();
  const [status, setStatus] = useState(proposal.status);
  const [documents, setDocuments] = useState(initial);
  const [usage, setUsage] = useState(initialUsage);
  const [categoria, setCategoria] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string>();
  const [progress, setProgress] = useState<number>();
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<Sent[]>([]);
  const [resumed, setResumed] = useState(false);
  const [confirming, setConfirming] = useState<number>();
  const [removing, setRemoving] = useState(false);
  const [notice, setNotice] = useState<string>();
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
    const quota = file ? quotaProblem({ portalActive: 0, userActive: 0, ...usage }, file.size, new Date()) : undefined;
    const found: Errors = {
      categoria: categoria ? undefined : DOCUMENT_MESSAGES.category,
      arquivo: file ? (nameProblem(file.name) ?? sizeProblem(file.size) ?? quota?.message) : DOCUMENT_MESSAGES.noFile,
    };
    if (found.categoria || found.arquivo || !file) return refuse(found);
    setErrors({});
    setFailure(undefined);
    setNotice(undefined);
    setBusy(true);
    setProgress(0);
    const request = new XMLHttpRequest();
    request.open('POST', `${apis[base]}/v1/propostas/${proposal.nrProposta}/documentos?categoria=${encodeURIComponent(categoria)}`);
    request.setRequestHeader(COOKIE_SESSION_HEADER, 'cookie');
    request.setRequestHeader('content-type', 'application/octet-stream');
    request.setRequestHeader(DOCUMENT_NAME_HEADER, encodeURIComponent(file.name));
    request.upload.onprogress = (e) => {
      if (e.lengthComputable) setProgress(Math.round((e.loaded / e.total) * 100));
    };
    request.onerror = () => refuse({}, CONNECTION_FAILED);
    request.onload = () => {
      type Answer = { documento: SentDocument; retomada: boolean };
      let body: { dado?: Answer; resultado?: Answer; message?: string; erros?: Record<string, string[]> } = {};
      try {
        body = JSON.parse(request.responseText);
      } catch {
        return refuse({}, CONNECTION_FAILED);
      }
      if (request.status >= 200 && request.status < 300) {
        const { documento, retomada } = payloadOf(body);
        setSent((list) => [...list, documento]);
        setDocuments((list) => [documento, ...list]);
        setUsage((u) => ({
          proposal: { files: u.proposal.files + 1, bytes: u.proposal.bytes + documento.tamanho },
          userDay: { files: u.userDay.files + 1, bytes: u.userDay.bytes + documento.tamanho },
        }));
        if (retomada) {
          setResumed(true);
          setStatus('EM_ANALISE');
        }
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

  async function remove(document: SentDocument) {
    setRemoving(true);
    setFailure(undefined);
    try {
      const answer = await createClient(apis, base)<{ dado?: { suspensa: boolean }; resultado?: { suspensa: boolean } }>(
        `/v1/documentos/${document.id}`,
        { method: 'DELETE' },
      );
      const { suspensa } = payloadOf(answer);
      setDocuments((list) => list.filter((d) => d.id !== document.id));
      setSent((list) => list.filter((d) => d.id !== document.id));
      setUsage((u) => ({ ...u, proposal: { files: u.proposal.files - 1, bytes: u.proposal.bytes - document.tamanho } }));
      if (suspensa) {
        setStatus('AGUARDANDO_DOCUMENTOS');
        setResumed(false);
      }
      setNotice(suspensa ? `${REMOVAL_MESSAGES.removed} ${SUSPENDED_AGAIN}` : REMOVAL_MESSAGES.removed);
    } catch (error) {
      setFailure(toFailure(error).message);
    } finally {
      setConfirming(undefined);
      setRemoving(false);
    }
  }

  const waiting = status === 'AGUARDANDO_DOCUMENTOS';
  return (
    <div className="proposal-documents">
      <dl className="facts">
        <div>
          <dt>Proposta</dt>
          <dd data-testid="envio-proposta">
            <a href={proposal.href}>{proposal.nrProposta}</a>
          </dd>
        </div>
        <div>
          <dt>Situação</dt>
          <dd data-testid="envio-situacao">{PROPOSAL_STATUS_LABELS[status]}</dd>
        </div>
        <div>
          <dt>Produto</dt>
          <dd>{proposal.productName}</dd>
        </div>
        <div>
          <dt>Segurado</dt>
          <dd>{proposal.nomeSegurado}</dd>
        </div>
        {proposal.nrApolice ? (
          <div>
            <dt>Apólice</dt>
            <dd>{proposal.nrApolice}</dd>
          </div>
        ) : null}
      </dl>
      {waiting && proposal.pedido ? (
        <p className="alert alert-info" data-testid="envio-pedido">
          A seguradora pediu: {proposal.pedido} O prazo de aceitação está suspenso; enviar os documentos retoma a análise.
        </p>
      ) : null}
      <div className="limits" data-testid="envio-limites">
        <p>{limitsSummary()}</p>
        <p data-testid="envio-uso">{usageSummary(usage)}</p>
      </div>
      <form onSubmit={submit} noValidate className="upload-form" aria-label={`Enviar documento da proposta ${proposal.nrProposta}`}>
        <FormAlert message={failure} />
        <SelectField
          label="Tipo de documento"
          placeholder="Selecione"
          options={categories}
          value={categoria}
          error={errors.categoria}
          onChange={(event) => setCategoria(event.target.value)}
        />
        <FileField
          ref={fileInput}
          label="Arquivo"
          hint="PDF, JPEG ou PNG, até 10 MB."
          accept={DOCUMENT_ACCEPT}
          error={errors.arquivo}
          onChange={() => setErrors((current) => ({ ...current, arquivo: undefined }))}
        />
        <UploadProgress percent={progress} />
        {/* Sending needs the script (decision 040): until it runs, the button says it is not ready. */}
        <Button type="submit" loading={busy} disabled={!ready}>
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
                A análise da proposta foi retomada: o prazo de aceitação voltou a correr. <a href={proposal.href}>Ver a proposta</a>
              </p>
            ) : null}
          </div>
        ) : null}
      </form>
      <h2>Documentos já enviados</h2>
      {notice ? (
        <p className="alert alert-success" role="status" data-testid="documento-removido">
          {notice}
        </p>
      ) : null}
      {documents.length === 0 ? (
        <p>Nenhum documento enviado para esta proposta.</p>
      ) : (
        <ul className="sent" data-testid="documentos-da-proposta">
          {documents.map((d) => (
            <li key={d.id}>
              <a href={downloadHref(generation, d.id)}>{d.nome}</a>
              <span className="muted">
                {d.categoriaLabel} · {formatSize(d.tamanho)} · {formatDateTime(new Date(d.enviadoEm))} · {d.enviadoPor}
              </span>
              {ready && d.podeRemover ? (
                confirming === d.id ? (
                  <span className="remove-confirm">
                    <span>Remover “{d.nome}”? A remoção fica registrada no andamento da proposta.</span>
                    <Button type="button" size="small" loading={removing} onClick={() => void remove(d)}>
                      Confirmar remoção
                    </Button>
                    <Button type="button" size="small" variant="outline" disabled={removing} onClick={() => setConfirming(undefined)}>
                      Cancelar
                    </Button>
                  </span>
                ) : (
                  <span>
                    <Button type="button" size="small" variant="outline" onClick={() => setConfirming(d.id)}>
                      Remover<span className="visually-hidden"> {d.nome}</span>
                    </Button>
                  </span>
                )
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
