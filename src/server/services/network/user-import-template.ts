import { stringify } from 'csv-stringify/sync';
import type { DB } from '../../db';
import { requireChange } from './user-admin';
import { lookups } from './user-import';
import { templatePerson, templateRows } from '../../../lib/user-import';
import { grantableGroups, grantableProfiles, heldOperations, managedCompanies, type Actor } from '../../../lib/user-admin';
import { REPORT_CSV_OPTIONS } from '../../../lib/sales-reports';
import { formatCnpj } from '../../../lib/validators';

/*
 * Bulk user import, the template (issue 27): the CSV the actor downloads, with an example line that
 * validates as it is.
 */

/**
 * The template the actor downloads (issue 27): its example line names the actor's own company, a
 * group, point of sale and permission they may give, and a person whose CPF and e-mail nobody holds
 * — so the template sent back unchanged validates. Sample data (ILLUSTRATIVE), read in a few queries.
 */
export async function importTemplate(db: DB, actor: Actor): Promise<string> {
  requireChange(actor);
  const people = Array.from({ length: 10 }, (_, n) => templatePerson(n));
  const taken = await db
    .selectFrom('users')
    .select(['email', 'cpf'])
    .where((eb) =>
      eb.or([
        eb(
          'email',
          'in',
          people.map((p) => p.email),
        ),
        eb(
          'cpf',
          'in',
          people.map((p) => p.cpf.replace(/\D/g, '')),
        ),
      ]),
    )
    .execute();
  const person = people.find((p) => !taken.some((t) => t.email === p.email || t.cpf === p.cpf.replace(/\D/g, ''))) ?? people[0]!;
  const managed = managedCompanies(actor);
  let companies = db.selectFrom('companies').select(['id', 'cnpj', 'tipo']).orderBy('id');
  if (managed !== 'all') companies = companies.where('id', 'in', managed.length > 0 ? [...managed] : [0]);
  const [mine, facts] = await Promise.all([companies.execute(), lookups(db)]);
  if (actor.generation === 'v1') {
    const grantable = grantableGroups(actor, facts.groups).filter((g) => !g.isAdmin);
    const group = grantable.find((g) => g.nome === 'VENDEDOR') ?? grantable[0];
    return stringify(
      templateRows('v1', {
        ...person,
        empresa: mine[0] ? formatCnpj(mine[0].cnpj) : '',
        ...(group ? { grupos: group.nome } : {}),
      }),
      REPORT_CSV_OPTIONS,
    );
  }
  const profiles = grantableProfiles(actor).filter((p): p is 'PARCEIRO' | 'SUBSTABELECIDO' => p === 'PARCEIRO' || p === 'SUBSTABELECIDO');
  const profile = profiles.find((p) => mine.some((c) => c.tipo === p)) ?? profiles[0] ?? 'PARCEIRO';
  const company = mine.find((c) => c.tipo === profile);
  const held = new Set(heldOperations(actor));
  const point = facts.points.find((p) => p.company_id === company?.id && p.status === 'ATIVO');
  const group = facts.permissionGroups.find((g) => g.company_id === company?.id && g.operations.every((op) => held.has(op)));
  return stringify(
    templateRows('v2', {
      ...person,
      perfil: profile,
      empresas: company ? formatCnpj(company.cnpj) : '',
      ponto_venda: point?.codigo ?? '',
      grupo_permissao: group?.nome ?? '',
      operacoes: held.has('COTAR_VENDER') ? 'COTAR_VENDER' : '',
    }),
    REPORT_CSV_OPTIONS,
  );
}
