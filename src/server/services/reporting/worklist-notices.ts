import { sql } from 'kysely';
import type { BeneficiaryScope } from '../../../lib/scope';
import { noticePhrase, WORKLIST_KIND_LIMIT, WORKLIST_LINKS } from '../../../lib/worklist';
import { branchOf, keyOf, type KindReader } from './worklist-reader';

/* The worklist's notices of the user's own work (services/reporting/worklist.ts): reports, notas fiscais, imports. */

/** The user's own sales reports finished lately (notices). */
export const reportsKind: KindReader = {
  kind: 'RELATORIO',
  branches: (db, ctx, reading) => {
    const since = sql<Date>`r.finished_at`;
    const k = keyOf('RELATORIO', sql.ref('r.id'), since);
    const base = db
      .selectFrom('sales_reports as r')
      .where('r.user_id', '=', ctx.userId)
      .where('r.generation', '=', ctx.generation)
      .where('r.status', '=', 'PRONTO')
      .where('r.finished_at', '>=', ctx.w.noticesFrom)
      .orderBy('r.id', 'desc')
      .limit(WORKLIST_KIND_LIMIT);
    return [
      branchOf(reading, ctx, base, { k, since, notice: true }, (qb) =>
        qb.select([k.as('k'), since.as('since'), 'r.id', 'r.finished_at', 'r.linhas']),
      ),
    ];
  },
  item: (row, ctx) => ({
    what: `Relatório de vendas nº ${row.id} pronto (${row.linhas} ${row.linhas === 1 ? 'linha' : 'linhas'})`,
    whose: [],
    deadline: new Date(row.finished_at as Date).toISOString(),
    deadlineText: `Gerado ${noticePhrase(row.finished_at as Date)}`,
    href: WORKLIST_LINKS.report(ctx.generation, row.id),
    action: 'Baixar o relatório',
  }),
};

/** Notas fiscais approved or refused lately (notices), for whoever sees them (v2 only). */
export function notasKind(scope: BeneficiaryScope): KindReader {
  return {
    kind: 'NOTA_FISCAL',
    page: () => WORKLIST_LINKS.notaFiscal(),
    branches: (db, ctx, reading) => {
      if (ctx.generation !== 'v2' || (scope.kind === 'some' && scope.companyIds.length === 0)) return [];
      const since = sql<Date>`n.decidida_em`;
      const k = keyOf('NOTA_FISCAL', sql.ref('n.id'), since);
      const base = db
        .selectFrom('notas_fiscais as n')
        .where('n.status', 'in', ['APROVADA', 'RECUSADA'])
        .where('n.decidida_em', '>=', ctx.w.noticesFrom)
        .$if(scope.kind === 'some', (qb) => qb.where('n.company_id', 'in', (scope as { companyIds: number[] }).companyIds))
        .orderBy('n.decidida_em', 'desc')
        .limit(WORKLIST_KIND_LIMIT);
      return [
        branchOf(reading, ctx, base, { k, since, notice: true }, (qb) =>
          qb
            .innerJoin('companies as c', 'c.id', 'n.company_id')
            .select([
              k.as('k'),
              since.as('since'),
              'n.id',
              'n.numero',
              'n.status',
              'n.competencia',
              'n.motivo',
              'n.decidida_em',
              'c.razao_social as company',
            ]),
        ),
      ];
    },
    item: (row) => ({
      what: `Nota fiscal nº ${row.numero} (${row.competencia}) ${row.status === 'APROVADA' ? 'aprovada' : `recusada${row.motivo ? `: ${row.motivo}` : ''}`}`,
      whose: [row.company as string],
      deadline: new Date(row.decidida_em as Date).toISOString(),
      deadlineText: `Decidida ${noticePhrase(row.decidida_em as Date)}`,
      href: WORKLIST_LINKS.notaFiscal(),
      action: 'Ver as notas fiscais',
    }),
  };
}

/** The user's own imports of users finished lately (notices). */
export const importsKind: KindReader = {
  kind: 'IMPORTACAO',
  branches: (db, ctx, reading) => {
    const since = sql<Date>`m.finished_at`;
    const k = keyOf('IMPORTACAO', sql.ref('m.id'), since);
    const base = db
      .selectFrom('user_imports as m')
      .where('m.actor_id', '=', ctx.userId)
      .where('m.generation', '=', ctx.generation)
      .where('m.status', 'in', ['CONCLUIDO', 'ERRO'])
      .where('m.finished_at', '>=', ctx.w.noticesFrom)
      .orderBy('m.created_at', 'desc')
      .limit(WORKLIST_KIND_LIMIT);
    return [
      branchOf(reading, ctx, base, { k, since, notice: true }, (qb) =>
        qb.select([k.as('k'), since.as('since'), 'm.id', 'm.file_name', 'm.status', 'm.finished_at', 'm.processed_rows']),
      ),
    ];
  },
  item: (row, ctx) => ({
    what:
      row.status === 'ERRO'
        ? `Importação de usuários "${row.file_name}" interrompida por um erro`
        : `Importação de usuários "${row.file_name}" concluída (${row.processed_rows} ${row.processed_rows === 1 ? 'linha' : 'linhas'})`,
    whose: [],
    deadline: new Date(row.finished_at as Date).toISOString(),
    deadlineText: `Concluída ${noticePhrase(row.finished_at as Date)}`,
    href: WORKLIST_LINKS.importResult(ctx.generation, row.id),
    action: 'Baixar o resultado',
  }),
};
