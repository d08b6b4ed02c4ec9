import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { DataTable, pageWindow, type DataTableProps } from './DataTable';

interface Row {
  id: number;
  nome: string;
  valor: number;
}

const render = (props: Partial<DataTableProps<Row>>) =>
  renderToStaticMarkup(
    createElement(DataTable<Row>, {
      caption: 'Cotações',
      columns: [
        { key: 'nome', header: 'Nome' },
        { key: 'valor', header: 'Valor', align: 'end', render: (row) => `R$ ${row.valor}` },
      ],
      rows: [{ id: 1, nome: 'Ana', valor: 10 }],
      rowKey: (row) => row.id,
      page: 0,
      totalPages: 1,
      onPageChange: () => {},
      ...props,
    }),
  );

describe('pageWindow', () => {
  it.each([
    [0, 1, [0]],
    [0, 3, [0, 1, 2]],
    [0, 5, [0, 1, 'gap', 4]],
    [2, 5, [0, 1, 2, 3, 4]],
    [5, 10, [0, 'gap', 4, 5, 6, 'gap', 9]],
    [9, 10, [0, 'gap', 8, 9]],
  ] as const)('page %i of %i → %j', (page, total, expected) => {
    expect(pageWindow(page, total)).toEqual(expected);
  });
});

describe('DataTable', () => {
  it('renders a captioned table whose cells carry their header for the narrow layout', () => {
    const html = render({});
    expect(html).toContain('<caption>Cotações</caption>');
    expect(html).toContain('<th scope="col">Nome</th>');
    expect(html).toContain('<td data-label="Nome">Ana</td>');
    expect(html).toContain('<td data-label="Valor" class="align-end">R$ 10</td>');
  });

  it('says so when there is nothing to show, and while loading', () => {
    expect(render({ rows: [], totalPages: 0 })).toContain('Nenhum registro encontrado.');
    expect(render({ rows: [], totalPages: 0, emptyMessage: 'Nenhuma apólice.' })).toContain('Nenhuma apólice.');
    expect(render({ rows: [], loading: true })).toContain('Carregando…');
  });

  it('shows the pagination only when there is more than one page', () => {
    expect(render({ totalPages: 1 })).not.toContain('<nav');
    const html = render({ page: 1, totalPages: 3 });
    expect(html).toContain('>Página 2 de 3</p>');
    expect(html).toMatch(/aria-label="Página 2" aria-current="page"/);
    expect(html).toContain('>Anterior</button>');
    expect(html).toContain('>Próxima</button>');
  });
});
