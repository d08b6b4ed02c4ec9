import { sql } from 'kysely';
import type { DB } from '../../db';
import type { V2ProfileCode } from '../../db/schema';
import { DomainError, notFound } from '../../errors';
import { now } from '../../clock';
import { queueFirstAccess } from '../identity/account';
import { deliverAfter } from '../../mail/outbox';
import {
  heldOperations,
  USER_ADMIN_MESSAGES,
  v2GrantProblems,
  type CompanyFact,
  type FieldErrors,
  type FormStatus,
  type LinkData,
  type PersonalData,
  type V2Actor,
} from '../../../lib/user-admin';
import { managedUser, requireChange, type UserRecord } from './user-admin';
import {
  changed,
  changedFields,
  checkStanding,
  duplicates,
  EVENT_OF_STATUS,
  inUserChange,
  logEvent,
  refuse,
  settleAccess,
  storedStatus,
  uniqueAsConflict,
  type SavedUser,
} from './user-admin-writing';

/*
 * User administration, v2 users (issue 16, decision 046): creating and changing a user of the v2
 * generation from both steps — personal data, profile, companies, point of sale, permission group
 * and operations — each checked as the actor may grant it.
 */

/** The companies (by CNPJ) and point of sale a v2 link names, resolved; unknown ones are field errors. */
async function resolveLink(
  db: DB,
  link: LinkData,
): Promise<{
  companies: CompanyFact[];
  pointOfSale: { id: number; companyId: number; active: boolean } | null;
  permissionGroup: { id: number; companyId: number; operations: string[] } | null;
  errors: FieldErrors;
}> {
  const errors: FieldErrors = {};
  const cnpjs = [...new Set(link.empresas)];
  const rows = cnpjs.length ? await db.selectFrom('companies').select(['id', 'cnpj', 'tipo']).where('cnpj', 'in', cnpjs).execute() : [];
  if (rows.length !== cnpjs.length) errors.empresas = [USER_ADMIN_MESSAGES.company];
  let pointOfSale: { id: number; companyId: number; active: boolean } | null = null;
  if (link.pontoVenda) {
    // Shared lock: a point of sale being deactivated meanwhile (which locks it for update) is read
    // after that commits, so no user is put at a point of sale deactivated under them (decision 051).
    const pv = await db
      .selectFrom('points_of_sale')
      .select(['id', 'company_id', 'status'])
      .where('id', '=', Number(link.pontoVenda))
      .forShare()
      .executeTakeFirst();
    if (!pv) errors.pontoVenda = [USER_ADMIN_MESSAGES.unknownPointOfSale];
    else pointOfSale = { id: pv.id, companyId: pv.company_id, active: pv.status === 'ATIVO' };
  }
  let permissionGroup: { id: number; companyId: number; operations: string[] } | null = null;
  if (link.grupoPermissao) {
    const group = await db
      .selectFrom('v2_permission_groups as g')
      .select([
        'g.id',
        'g.company_id',
        sql<string[]>`coalesce((select array_agg(o.operation) from v2_permission_group_operations o where o.group_id = g.id), '{}')`.as(
          'operations',
        ),
      ])
      .where('g.id', '=', Number(link.grupoPermissao))
      .executeTakeFirst();
    if (!group) errors.grupoPermissao = [USER_ADMIN_MESSAGES.unknownPermissionGroup];
    else permissionGroup = { id: group.id, companyId: group.company_id, operations: group.operations };
  }
  return { companies: rows.map((r) => ({ id: r.id, tipo: r.tipo })), pointOfSale, permissionGroup, errors };
}

export interface V2Change {
  dados: PersonalData;
  vinculo: LinkData;
  status?: FormStatus;
}

/** The field errors of a v2 change the actor may not make (empty when it may). */
export async function v2ChangeProblems(db: DB, actor: V2Actor, change: V2Change, before?: UserRecord): Promise<FieldErrors> {
  try {
    await checkV2(db, actor, change, before);
    return {};
  } catch (error) {
    if (error instanceof DomainError && error.fieldErrors) return error.fieldErrors;
    throw error;
  }
}

/** Checks a whole v2 change as the actor may make it; answers what to write. */
async function checkV2(db: DB, actor: V2Actor, change: V2Change, before?: UserRecord) {
  const link = await resolveLink(db, change.vinculo);
  const errors: FieldErrors = { ...link.errors };
  const profile = change.dados.perfil;
  const grant = v2GrantProblems(
    actor,
    {
      profile,
      operations: change.vinculo.operacoes,
      companies: link.companies,
      pointOfSaleCompanyId: link.pointOfSale?.companyId ?? null,
      pointOfSaleInactive: link.pointOfSale ? !link.pointOfSale.active && link.pointOfSale.id !== before?.pointOfSaleId : false,
      permissionGroup: link.permissionGroup,
    },
    before,
  );
  for (const [field, messages] of Object.entries(grant)) errors[field] = [...(errors[field] ?? []), ...messages];
  const known = new Set([...heldOperations({ ...actor, profile: 'ADMIN' })]);
  if (change.vinculo.operacoes.some((op) => !known.has(op))) errors.operacoes = [...(errors.operacoes ?? []), 'Permissão desconhecida.'];
  if (Object.keys(errors).length > 0) refuse(errors);
  const companyIds = profile === 'ADMIN' ? [] : link.companies.map((c) => c.id);
  return {
    companyIds,
    pointOfSaleId: profile === 'ADMIN' ? null : (link.pointOfSale?.id ?? null),
    permissionGroupId: profile === 'ADMIN' ? null : (link.permissionGroup?.id ?? null),
    operations: [...new Set(change.vinculo.operacoes)],
  };
}

async function writeLinks(trx: DB, id: number, companyIds: number[], operations: string[]): Promise<void> {
  await trx.deleteFrom('user_companies').where('user_id', '=', id).execute();
  if (companyIds.length > 0)
    await trx
      .insertInto('user_companies')
      .values(companyIds.map((company_id) => ({ user_id: id, company_id })))
      .execute();
  await trx.deleteFrom('user_operations').where('user_id', '=', id).execute();
  if (operations.length > 0)
    await trx
      .insertInto('user_operations')
      .values(operations.map((operation) => ({ user_id: id, operation })))
      .execute();
}

/** Creates a v2 user (pending) from both steps and sends the first-access e-mail. */
export function createV2User(db: DB, actor: V2Actor, change: V2Change, ip: string | null): Promise<SavedUser> {
  return deliverAfter(uniqueAsConflict(db.transaction().execute((trx) => insertV2User(trx, actor, change, ip))));
}

/** Checks and writes a new v2 user inside the caller's transaction (see insertLegacyUser, user-admin-legacy.ts). */
export async function insertV2User(trx: DB, actor: V2Actor, change: V2Change, ip: string | null): Promise<SavedUser> {
  requireChange(actor);
  const { companyIds, pointOfSaleId, permissionGroupId, operations } = await checkV2(trx, actor, change);
  const { dados } = change;
  const status = storedStatus(change.status ?? 'ativo', false);
  const dup = await duplicates(trx, dados.email, dados.cpf);
  if (Object.keys(dup).length > 0) refuse(dup, 'conflict');
  const user = await trx
    .insertInto('users')
    .values({
      email: dados.email,
      nome: dados.nome,
      cpf: dados.cpf,
      celular: dados.celular,
      generation: 'v2',
      profile: dados.perfil.toLowerCase() as V2ProfileCode,
      status,
      password_hash: null,
      company_id: companyIds[0] ?? null,
      point_of_sale_id: pointOfSaleId,
      permission_group_id: permissionGroupId,
      created_at: now(),
    })
    .returning(['id', 'nome', 'email', 'status'])
    .executeTakeFirstOrThrow();
  await writeLinks(trx, user.id, companyIds, operations);
  if (user.status === 'PENDENTE') await queueFirstAccess(trx, user);
  await trx
    .deleteFrom('user_admin_drafts')
    .where('actor_id', '=', actor.userId)
    .where('cpf', '=', dados.cpf)
    .where('acao', '=', 'novo')
    .execute();
  await logEvent(
    trx,
    'USUARIO_CRIADO',
    { ...user, generation: 'v2' },
    actor.userId,
    ip,
    `perfil: ${dados.perfil}; permissões: ${operations.length}`,
  );
  return user;
}

/** Changes a v2 user from both steps (and the status when given). */
export async function updateV2User(db: DB, actor: V2Actor, id: number, change: V2Change, ip: string | null): Promise<SavedUser> {
  requireChange(actor);
  const saved = await inUserChange(db, async (trx) => {
    const before = await managedUser(trx, actor, { id });
    if (!before) throw notFound(USER_ADMIN_MESSAGES.notManaged);
    const { companyIds, pointOfSaleId, permissionGroupId, operations } = await checkV2(trx, actor, change, before);
    const { dados } = change;
    const status = change.status ? storedStatus(change.status, before.hasPassword) : before.status;
    await checkStanding(trx, actor, before, { status, profile: dados.perfil, groups: [], companyIds });
    const dup = await duplicates(trx, dados.email, dados.cpf, id);
    if (Object.keys(dup).length > 0) refuse(dup, 'conflict');
    const user = await trx
      .updateTable('users')
      .set({
        nome: dados.nome,
        email: dados.email,
        cpf: dados.cpf,
        celular: dados.celular,
        profile: dados.perfil.toLowerCase() as V2ProfileCode,
        status,
        company_id: companyIds[0] ?? null,
        point_of_sale_id: pointOfSaleId,
        permission_group_id: permissionGroupId,
        // Another group (or none) starts without the old one's end date (decision 071); the same keeps it.
        ...(permissionGroupId === before.permissionGroupId ? {} : { permission_group_ends_at: null }),
      })
      .where('id', '=', id)
      .returning(['id', 'nome', 'email', 'status'])
      .executeTakeFirstOrThrow();
    await writeLinks(trx, id, companyIds, operations);
    await settleAccess(trx, before, user);
    await trx
      .deleteFrom('user_admin_drafts')
      .where('actor_id', '=', actor.userId)
      .where('cpf', '=', before.cpf ?? dados.cpf)
      .where('acao', '=', 'editar')
      .execute();
    const detail = changedFields(
      {
        nome: before.nome,
        email: before.email,
        cpf: before.cpf,
        celular: before.celular,
        perfil: before.profile,
        empresas: before.companyIds,
        pontoVenda: before.pointOfSaleId,
        grupoPermissao: before.permissionGroupId,
        operacoes: before.operations,
        status: before.status,
      },
      {
        nome: dados.nome,
        email: dados.email,
        cpf: dados.cpf,
        celular: dados.celular,
        perfil: dados.perfil,
        empresas: companyIds,
        pontoVenda: pointOfSaleId,
        grupoPermissao: permissionGroupId,
        operacoes: [...operations].sort(),
        status,
      },
    );
    await logEvent(
      trx,
      status !== before.status ? EVENT_OF_STATUS[status] : 'USUARIO_ALTERADO',
      { ...user, generation: 'v2' },
      actor.userId,
      ip,
      detail,
    );
    return user;
  });
  changed(db, id);
  return saved;
}
