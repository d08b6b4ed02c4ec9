import { useId, type ReactNode } from 'react';

export interface DataTableColumn<Row> {
  /** The row property shown when there is no `render`; also the column's React key. */
  key: string;
  header: string;
  render?: (row: Row) => ReactNode;
  /** 'end' for numbers and amounts. */
  align?: 'start' | 'end';
}

export interface DataTableProps<Row> {
  /** What the table lists; shown above it and named to assistive technology. */
  caption: string;
  columns: readonly DataTableColumn<Row>[];
  /** The rows of the current page (pagination is the server's). */
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string | number;
  /** 0-based, as the APIs count pages. */
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
  loading?: boolean;
  emptyMessage?: string;
  /** Hide the caption visually (it stays for screen readers). */
  hideCaption?: boolean;
}

const cell = <Row,>(row: Row, column: DataTableColumn<Row>): ReactNode => {
  if (column.render) return column.render(row);
  const value = (row as Record<string, unknown>)[column.key];
  return value == null ? '' : String(value);
};

/** The page numbers to offer: the first, the last, and the current one with its neighbours. */
export function pageWindow(page: number, totalPages: number): (number | 'gap')[] {
  const pages = [...new Set([0, page - 1, page, page + 1, totalPages - 1])].filter((p) => p >= 0 && p < totalPages).sort((a, b) => a - b);
  return pages.flatMap((p, i) => (i > 0 && p - pages[i - 1]! > 1 ? ['gap' as const, p] : [p]));
}

/**
 * A table of rows with server-side pagination. Under 600 px each row becomes a card whose cells
 * carry their column header.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  page,
  totalPages,
  onPageChange,
  loading = false,
  emptyMessage = 'Nenhum registro encontrado.',
  hideCaption = false,
}: DataTableProps<Row>) {
  const statusId = useId();
  const last = Math.max(totalPages - 1, 0);
  return (
    <div className="data-table">
      <div className="data-table-scroll">
        <table aria-busy={loading || undefined} aria-describedby={totalPages > 1 ? statusId : undefined}>
          <caption className={hideCaption ? 'visually-hidden' : undefined}>{caption}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.key} scope="col" className={column.align === 'end' ? 'align-end' : undefined}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr className="data-table-message">
                <td colSpan={columns.length}>{loading ? 'Carregando…' : emptyMessage}</td>
              </tr>
            ) : (
              rows.map((row, index) => (
                <tr key={rowKey(row, index)}>
                  {columns.map((column) => (
                    <td key={column.key} data-label={column.header} className={column.align === 'end' ? 'align-end' : undefined}>
                      {cell(row, column)}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
        {loading && rows.length > 0 ? (
          <p className="data-table-loading" role="status">
            Carregando…
          </p>
        ) : null}
      </div>
      {totalPages > 1 ? (
        <nav className="pagination" aria-label={`Paginação: ${caption}`}>
          <button
            type="button"
            className="button button-outline button-small"
            disabled={page <= 0 || loading}
            onClick={() => onPageChange(page - 1)}
          >
            Anterior
          </button>
          <ul className="pagination-pages">
            {pageWindow(page, totalPages).map((p, i, all) =>
              p === 'gap' ? (
                <li key={`gap-after-${all[i - 1]}`} aria-hidden="true" className="pagination-gap">
                  …
                </li>
              ) : (
                <li key={p}>
                  <button
                    type="button"
                    className="pagination-page"
                    aria-label={`Página ${p + 1}`}
                    aria-current={p === page ? 'page' : undefined}
                    disabled={loading}
                    onClick={() => p !== page && onPageChange(p)}
                  >
                    {p + 1}
                  </button>
                </li>
              ),
            )}
          </ul>
          <button
            type="button"
            className="button button-outline button-small"
            disabled={page >= last || loading}
            onClick={() => onPageChange(page + 1)}
          >
            Próxima
          </button>
          <p className="pagination-status" id={statusId} aria-live="polite">{`Página ${page + 1} de ${totalPages}`}</p>
        </nav>
      ) : null}
    </div>
  );
}
