import * as core from 'zod/v4/core';
import type { DB } from '../../db';
import { invalid, forbidden, notFound } from '../../errors';
import { messagesByField, topField } from '../../../lib/field-errors';
import { canOfferCodeV1, canSellCode, canSellCodeV1 } from '../../../lib/offers';
import { findSimulatorCode, legacyStartPath, v2StartPath, type ProductLine } from '../../../lib/simulators';
import { offerOperation, v1OfferPermission, V1_ADMIN_GROUP } from '../../../lib/permissions';
import { offerSituation, type OfferSituation } from '../../../lib/offer-validity';
import { brasiliaDay } from '../../../lib/format';
import { offerCreateSchema, offerUpdateSchema, type OfferUpdate } from '../../../lib/offer-schema';
import type { V1SessionUser, V2SessionUser } from '../../../lib/session';
import { announce, readThrough, type CacheSpec } from '../../cache';
import { principalFacts, type PrincipalFacts } from '../identity/principals';
import { pointOfSaleOfSale } from './points-of-sale';
import { now as clockNow } from '../../clock';
import {
  companyOperating,
  OFFER_MESSAGES as PARTNER_OFFER_MESSAGES,
  offerInForce,
  percentText,
  sellingCompanies,
  type CompanyStatus,
} from '../../../lib/partners';

/**
 * Offers (`offers`, id = nrOferta): which ones a v2 user may sell now, the simulator start, and the
 * provider admin's offer management. The rules are in docs/decisions/016-offers.md and 052: a user
 * sells the offers of their working companies — a substabelecido with offers of its own exactly
 * those, one without any its partner's too —, only in force (a substabelecido's derived offer only
 * while its partner's is), only of active v2 simulators they may sell (lib/offers.ts); the provider's
 * admin sees every one in force. A suspended company's offers are sold by nobody. A legacy
 * user sells the offers of their own company (users.company_id), the admin group those of every
 * company, for the codes lib/offers.ts lets them offer (docs/decisions/019-legacy-sell.md).
 */

/** An offer a v2 user may sell now, as the home cards, the simulator pages and GET /v1/ofertas show it. */
export interface SellableOffer {
  nrOferta: number;
  idSimulador: number;
  /** Simulator code, upper case ('RES'). */
  code: string;
  simulatorName: string;
  offerName: string;
  line: ProductLine;
  companyName: string;
  /** 'YYYY-MM-DD', or null for an open-ended offer. */
  vigenciaFim: string | null;
  /** 20 for 20 % (the database keeps hundredths: 2000). */
  commissionPercent: number;
  /** Where the offer starts: v2 /v2/simulador-{line}/cadastro/iniciar/…; legacy /simulador-{line}/cadastro?oferta=… */
  startPath: string;
}

/** A legacy offer as /ofertas lists it, whatever its state. */
export interface LegacyOffer extends SellableOffer {
  vigenciaInicio: string;
  situacao: OfferSituation;
}

/** An offer as the admin's list and form see it, whatever its state. */
export interface AdminOffer {
  nrOferta: number;
  idSimulador: number;
  code: string;
  simulatorName: string;
  offerName: string;
  idEmpresa: number;
  companyName: string;
  vigenciaInicio: string;
  vigenciaFim: string | null;
  comissaoCentesimos: number;
  commissionPercent: number;
  ativo: boolean;
  /** A substabelecido's offer derived from its partner's (decision 052): edited where it is, never moved. */
  derivada: boolean;
}

const offerRows = (db: DB) =>
  db
    .selectFrom('offers as o')
    .innerJoin('simulators as s', 's.id', 'o.simulator_id')
    .innerJoin('companies as c', 'c.id', 'o.company_id')
    .select([
      'o.id as nrOferta',
      's.id as idSimulador',
      's.code',
      's.nome as simulatorName',
      'o.nome as offerName',
      'c.id as idEmpresa',
      'c.nome_fantasia as companyName',
      'o.vigencia_inicio as vigenciaInicio',
      'o.vigencia_fim as vigenciaFim',
      'o.comissao_centesimos as comissaoCentesimos',
      'o.ativo',
      'o.parent_offer_id as parentOfferId',
    ]);

type OfferRow = Omit<AdminOffer, 'commissionPercent' | 'derivada'> & { parentOfferId: number | null };

const byName = (a: string, b: string) => a.localeCompare(b, 'pt-BR');
const bySimulatorThenOffer = (a: OfferRow, b: OfferRow) =>
  byName(a.simulatorName, b.simulatorName) ||
  byName(a.offerName, b.offerName) ||
  byName(a.companyName, b.companyName) ||
  a.nrOferta - b.nrOferta;

const toAdminOffer = ({ parentOfferId, ...row }: OfferRow): AdminOffer => ({
  ...row,
  commissionPercent: row.comissaoCentesimos / 100,
  derivada: parentOfferId !== null,
});

function toSellable(row: OfferRow, generation: 'v1' | 'v2'): SellableOffer {
  const simulator = findSimulatorCode(row.code)!;
  return {
    nrOferta: row.nrOferta,
    idSimulador: row.idSimulador,
    code: row.code,
    simulatorName: row.simulatorName,
    offerName: row.offerName,
    line: simulator.line,
    companyName: row.companyName,
    vigenciaFim: row.vigenciaFim,
    commissionPercent: row.comissaoCentesimos / 100,
    startPath: generation === 'v2' ? v2StartPath(simulator.line, row.idSimulador, row.nrOferta) : legacyStartPath(simulator, row.nrOferta),
  };
}

/**
 * The user's own companies and, for each, the one it sells for (from the principal, cached with it).
 * undefined: the provider's admin, who sees the offers of every company.
 */
async function companiesOfUser(db: DB, user: V2SessionUser): Promise<PrincipalFacts['companies'] | undefined> {
  if (user.profile === 'ADMIN') return undefined;
  return (await principalFacts(db, user.idUsuario)).companies;
}

/** Whose offers a user reaches and which simulator codes they may be shown, in their generation. */
interface OfferAudience {
  generation: 'v1' | 'v2';
  /** undefined: every company. */
  companyIds: number[] | undefined;
  offers(code: string): boolean;
}

async function v2Audience(db: DB, user: V2SessionUser): Promise<OfferAudience> {
  const companies = await companiesOfUser(db, user);
  const catalog = await offerCatalog(db);
  // A suspended company sells nothing; a sub-delegated one without offers of its own sells its partner's.
  const companyIds = companies && [
    ...new Set(
      companies.flatMap((c) => {
        const facts = catalog.companies.get(c.id);
        return facts?.operating ? sellingCompanies({ id: c.id, parentId: c.parentId, hasOwnOffers: facts.hasOwnOffers }) : [];
      }),
    ),
  ];
  return { generation: 'v2', companyIds, offers: (code) => Boolean(findSimulatorCode(code)?.v2) && canSellCode(user, code) };
}

async function v1Audience(db: DB, user: V1SessionUser): Promise<OfferAudience> {
  const offers = (code: string) => canOfferCodeV1(user, code);
  if (user.profile.includes(V1_ADMIN_GROUP)) return { generation: 'v1', companyIds: undefined, offers };
  const { companyId } = await principalFacts(db, user.idUsuario);
  const working = companyId !== null && (await offerCatalog(db)).companies.get(companyId)?.operating;
  return { generation: 'v1', companyIds: working ? [companyId] : [], offers };
}

/**
 * Every offer of an active simulator, with its company: what the home, the simulators and the
 * legacy offer lists filter for each user. Kept in memory until the database says offers,
 * simulators or companies changed (server/cache.ts).
 */
interface Catalog {
  rows: readonly OfferRow[];
  byId: ReadonlyMap<number, OfferRow>;
  /** Every company: whether it works (it and its partner active) and has offers of its own. */
  companies: ReadonlyMap<number, { operating: boolean; hasOwnOffers: boolean }>;
}

const CATALOG_CACHE: CacheSpec<'catalog', Catalog> = {
  name: 'offer-catalog',
  maxEntries: 1,
  maxAgeMs: 30_000,
  drops: (change) => change.kind === 'offers',
};

/** What this instance's admin just wrote shows on its next page at once (other instances hear the database). */
export const OFFERS_CHANGED = { kind: 'offers' } as const;

const offerCatalog = (db: DB) =>
  readThrough(db, CATALOG_CACHE, 'catalog', async (): Promise<Catalog> => {
    const [rows, companies] = await Promise.all([
      offerRows(db).where('s.ativo', '=', true).execute(),
      db
        .selectFrom('companies as c')
        .leftJoin('companies as p', 'p.id', 'c.parent_id')
        .select((eb) => [
          'c.id',
          'c.status',
          'p.status as parentStatus',
          eb.exists(eb.selectFrom('offers as o').select('o.id').whereRef('o.company_id', '=', 'c.id')).as('hasOwnOffers'),
        ])
        .execute(),
    ]);
    const frozen = Object.freeze(rows.map((row) => Object.freeze(row)));
    return Object.freeze({
      rows: frozen,
      byId: new Map(frozen.map((row) => [row.nrOferta, row])),
      companies: new Map(
        companies.map((c) => [
          c.id,
          {
            operating: companyOperating(
              { status: c.status as CompanyStatus },
              c.parentStatus ? { status: c.parentStatus as CompanyStatus } : null,
            ),
            hasOwnOffers: Boolean(c.hasOwnOffers),
          },
        ]),
      ),
    });
  });

/** In force today: the offer, its company working, and the partner's offer a derived one comes from (lib/partners.ts). */
function inForce(catalog: Catalog, row: OfferRow, day: string): boolean {
  const parent = row.parentOfferId === null ? undefined : catalog.byId.get(row.parentOfferId);
  return offerInForce(
    {
      ...row,
      companyOperating: catalog.companies.get(row.idEmpresa)?.operating ?? false,
      // A parent of an inactive simulator is not in the catalog: the derived offer is not sold either.
      parent: row.parentOfferId === null ? undefined : (parent ?? { ativo: false, vigenciaInicio: day, vigenciaFim: null }),
    },
    day,
  );
}

/**
 * Offers of active simulators the audience may be shown, with the company each belongs to: only
 * those in force today unless `anyState` (the legacy /ofertas tabs list ended ones too).
 */
async function offerRowsFor(
  db: DB,
  audience: OfferAudience,
  today: Date,
  only: { nrOferta?: number; idSimulador?: number; anyState?: boolean } = {},
): Promise<OfferRow[]> {
  if (audience.companyIds?.length === 0) return [];
  const day = brasiliaDay(today);
  const catalog = await offerCatalog(db);
  return catalog.rows
    .filter(
      (row) =>
        (only.anyState || inForce(catalog, row, day)) &&
        (!audience.companyIds || audience.companyIds.includes(row.idEmpresa)) &&
        (only.nrOferta === undefined || row.nrOferta === only.nrOferta) &&
        (only.idSimulador === undefined || row.idSimulador === only.idSimulador) &&
        audience.offers(row.code),
    )
    .sort(bySimulatorThenOffer);
}

/** Offers in force today of active simulators the v2 user may sell, with the company each belongs to. */
async function sellableRows(
  db: DB,
  user: V2SessionUser,
  today: Date,
  only: { nrOferta?: number; idSimulador?: number } = {},
): Promise<OfferRow[]> {
  return offerRowsFor(db, await v2Audience(db, user), today, only);
}

/** The offers the v2 user may sell now, sorted by simulator name. */
export async function sellableOffers(db: DB, user: V2SessionUser, today: Date = clockNow()): Promise<SellableOffer[]> {
  return (await sellableRows(db, user, today)).map((row) => toSellable(row, 'v2'));
}

/** One offer the user may sell now (same rules as sellableOffers), or undefined. */
export async function findSellableOffer(
  db: DB,
  user: V2SessionUser,
  nrOferta: number,
  today: Date = clockNow(),
): Promise<SellableOffer | undefined> {
  const [row] = await sellableRows(db, user, today, { nrOferta });
  return row && toSellable(row, 'v2');
}

/** The offers in force the legacy user may be shown (home, /ofertas-disponiveis), sorted by simulator name. */
export async function sellableOffersV1(db: DB, user: V1SessionUser, today: Date = clockNow()): Promise<SellableOffer[]> {
  return (await offerRowsFor(db, await v1Audience(db, user), today)).map((row) => toSellable(row, 'v1'));
}

/** One offer in force the legacy user may be shown, or undefined (the quote service still checks the code is sold here). */
export async function findSellableOfferV1(
  db: DB,
  user: V1SessionUser,
  nrOferta: number,
  today: Date = clockNow(),
): Promise<SellableOffer | undefined> {
  const [row] = await offerRowsFor(db, await v1Audience(db, user), today, { nrOferta });
  return row && toSellable(row, 'v1');
}

/** The simulator code of an offer, whoever it belongs to (undefined when there is no such offer). */
export async function simulatorCodeOfOffer(db: DB, nrOferta: number): Promise<string | undefined> {
  const row = await offerRows(db).where('o.id', '=', nrOferta).executeTakeFirst();
  return row?.code;
}

/** Every offer of the legacy user's company for codes they may be shown, in force or not, with its situation (/ofertas). */
export async function legacyOffers(db: DB, user: V1SessionUser, today: Date = clockNow()): Promise<LegacyOffer[]> {
  const day = brasiliaDay(today);
  return (await offerRowsFor(db, await v1Audience(db, user), today, { anyState: true })).map((row) => ({
    ...toSellable(row, 'v1'),
    vigenciaInicio: row.vigenciaInicio,
    situacao: offerSituation(row, day),
  }));
}

// --- The platform's simulator list and the simulator start (SPEC §3, §7) ---

/** GET /v1/simuladores: the database rows merged with the local code table (SPEC §3). */
export async function simulatorList(db: DB, generation: 'v1' | 'v2') {
  const rows = await db
    .selectFrom('simulators')
    .select(['id', 'code', 'nome', 'ativo', 'url_inicio', 'linha', 'grupo_produto'])
    .orderBy('id')
    .execute();
  return rows.map((row) => {
    const local = findSimulatorCode(row.code);
    return {
      id: row.id,
      tipoSimulador: { cdTipoSimulador: row.code },
      nome: row.nome,
      ativo: row.ativo,
      // The row is what the legacy admin edits (/editar-simulador/{id}); the seed copies the code table.
      url: row.url_inicio,
      tipo: local?.line ?? row.linha,
      // Each generation names the offer permission its own way (SPEC §6).
      permissao: local ? (generation === 'v1' ? v1OfferPermission(row.code) : offerOperation(local.offerSuffix)) : null,
      grupoProduto: row.grupo_produto ?? local?.productGroup ?? null,
    };
  });
}

const NO_OFFER = 'Não há oferta vigente deste produto para a sua empresa.';

/** SPEC §9 product groups: when the caller names one, it must be the simulator's (codes without one accept any). */
const groupMatches = (simulatorGroup: string | null, asked?: string) => !asked || !simulatorGroup || simulatorGroup === asked;

/**
 * The user's offer for a simulator: 403 when the user may not sell its code, 404 when there is none
 * in force. With several, the first by name (the home lets the user choose before this is asked).
 */
async function offerForSimulator(
  db: DB,
  user: V2SessionUser,
  simulator: { id: number; code: string; grupo_produto: string | null },
  nrGrupoProduto?: string,
  today = clockNow(),
) {
  if (!canSellCode(user, simulator.code)) throw forbidden('Você não tem permissão para vender este produto.');
  if (!groupMatches(simulator.grupo_produto, nrGrupoProduto)) throw notFound(NO_OFFER);
  const [row] = await sellableRows(db, user, today, { idSimulador: simulator.id });
  if (!row) throw notFound(NO_OFFER);
  return row;
}

/** The simulator a start names by its type (SPEC §3's cdTipoSimulador, any case), or the 404. */
async function simulatorOfType(db: DB, cdTipoSimulador: string) {
  const simulator = await db
    .selectFrom('simulators')
    .select(['id', 'code', 'grupo_produto'])
    .where('code', '=', cdTipoSimulador.toUpperCase())
    .executeTakeFirst();
  if (!simulator) throw notFound('Simulador não encontrado.');
  return simulator;
}

/** POST /v1/simuladores/iniciar: the offer a new quote of this simulator type starts from. */
export async function startSimulator(db: DB, user: V2SessionUser, cdTipoSimulador: string, nrGrupoProduto?: string, today = clockNow()) {
  const simulator = await simulatorOfType(db, cdTipoSimulador);
  const row = await offerForSimulator(db, user, simulator, nrGrupoProduto, today);
  return { nrOferta: row.nrOferta };
}

/**
 * POST /v1/simuladores/iniciar under the legacy session: the embedded issuance apps start a session
 * of EMP, IP or VE (SPEC §2, §4) and register only once this answers an nrOferta.
 */
export async function startSimulatorV1(db: DB, user: V1SessionUser, cdTipoSimulador: string, nrGrupoProduto?: string, today = clockNow()) {
  const simulator = await simulatorOfType(db, cdTipoSimulador);
  if (!canSellCodeV1(user, simulator.code)) throw forbidden('Você não tem permissão para vender este produto.');
  if (!groupMatches(simulator.grupo_produto, nrGrupoProduto)) throw notFound(NO_OFFER);
  const [row] = await offerRowsFor(db, await v1Audience(db, user), today, { idSimulador: simulator.id });
  if (!row) throw notFound(NO_OFFER);
  return { nrOferta: row.nrOferta };
}

/**
 * GET /v1/simuladores/produtos/data-para-cotacao: the sellable offer and the channel that sells it —
 * the user's own company through which the offer is reached (a sub-delegated company sells as itself),
 * and the point of sale it sells at (services/network/points-of-sale.ts).
 */
export async function quotationData(db: DB, user: V2SessionUser, idSimulador: number, nrGrupoProduto?: string, today = clockNow()) {
  const simulator = await db
    .selectFrom('simulators')
    .select(['id', 'code', 'grupo_produto'])
    .where('id', '=', idSimulador)
    .executeTakeFirst();
  if (!simulator) throw notFound('Simulador não encontrado.');
  const row = await offerForSimulator(db, user, simulator, nrGrupoProduto, today);
  const own = await companiesOfUser(db, user);
  const seller = own?.find((c) => c.id === row.idEmpresa) ?? own?.find((c) => c.parentId === row.idEmpresa);
  const sellerId = seller?.id ?? row.idEmpresa;
  // The user's own company is in the principal already; the admin's offer names any company.
  const canal =
    seller?.cdCnpj ?? (await db.selectFrom('companies').select('cnpj').where('id', '=', sellerId).executeTakeFirstOrThrow()).cnpj;
  const pointOfSale = await pointOfSaleOfSale(db, sellerId, (await principalFacts(db, user.idUsuario)).pointOfSaleId);
  return { nrOferta: row.nrOferta, meioCanal: 'PORTAL' as const, canal, pontoVenda: pointOfSale?.codigo ?? null };
}

// --- The provider admin's offer management ---

export async function listOffers(db: DB, filter: { idSimulador?: number; idEmpresa?: number } = {}): Promise<AdminOffer[]> {
  let query = offerRows(db);
  if (filter.idSimulador !== undefined) query = query.where('s.id', '=', filter.idSimulador);
  if (filter.idEmpresa !== undefined) query = query.where('c.id', '=', filter.idEmpresa);
  return (await query.execute()).sort(bySimulatorThenOffer).map(toAdminOffer);
}

export async function findOffer(db: DB, nrOferta: number): Promise<AdminOffer | undefined> {
  const row = await offerRows(db).where('o.id', '=', nrOferta).executeTakeFirst();
  return row && toAdminOffer(row);
}

export async function findSimulator(db: DB, idSimulador: number) {
  return db.selectFrom('simulators').select(['id', 'code', 'nome', 'ativo']).where('id', '=', idSimulador).executeTakeFirst();
}

export async function listSimulators(db: DB) {
  const rows = await db.selectFrom('simulators').select(['id', 'code', 'nome', 'ativo']).execute();
  return rows.sort((a, b) => byName(a.nome, b.nome));
}

/** Companies an offer may be given to (the admin form's checkboxes). */
export async function listCompanies(db: DB, only: { partnersAnd?: number } | 'all' = 'all') {
  let query = db.selectFrom('companies').select(['id', 'cnpj', 'nome_fantasia as nome', 'razao_social as razaoSocial', 'tipo']);
  // The offer form gives offers to partners; a substabelecido's derive from its partner's (decision 052).
  if (only !== 'all') query = query.where((eb) => eb.or([eb('tipo', '=', 'PARCEIRO'), eb('id', '=', only.partnersAnd ?? 0)]));
  return (await query.execute()).sort((a, b) => byName(a.nome, b.nome));
}

/** zod issues as the API's `{ campo: [mensagens] }`, keyed by the top-level field. */
function parseOrThrow<S extends core.$ZodType>(schema: S, input: unknown): core.output<S> {
  const result = core.safeParse(schema, input);
  if (result.success) return result.data;
  throw invalid(result.error.issues[0]?.message ?? 'Dados da oferta inválidos.', messagesByField(result.error.issues, topField));
}

const SUB_OFFERS_MESSAGE =
  'Substabelecido não recebe oferta aqui: as ofertas dele vêm das do parceiro, no cadastro do substabelecido (Acesso › Substabelecido).';

/** The companies an offer is given to exist and are partners (`kept`: a substabelecido's own derived offer, edited where it is). */
async function assertOfferCompanies(db: DB, ids: number[], kept?: number): Promise<void> {
  const found = await db.selectFrom('companies').select(['id', 'tipo']).where('id', 'in', ids).execute();
  if (found.length !== ids.length) throw invalid('Empresa não encontrada.', { empresas: ['Selecione apenas empresas cadastradas'] });
  if (found.some((c) => c.tipo !== 'PARCEIRO' && c.id !== kept)) throw invalid(SUB_OFFERS_MESSAGE, { empresas: [SUB_OFFERS_MESSAGE] });
}

const offerValues = (input: OfferUpdate) => ({
  nome: input.nome,
  vigencia_inicio: input.vigenciaInicio,
  vigencia_fim: input.vigenciaFim,
  comissao_centesimos: input.comissao,
  ativo: input.ativo,
});

/**
 * POST /v1/ofertas: one offer per company checked (each company's quotes carry its own nrOferta and
 * its own channel), all with the same name, validity, commission and state.
 */
export async function createOffers(db: DB, input: unknown): Promise<AdminOffer[]> {
  const data = parseOrThrow(offerCreateSchema, input);
  const companies = [...new Set(data.empresas)];
  if (!(await findSimulator(db, data.idSimulador)))
    throw invalid('Simulador não encontrado.', { idSimulador: ['Simulador não encontrado'] });
  await assertOfferCompanies(db, companies);
  const ids = await db.transaction().execute(async (trx) => {
    const created = await trx
      .insertInto('offers')
      .values(companies.map((company_id) => ({ simulator_id: data.idSimulador, company_id, ...offerValues(data), created_at: clockNow() })))
      .returning('id')
      .execute();
    return created.map((c) => c.id);
  });
  announce(db, OFFERS_CHANGED);
  return (await Promise.all(ids.map((id) => findOffer(db, id)))).filter((o): o is AdminOffer => Boolean(o));
}

/**
 * A substabelecido's derived offer stays at most at its partner's remuneration, and a partner's offer
 * is not lowered below the offers derived from it (decision 052).
 */
async function assertRemunerationChain(db: DB, nrOferta: number, comissao: number): Promise<void> {
  const parent = await db
    .selectFrom('offers as o')
    .innerJoin('offers as p', 'p.id', 'o.parent_offer_id')
    .select('p.comissao_centesimos')
    .where('o.id', '=', nrOferta)
    .executeTakeFirst();
  if (parent && comissao > parent.comissao_centesimos) {
    const message = PARTNER_OFFER_MESSAGES.aboveParent(percentText(parent.comissao_centesimos));
    throw invalid(message, { comissao: [message] });
  }
  const above = await db
    .selectFrom('offers as o')
    .innerJoin('companies as c', 'c.id', 'o.company_id')
    .select(['c.nome_fantasia', 'o.comissao_centesimos'])
    .where('o.parent_offer_id', '=', nrOferta)
    .where('o.ativo', '=', true)
    .where('o.comissao_centesimos', '>', comissao)
    .execute();
  if (above.length > 0) {
    const message = PARTNER_OFFER_MESSAGES.belowSubs(
      above.map((o) => `${o.nome_fantasia} (${percentText(o.comissao_centesimos)})`).join(', '),
    );
    throw invalid(message, { comissao: [message] });
  }
}

/**
 * PUT /v1/ofertas/{nrOferta}: changes one offer. Its company stays when still checked (otherwise it
 * moves to the first one checked); every other company checked gets a copy of the offer.
 */
export async function updateOffer(db: DB, nrOferta: number, input: unknown): Promise<{ oferta: AdminOffer; criadas: AdminOffer[] }> {
  const current = await findOffer(db, nrOferta);
  if (!current) throw notFound('Oferta não encontrada.');
  const data = parseOrThrow(offerUpdateSchema, input);
  const companies = [...new Set(data.empresas)];
  await assertOfferCompanies(db, companies, current.idEmpresa);
  // A derived offer stays its substabelecido's own: it is neither moved nor copied.
  if (current.derivada && (companies.length !== 1 || companies[0] !== current.idEmpresa))
    throw invalid(SUB_OFFERS_MESSAGE, { empresas: [SUB_OFFERS_MESSAGE] });
  await assertRemunerationChain(db, nrOferta, data.comissao);
  const companyId = companies.includes(current.idEmpresa) ? current.idEmpresa : companies[0]!;
  const copies = companies.filter((id) => id !== companyId);
  const createdIds = await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('offers')
      .set({ ...offerValues(data), company_id: companyId })
      .where('id', '=', nrOferta)
      .execute();
    if (copies.length === 0) return [];
    const created = await trx
      .insertInto('offers')
      .values(copies.map((company_id) => ({ simulator_id: current.idSimulador, company_id, ...offerValues(data), created_at: clockNow() })))
      .returning('id')
      .execute();
    return created.map((c) => c.id);
  });
  announce(db, OFFERS_CHANGED);
  const criadas = (await Promise.all(createdIds.map((id) => findOffer(db, id)))).filter((o): o is AdminOffer => Boolean(o));
  return { oferta: (await findOffer(db, nrOferta))!, criadas };
}
