import * as z from 'zod/mini';
import { DECISION_TEXT_MAX, DECISION_TEXT_MIN } from './acceptance';

/**
 * The insurer's decision on a proposal in analysis (issue 13): accept, refuse with a reason, or ask for
 * documents saying which. One schema for the API (POST …/v1/propostas/{nrProposta}/decisao) and the
 * queue page's own form, which works before (or without) its island's script (issue 27, decision 057).
 */
const decisionText = (what: string) =>
  z
    .string({ error: `Informe ${what}.` })
    .check(
      z.trim(),
      z.minLength(DECISION_TEXT_MIN, `Informe ${what} (ao menos ${DECISION_TEXT_MIN} caracteres).`),
      z.maxLength(DECISION_TEXT_MAX, `No máximo ${DECISION_TEXT_MAX} caracteres.`),
    );

export const decisionSchema = z.discriminatedUnion(
  'decisao',
  [
    z.object({ decisao: z.literal('ACEITAR') }),
    z.object({ decisao: z.literal('RECUSAR'), motivo: decisionText('o motivo da recusa') }),
    z.object({ decisao: z.literal('SOLICITAR_DOCUMENTOS'), motivo: decisionText('os documentos pedidos') }),
  ],
  { error: 'Escolha aceitar, recusar ou pedir documentos.' },
);

export type DecisionKind = z.output<typeof decisionSchema>['decisao'];
export const DECISION_KINDS: readonly DecisionKind[] = ['ACEITAR', 'RECUSAR', 'SOLICITAR_DOCUMENTOS'];
