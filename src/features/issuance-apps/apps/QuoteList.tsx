import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/Button';
import { EMBEDDED_APP_OF_CODE } from '../../../lib/embedded-apps';
import type { HistoryResult, HistoryRow } from '../../../lib/history';
import { createClient, payloadOf, toFailure, type ApiBases } from '../../../lib/http';
import { formatBRL } from '../../../lib/products/money';
import { HISTORY_STATUSES } from '../../../lib/quotes';
import { findSimulatorCode } from '../../../lib/simulators';

/** The embedded products' codes: the consultation lists their quotes (EMP, IP, VE). */
const EMBEDDED_CODES = Object.keys(EMBEDDED_APP_OF_CODE);

/**
 * The quotation consultation (SPEC §2): the seller's quotes of the embedded products, filtered by
 * product, status and number through the history endpoint (the same rows as /historico), each continued in
 * the app that sells it.
 */
export function QuoteList({ apis }: { apis: ApiBases }) {
  const [filters, setFilters] = useState({ simulador: '', status: '', numero: '' });
  const [rows, setRows] = useState<HistoryRow[]>();
  const [failure, setFailure] = useState<string>();

  useEffect(() => {
    const request = createClient(apis, 'plataforma');
    const { simulador, ...rest } = filters;
    const base = Object.fromEntries(Object.entries(rest).filter(([, v]) => v));
    setFailure(undefined);
    // One call per product (the history takes one), merged newest first: the 10 newest of each.
    Promise.all(
      (simulador ? [simulador] : EMBEDDED_CODES).map((code) =>
        request<{ resultado?: HistoryResult }>('/v1/cotacoes', { query: { ...base, simulador: code } }).then((a) => payloadOf(a)!.content),
      ),
    )
      .then((lists) => setRows(lists.flat().sort((a, b) => b.createdAt.localeCompare(a.createdAt))))
      .catch((error) => setFailure(toFailure(error).message));
  }, [apis, filters]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setFilters({
      simulador: String(data.get('simulador') ?? ''),
      status: String(data.get('status') ?? ''),
      numero: String(data.get('numero') ?? '').replace(/\D/g, ''),
    });
  }

  return (
    <section aria-labelledby="consulta-titulo">
      <h1 id="consulta-titulo">Consulta de cotações</h1>
      <p className="step-actions">
        <a className="button button-primary" href="/emissao/consulta-cotacao/iniciar/empresarial">
          Nova cotação Empresarial
        </a>
        <a className="button button-outline" href="/emissao/itens-pessoais/iniciar/itens-pessoais">
          Nova cotação Itens Pessoais
        </a>
        <a className="button button-outline" href="/emissao/cotacao/vida/nova-cotacao">
          Nova cotação Vida
        </a>
      </p>
      <form className="step-section consulta-filtros" onSubmit={submit} aria-label="Filtrar cotações">
        <div className="field">
          <label htmlFor="consulta-produto">Produto</label>
          <select id="consulta-produto" name="simulador" defaultValue="">
            <option value="">Todos</option>
            {EMBEDDED_CODES.map((code) => (
              <option key={code} value={code}>
                {findSimulatorCode(code)!.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="consulta-status">Situação</label>
          <select id="consulta-status" name="status" defaultValue="">
            <option value="">Todas</option>
            {HISTORY_STATUSES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="consulta-numero">Número da cotação ou proposta</label>
          <input id="consulta-numero" name="numero" inputMode="numeric" maxLength={20} />
        </div>
        <Button type="submit">Filtrar</Button>
      </form>
      {failure ? (
        <div className="alert alert-error" role="alert">
          {failure}
        </div>
      ) : null}
      {rows === undefined && !failure ? <p role="status">Carregando cotações…</p> : null}
      {rows?.length === 0 ? <p>Nenhuma cotação encontrada.</p> : null}
      {rows && rows.length > 0 ? (
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
                {rows.map((row) => (
                  <tr key={row.nrCotacao}>
                    <td data-label="Cotação">{row.nrCotacao}</td>
                    <td data-label="Produto">{row.productName}</td>
                    <td data-label="Segurado">{row.nomeSegurado}</td>
                    <td data-label="Prêmio">{row.premioTotal === null ? '—' : formatBRL(row.premioTotal)}</td>
                    <td data-label="Situação">{row.statusLabel}</td>
                    <td data-label="Ação">
                      <a href={row.href}>{row.status === 'EM_ELABORACAO' ? 'Continuar' : 'Ver'}</a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
    </section>
  );
}
