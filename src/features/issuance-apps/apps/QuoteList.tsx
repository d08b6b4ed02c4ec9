import { useEffect, useState } from 'react';
import { clockSummary } from '../../../lib/acceptance';
import { EMBEDDED_APP_OF_CODE } from '../../../lib/embedded-apps';
import { formatDate } from '../../../lib/format';
import type { HistoryRow } from '../../../lib/history';
import type { KeysetAnswer } from '../../../lib/keyset-answer';
import { createClient, payloadOf, toFailure, type ApiBases, type ApiFailure } from '../../../lib/http';
import { withReadablePage } from '../../../lib/list-query';
import { formatBRL } from '../../../lib/products/money';
import { HISTORY_STATUSES } from '../../../lib/quotes';
import { findSimulatorCode } from '../../../lib/simulators';

/** The embedded products' codes: the consultation lists their quotes (EMP, IP, VE). */
const EMBEDDED_CODES = Object.keys(EMBEDDED_APP_OF_CODE);
const BASE = '/emissao/consulta-cotacao';
const FIELDS = ['simulador', 'status', 'numero'] as const;

/**
 * The consultation's address for these filters and page, with the cursor the endpoint gave for it
 * (keyset pages, lib/keyset-pages.ts): a reload, a shared link or Back keep them.
 */
function hrefFor(values: Record<string, string>, link: { page: number; cursor?: string }): string {
  const params = new URLSearchParams();
  for (const field of FIELDS) if (values[field]) params.set(field, values[field]);
  if (link.page > 1) params.set('page', String(link.page));
  if (link.page > 1 && link.cursor) params.set('cursor', link.cursor);
  const query = params.toString();
  return query ? `${BASE}?${query}` : BASE;
}

/**
 * The quotation consultation (SPEC §2): the seller's quotes of the embedded products through the
 * history endpoint (the same rows as /historico), filtered by product, status and number with a
 * plain GET form — the filters and the page live in the address, as on /historico — each quote
 * continued in the app that sells it. A new issuance is offered for the products the user may sell.
 */
export function QuoteList({ apis, produtos }: { apis: ApiBases; produtos: string[] }) {
  // A page that is no number shows the first, one past the last the last (lib/list-query.ts), as on the
  // portal's lists; past page 1 the address's cursor says where the page starts.
  const [params] = useState(() => withReadablePage(new URLSearchParams(window.location.search)));
  const values = Object.fromEntries(FIELDS.map((f) => [f, params.get(f) ?? ''])) as Record<(typeof FIELDS)[number], string>;
  const asked = Number(params.get('page') ?? 1);
  const cursor = params.get('cursor') ?? '';
  const [result, setResult] = useState<KeysetAnswer<HistoryRow>>();
  const page = result?.page ?? asked;
  const [failure, setFailure] = useState<ApiFailure>();

  useEffect(() => {
    const query: Record<string, string> = { simulador: values.simulador || EMBEDDED_CODES.join(','), page: String(asked) };
    if (cursor) query.cursor = cursor;
    if (values.status) query.status = values.status;
    if (values.numero) query.numero = values.numero;
    createClient(apis, 'plataforma')<{ resultado?: KeysetAnswer<HistoryRow> }>('/v1/cotacoes', { query })
      .then((answer) => setResult(payloadOf(answer)!))
      .catch((error) => setFailure(toFailure(error)));
  }, [apis, values.simulador, values.status, values.numero, asked, cursor]);

  const fieldError = (field: string) => failure?.fieldErrors[field]?.[0];
  const numeroError = fieldError('numero');

  return (
    <section aria-labelledby="consulta-titulo">
      <h1 id="consulta-titulo">Consulta de cotações</h1>
      {produtos.length > 0 ? (
        <p className="consulta-novas">
          {produtos.map((code, index) => {
            const simulator = findSimulatorCode(code)!;
            return (
              <a key={code} className={`button ${index === 0 ? 'button-primary' : 'button-outline'}`} href={simulator.startUrl}>
                Nova cotação: {simulator.name}
              </a>
            );
          })}
        </p>
      ) : null}
      <form className="step-section consulta-filtros" method="get" action={BASE} aria-label="Filtrar cotações">
        <div className="field">
          <label className="field-label" htmlFor="consulta-produto">
            Produto
          </label>
          <select className="field-input" id="consulta-produto" name="simulador" defaultValue={values.simulador}>
            <option value="">Todos</option>
            {EMBEDDED_CODES.map((code) => (
              <option key={code} value={code}>
                {findSimulatorCode(code)!.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor="consulta-status">
            Situação
          </label>
          <select className="field-input" id="consulta-status" name="status" defaultValue={values.status}>
            <option value="">Todas</option>
            {HISTORY_STATUSES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor="consulta-numero">
            Número da cotação ou proposta
          </label>
          <input
            className="field-input"
            id="consulta-numero"
            name="numero"
            inputMode="numeric"
            maxLength={20}
            defaultValue={values.numero}
            aria-invalid={numeroError ? true : undefined}
            aria-describedby={numeroError ? 'consulta-numero-erro' : undefined}
          />
          {numeroError ? (
            <p className="field-error" id="consulta-numero-erro">
              {numeroError}
            </p>
          ) : null}
        </div>
        <button type="submit" className="button button-primary">
          Filtrar
        </button>
      </form>
      {failure ? (
        <div className="alert alert-error" role="alert">
          {numeroError ? 'Verifique os filtros.' : failure.message}
        </div>
      ) : null}
      {result === undefined && !failure ? <p role="status">Carregando cotações…</p> : null}
      {result?.content.length === 0 ? <p>Nenhuma cotação encontrada.</p> : null}
      {result && result.content.length > 0 ? (
        <>
          <div className="data-table">
            <div className="data-table-scroll">
              <table>
                <caption className="visually-hidden">Cotações de Empresarial, Itens Pessoais e Vida</caption>
                <thead>
                  <tr>
                    <th scope="col">Cotação</th>
                    <th scope="col">Produto</th>
                    <th scope="col">Segurado</th>
                    <th scope="col">Prêmio</th>
                    <th scope="col">Situação</th>
                    <th scope="col">Ação</th>
                  </tr>
                </thead>
                <tbody>
                  {result.content.map((row) => (
                    <tr key={row.nrCotacao}>
                      <td data-label="Cotação">{row.nrCotacao}</td>
                      <td data-label="Produto">{row.productName}</td>
                      <td data-label="Segurado">{row.nomeSegurado}</td>
                      <td data-label="Prêmio">{row.premioTotal === null ? '—' : formatBRL(row.premioTotal)}</td>
                      <td data-label="Situação">
                        <div>
                          {row.statusLabel}
                          {row.clock && clockSummary(row.clock, formatDate) ? (
                            <span className="consulta-prazo">{clockSummary(row.clock, formatDate)}</span>
                          ) : null}
                        </div>
                      </td>
                      <td data-label="Ação">
                        <a href={row.href}>{row.status === 'EM_ELABORACAO' ? 'Continuar' : 'Ver'}</a>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
          {result.previous || result.next ? (
            <nav className="pagination" aria-label="Paginação: cotações">
              {result.previous ? (
                <a className="button button-outline button-small" href={hrefFor(values, result.previous)} rel="prev">
                  Anterior
                </a>
              ) : null}
              <span>{result.totalPages ? `Página ${page} de ${result.totalPages}` : `Página ${page}`}</span>
              {result.next ? (
                <a className="button button-outline button-small" href={hrefFor(values, result.next)} rel="next">
                  Próxima
                </a>
              ) : null}
            </nav>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
