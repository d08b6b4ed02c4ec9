import { sql } from 'kysely';
import type { DB } from '../../db';
import { now } from '../../clock';
import type { Actor, LinkData, PersonalData, UserAction } from '../../../lib/user-admin';
import type { UserRecord } from './user-admin';

/*
 * User administration, the v2 steps' drafts (issue 16, decision 046): each step's answer kept per
 * actor and CPF until the last step writes the user, and the first step's early checks of a CPF or
 * e-mail already taken.
 */

export interface UserDraft {
  dados?: PersonalData;
  vinculo?: LinkData;
}

export async function readDraft(db: DB, actor: Actor, cpf: string, acao: UserAction): Promise<UserDraft | undefined> {
  const row = await db
    .selectFrom('user_admin_drafts')
    .select('dados')
    .where('actor_id', '=', actor.userId)
    .where('cpf', '=', cpf)
    .where('acao', '=', acao)
    .executeTakeFirst();
  return row ? (row.dados as UserDraft) : undefined;
}

/** Keeps a step's answer in the actor's draft for this CPF (made by the first step). */
export async function saveDraft(db: DB, actor: Actor, cpf: string, acao: UserAction, step: Partial<UserDraft>): Promise<void> {
  await db
    .insertInto('user_admin_drafts')
    .values({ actor_id: actor.userId, cpf, acao, dados: JSON.stringify(step), updated_at: now() })
    .onConflict((oc) =>
      oc.columns(['actor_id', 'cpf', 'acao']).doUpdateSet({ dados: sql`user_admin_drafts.dados || excluded.dados`, updated_at: now() }),
    )
    .execute();
}

/** Moves a draft to another CPF (the first step changed it): the later steps come along. */
export async function moveDraft(db: DB, actor: Actor, from: string, to: string, acao: UserAction): Promise<void> {
  if (from === to) return;
  await db.transaction().execute(async (trx) => {
    const old = await trx
      .deleteFrom('user_admin_drafts')
      .where('actor_id', '=', actor.userId)
      .where('cpf', '=', from)
      .where('acao', '=', acao)
      .returning('dados')
      .executeTakeFirst();
    if (!old) return;
    await trx.deleteFrom('user_admin_drafts').where('actor_id', '=', actor.userId).where('cpf', '=', to).where('acao', '=', acao).execute();
    await trx
      .insertInto('user_admin_drafts')
      .values({ actor_id: actor.userId, cpf: to, acao, dados: JSON.stringify(old.dados), updated_at: now() })
      .execute();
  });
}

/** The draft of an existing user to edit starts from what they have. */
export function draftOfUser(user: UserRecord): Required<UserDraft> {
  return {
    dados: {
      cpf: user.cpf ?? '',
      nome: user.nome,
      email: user.email,
      celular: user.celular ?? '',
      perfil: user.profile ?? 'PARCEIRO',
    },
    vinculo: {
      empresas: user.empresas.map((c) => c.cnpj),
      pontoVenda: user.pointOfSaleId ? String(user.pointOfSaleId) : '',
      grupoPermissao: user.permissionGroupId ? String(user.permissionGroupId) : '',
      operacoes: [...user.operations],
    },
  };
}

/** A CPF already taken by someone (for the first step's early message). */
export async function cpfTaken(db: DB, cpf: string, exceptId?: number): Promise<boolean> {
  let query = db.selectFrom('users').select('id').where('cpf', '=', cpf);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return Boolean(await query.executeTakeFirst());
}
export async function emailTaken(db: DB, email: string, exceptId?: number): Promise<boolean> {
  let query = db.selectFrom('users').select('id').where('email', '=', email);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return Boolean(await query.executeTakeFirst());
}
