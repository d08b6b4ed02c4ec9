import Papa from 'papaparse';
import { useEffect, useState } from 'react';
import { decodeCsv, delimiterOf, IMPORT_LIMITS, IMPORT_MESSAGES, readHeader, type ImportGeneration } from '../../lib/user-import-format';

/**
 * A look at the chosen file before it is sent (issue 16, decision 048): papaparse reads its first
 * lines in the browser, the header is checked with the server's own rule, and a file too big is
 * stopped here. The server checks every row again; this only spares a round trip.
 */
interface Props {
  generation: ImportGeneration;
  /** The id of the form's file input. */
  inputId: string;
}

interface Preview {
  name: string;
  /** Each column keyed by its position and name (a header may repeat a name). */
  columns: { key: string; name: string }[];
  /** Each row keyed by its line in the file. */
  rows: { line: number; cells: string[] }[];
  lines: number;
  problems: string[];
}

export default function CsvPreview({ generation, inputId }: Props) {
  const [preview, setPreview] = useState<Preview | undefined>();
  const [problem, setProblem] = useState<string | undefined>();

  useEffect(() => {
    const input = document.getElementById(inputId) as HTMLInputElement | null;
    const submit = input?.form?.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (!input) return;
    const onChange = async () => {
      setPreview(undefined);
      setProblem(undefined);
      const file = input.files?.[0];
      if (submit) submit.disabled = false;
      if (!file) return;
      if (file.size > IMPORT_LIMITS.maxBytes) {
        setProblem(IMPORT_MESSAGES.tooBig);
        if (submit) submit.disabled = true;
        return;
      }
      const { text } = decodeCsv(new Uint8Array(await file.arrayBuffer()));
      const parsed = Papa.parse<string[]>(text, { delimiter: delimiterOf(text), skipEmptyLines: 'greedy', preview: 6 });
      const [header = [], ...rows] = parsed.data;
      if (header.length === 0) {
        setProblem(IMPORT_MESSAGES.empty);
        return;
      }
      const lines = text.split(/\r?\n/).filter((line) => line.trim()).length - 1;
      setPreview({
        name: file.name,
        columns: header.map((name, i) => ({ key: `${i}:${name}`, name })),
        rows: rows.map((cells, i) => ({ line: i + 2, cells })),
        lines,
        problems: readHeader(generation, header).problems,
      });
    };
    input.addEventListener('change', onChange);
    return () => input.removeEventListener('change', onChange);
  }, [generation, inputId]);

  return (
    <div className="csv-preview" aria-live="polite" data-testid="previa-arquivo">
      {problem ? <p className="field-error">{problem}</p> : null}
      {preview ? (
        <>
          <p>
            <strong>{preview.name}</strong>: {preview.lines === 1 ? '1 linha' : `${preview.lines.toLocaleString('pt-BR')} linhas`} de
            usuários. Primeiras linhas:
          </p>
          {preview.problems.map((p) => (
            <p className="field-error" key={p}>
              {p}
            </p>
          ))}
          <div className="data-table-scroll">
            <table>
              <thead>
                <tr>
                  {preview.columns.map((column) => (
                    <th scope="col" key={column.key}>
                      {column.name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {preview.rows.map((row) => (
                  <tr key={row.line}>
                    {preview.columns.map((column, c) => (
                      <td key={column.key}>{row.cells[c] ?? ''}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="muted">Todas as linhas são verificadas ao enviar; nada é gravado antes da sua confirmação.</p>
        </>
      ) : null}
    </div>
  );
}
