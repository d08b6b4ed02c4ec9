import { z } from '../../../lib/zod';
import { endpoint, type Context } from '../router';
import { invalid, fieldErrorsOf, forbidden, notFound } from '../../errors';
import { decideProposal } from '../../services/after-sale/acceptance';
import { now } from '../../clock';
import { decisionSchema } from '../../../lib/proposal-decision';
import { normalizeCnpj } from '../../../lib/validators';
import { loadV2User } from '../../services/identity/principals';
import { changePasswordEndpoint, recoveryEndpoints } from './plataforma';
import { createOffers, listCompanies, listOffers, sellableOffers, updateOffer } from '../../services/network/offers';
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
  const linked =
    company &&
    (await db
      .selectFrom('user_companies')
      .select('user_id')
      .where('user_id', '=', user.id)
      .where('company_id', '=', company.id)
      .executeTakeFirst());
  if (!linked) throw forbidden('Você não tem acesso a esta empresa.');
  return cnpj;
}

/** Offer management is the provider admin's (the menu's 'Seguros' group, SPEC §6). */
function requireProviderAdmin(ctx: Context): void {
  if (ctx.auth.user.profile !== 'admin') throw forbidden('Apenas o administrador da seguradora gerencia ofertas.');
}

const optionalId = z.coerce
  .number()
  .int()
  .positive()
  .max(2 ** 31 - 1)
  .optional()
  .catch(undefined);
const offerListQuery = z.object({ idSimulador: optionalId, idEmpresa: optionalId });

export const bff = [
  endpoint({
    method: 'GET',
    path: '/v1/usuario',
    auth: ['v2'],
    viewerOnly: true,
    async handle(ctx) {
      const empresa = await actingCompany(ctx.db, ctx.auth.user, ctx.request.headers.get('empresa'));
      const atributos = await loadV2User(ctx.db, ctx.auth.user, { fullyAuthenticated: false, empresa });
      const { fullyAuthenticated: _, generation: __, ...rest } = atributos;
      return { atributos: { ...rest, nmEmail: rest.email } };
    },
  }),
  endpoint({
    method: 'GET',
    path: '/v1/ofertas',
    auth: ['v2'],
    query: offerListQuery,
    async handle(ctx) {
      if (ctx.auth.user.profile === 'admin') return listOffers(ctx.db, ctx.query);
      return sellableOffers(ctx.db, await loadV2User(ctx.db, ctx.auth.user, { fullyAuthenticated: false }));
    },
  }),
  // The body is read as it comes and validated by the service after the role check: whoever may
  // not manage offers gets 403 whatever they send.
  endpoint({
    method: 'POST',
    path: '/v1/ofertas',
    auth: ['v2'],
    body: z.unknown(),
    async handle(ctx) {
      requireProviderAdmin(ctx);
      return createOffers(ctx.db, ctx.body);
    },
  }),
  endpoint({
    method: 'PUT',
    path: '/v1/ofertas/:nrOferta',
    auth: ['v2'],
    body: z.unknown(),
    params: z.object({ nrOferta: z.string() }),
    async handle(ctx) {
      requireProviderAdmin(ctx);
      const nrOferta = /^\d{1,9}$/.test(ctx.params.nrOferta) ? Number(ctx.params.nrOferta) : NaN;
      if (!Number.isInteger(nrOferta) || nrOferta < 1) throw notFound('Oferta não encontrada.');
      return updateOffer(ctx.db, nrOferta, ctx.body);
    },
  }),
  endpoint({
    method: 'GET',
    path: '/v1/empresas',
    auth: ['v2'],
    async handle(ctx) {
      requireProviderAdmin(ctx);
      return listCompanies(ctx.db);
    },
  }),
  changePasswordEndpoint('v2'),
  ...recoveryEndpoints(),
  // The provider's ADMIN decides a proposal the rules referred (issue 13).
  endpoint({
    method: 'POST',
    path: '/v1/propostas/:nrProposta/decisao',
    auth: ['v2'],
    params: z.object({ nrProposta: z.string().regex(/^\d{1,20}$/, 'Proposta inválida.') }),
    body: z.unknown(),
    async handle(ctx) {
      if (ctx.auth.user.profile !== 'admin') throw forbidden('Apenas a seguradora decide propostas em análise.');
      const decision = z.safeParse(decisionSchema, ctx.body);
      if (!decision.success) throw invalid(decision.error.issues[0]!.message, fieldErrorsOf(decision.error));
      await decideProposal(ctx.db, ctx.auth.user.id, ctx.params.nrProposta, decision.data, now());
      return { decidida: true };
    },
  }),
];
