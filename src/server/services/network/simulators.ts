import * as core from 'zod/v4/core';
import type { DB } from '../../db';
import { invalid, notFound } from '../../errors';
import { messagesByField, topField } from '../../../lib/field-errors';
import { simulatorUpdateSchema } from '../../../lib/simulator-schema';
import { announce } from '../../cache';
import { OFFERS_CHANGED } from './offers';

/**
 * The legacy admin's simulator editing (/editar-simulador/{id}, PUT /v1/simuladores/{id}). Both homes
 * read the simulator's name and state from this row on every request (services/network/offers.ts), so a
 * change shows at once; an inactive simulator leaves every home and its redirect.
 */
export interface EditableSimulator {
  id: number;
  code: string;
  nome: string;
  urlInicio: string;
  ativo: boolean;
  grupoProduto: string | null;
}

export async function findEditableSimulator(db: DB, id: number): Promise<EditableSimulator | undefined> {
  if (!Number.isInteger(id) || id < 1 || id > 2 ** 31 - 1) return undefined;
  const row = await db
    .selectFrom('simulators')
    .select(['id', 'code', 'nome', 'url_inicio as urlInicio', 'ativo', 'grupo_produto as grupoProduto'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row;
}

export async function updateSimulator(db: DB, id: number, input: unknown): Promise<EditableSimulator> {
  if (!(await findEditableSimulator(db, id))) throw notFound('Simulador não encontrado.');
  const result = core.safeParse(simulatorUpdateSchema, input);
  if (!result.success) {
    throw invalid(result.error.issues[0]?.message ?? 'Dados do simulador inválidos.', messagesByField(result.error.issues, topField));
  }
  const { nome, urlInicio, ativo, grupoProduto } = result.data;
  await db
    .updateTable('simulators')
    .set({ nome, url_inicio: urlInicio, ativo, grupo_produto: grupoProduto })
    .where('id', '=', id)
    .execute();
  announce(db, OFFERS_CHANGED);
  return (await findEditableSimulator(db, id))!;
}
