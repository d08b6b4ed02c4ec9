import { endpoint } from '../router';
import { forbidden } from '../errors';
import { normalizeCnpj } from '../../../lib/validators';
import { loadV2User } from '../../services/principals';
import { changePasswordEndpoint, recoveryEndpoints } from './plataforma';
import type { DB } from '../../db';
import type { User } from '../../db/schema';

/** The portal BFF (SPEC §7): `{ dado }`. */

/**
 * The company a v2 user acts for, from the `empresa` header. A user may act only for a company
 * linked to them (the provider's admins for any); anything else is 403 (DESIGN §4).
 */
export async function actingCompany(db: DB, user: User, header: string | null): Promise<string | undefined> {
  if (!header) return undefined;
  const cnpj = normalizeCnpj(header);
  const company = await db.selectFrom('companies').select('id').where('cnpj', '=', cnpj).executeTakeFirst();
  if (user.profile === 'admin' && company) return cnpj;
  const linked = company && await db.selectFrom('user_companies').select('user_id')
    .where('user_id', '=', user.id).where('company_id', '=', company.id).executeTakeFirst();
  if (!linked) throw forbidden('Você não tem acesso a esta empresa.');
  return cnpj;
}

export const bff = [
  endpoint({
    method: 'GET', path: '/v1/usuario', auth: ['v2'],
    async handle(ctx) {
      const empresa = await actingCompany(ctx.db, ctx.auth.user, ctx.request.headers.get('empresa'));
      const atributos = await loadV2User(ctx.db, ctx.auth.user, { fullyAuthenticated: false, empresa });
      const { fullyAuthenticated: _, generation: __, ...rest } = atributos;
      return { atributos: { ...rest, nmEmail: rest.email } };
    },
  }),
  changePasswordEndpoint('v2'),
  ...recoveryEndpoints(),
];
