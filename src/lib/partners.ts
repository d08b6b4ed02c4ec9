import { offerOperation, type Profile } from './permissions';
import { isInForce, type Validity } from './offer-validity';
import { findSimulatorCode, SIMULATOR_CODES, type ProductLine } from './simulators';

/*
 * Partners and substabelecidos (issue 17, decision 052): the onboarding steps, who manages which
 * company, the remuneration rules of their offers and what a suspension does — pure, so the pages,
 * the API and the service ask the same rules, the service handing them what the database says.
 *
 *   Partners: the insurer's ADMIN onboards, edits, suspends and reactivates them.
 *   Substabelecidos: a company under a partner. ADMIN manages all of them; a PARCEIRO_ADMIN, or a
 *     user holding GERENCIAR_SUBSTABELECIDO, those under the partner companies they are linked to.
 *     Onboarding one creates its first administrator, a user: only ADMIN and PARCEIRO_ADMIN may.
 *   Offers: a partner sells products within each product's remuneration limit; a substabelecido a
 *     subset of its partner's offers in force, each at most at the partner's remuneration.
 *   Suspension: the company (and, for a partner, its substabelecidos) stops — its users do not sign
 *     in, its offers are not sold — and nothing of its history goes away.
 */

export type CompanyKind = 'PARCEIRO' | 'SUBSTABELECIDO';
export type CompanyStatus = 'ATIVO' | 'SUSPENSO';
export type FieldErrors = Record<string, string[]>;

// ─── Pages ───────────────────────────────────────────────────────────────────────────────────────

export const COMPANY_PAGES: Record<CompanyKind, { consulta: string; etapas: string; noun: string; title: string }> = {
  PARCEIRO: { consulta: '/v2/parceiros/consulta', etapas: '/v2/parceiros/etapas', noun: 'parceiro', title: 'Parceiros' },
  SUBSTABELECIDO: {
    consulta: '/v2/substabelecido/consulta',
    etapas: '/v2/substabelecido/etapas',
    noun: 'substabelecido',
    title: 'Substabelecidos',
  },
};

/** What just happened, as the list says it (/v2/substabelecido/consulta/{action}, ?aviso= on the partners' list). */
export const LIST_NOTICES = {
  cadastrado: (noun: string) => `Cadastro concluído: ${noun} ativo. O administrador recebeu por e-mail o código do primeiro acesso.`,
  alterado: () => 'Alterações salvas.',
  suspenso: (noun: string) => `${capitalize(noun)} suspenso: seus usuários foram desconectados e não entram até a reativação.`,
  reativado: (noun: string) => `${capitalize(noun)} reativado: seus usuários voltam a entrar e suas ofertas voltam a ser vendidas.`,
} as const;
export type ListNotice = keyof typeof LIST_NOTICES;
export const isListNotice = (value: string | null | undefined): value is ListNotice =>
  Boolean(value) && Object.hasOwn(LIST_NOTICES, value!);
const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export const STATUS_LABELS: Record<CompanyStatus | 'EM_CADASTRO', string> = {
  ATIVO: 'Ativo',
  SUSPENSO: 'Suspenso',
  EM_CADASTRO: 'Em cadastro',
};
export const STATUS_TONES: Record<CompanyStatus | 'EM_CADASTRO', 'success' | 'danger' | 'brand'> = {
  ATIVO: 'success',
  SUSPENSO: 'danger',
  EM_CADASTRO: 'brand',
};

// ─── Steps ───────────────────────────────────────────────────────────────────────────────────────

/**
 * SPEC's {screen}/{subetapa}, in order. `key` names the step's answer in a draft; the review holds
 * none. A broker's onboarding and a retail partner's are the same steps (the SUSEP registration is
 * asked of a broker only).
 */
export const COMPANY_STEPS = [
  { screen: 'empresa', subetapa: 'dados', key: 'empresa', label: 'Dados da empresa' },
  { screen: 'endereco', subetapa: 'sede', key: 'endereco', label: 'Endereço da sede' },
  { screen: 'contatos', subetapa: 'responsavel', key: 'responsavel', label: 'Responsável legal' },
  { screen: 'contatos', subetapa: 'comercial', key: 'comercial', label: 'Contatos' },
  { screen: 'financeiro', subetapa: 'conta', key: 'conta', label: 'Conta para comissões' },
  { screen: 'ofertas', subetapa: 'produtos', key: 'ofertas', label: 'Ofertas e remuneração' },
  { screen: 'administrador', subetapa: 'usuario', key: 'administrador', label: 'Administrador' },
  { screen: 'revisao', subetapa: 'resumo', key: 'revisao', label: 'Revisão' },
] as const;
export type CompanyStep = (typeof COMPANY_STEPS)[number];
export type StepKey = CompanyStep['key'];
/** The steps whose answers a draft keeps. */
export type SectionKey = Exclude<StepKey, 'revisao'>;
export const SECTION_KEYS = COMPANY_STEPS.map((s) => s.key).filter((k): k is SectionKey => k !== 'revisao');

/** novo: a new company; editar: an active one's data; visualizar: its review, read-only (and the suspension). */
export const COMPANY_ACTIONS = ['novo', 'editar', 'visualizar'] as const;
export type CompanyAction = (typeof COMPANY_ACTIONS)[number];
/** The actions a draft is kept for. */
export type DraftAction = Exclude<CompanyAction, 'visualizar'>;

export const stepByKey = (key: StepKey): CompanyStep => COMPANY_STEPS.find((s) => s.key === key)!;
const stepIndex = (key: StepKey) => COMPANY_STEPS.findIndex((s) => s.key === key);

/** A CNPJ as addresses carry it: 12 base characters (digits or, from July 2026, letters) and 2 digits. */
export const CNPJ_IN_PATH = /^[0-9A-Z]{12}\d{2}$/;

/** A step's address; the first step without a CNPJ starts a new registration. */
export function stepPath(kind: CompanyKind, key: StepKey, cnpj?: string, action: CompanyAction = 'novo'): string {
  const step = stepByKey(key);
  const base = COMPANY_PAGES[kind].etapas;
  return cnpj ? `${base}/${step.screen}/${cnpj}/${step.subetapa}/${action}` : `${base}/${step.screen}`;
}

export type StepAddress =
  | { step: CompanyStep; cnpj?: undefined; action?: undefined }
  | { step: CompanyStep; cnpj: string; action: CompanyAction };

/**
 * `/etapas/{screen}` or `/etapas/{screen}/{cnpj}/{subetapa}/{action}` read into a step, or undefined
 * for anything else (the 404 page): an unknown screen, a sub-step of another screen, an unknown
 * action, a CNPJ not in its address form. A screen of two sub-steps alone means its first.
 */
export function parseStepAddress(passo: string | undefined): StepAddress | undefined {
  const parts = (passo ?? '').split('/').filter(Boolean);
  if (parts.length === 1) {
    const step = COMPANY_STEPS.find((s) => s.screen === parts[0]);
    return step ? { step } : undefined;
  }
  if (parts.length !== 4) return undefined;
  const [screen, cnpj, subetapa, action] = parts as [string, string, string, string];
  const step = COMPANY_STEPS.find((s) => s.screen === screen && s.subetapa === subetapa);
  const known = COMPANY_ACTIONS.find((a) => a === action);
  if (!step || !known || !CNPJ_IN_PATH.test(cnpj)) return undefined;
  return { step, cnpj, action: known };
}

/**
 * The first step a draft lacks (the review when none): where an address typed ahead goes back to.
 * An edit's administrator step only shows who administers the company: it is never lacking.
 */
export function pendingStep(draft: Partial<Record<SectionKey, unknown>>, action: DraftAction): StepKey {
  const missing = SECTION_KEYS.find((key) => draft[key] === undefined && !(key === 'administrador' && action === 'editar'));
  return missing ?? 'revisao';
}

/** Is `key` reachable with this draft (not ahead of what it holds)? */
export const stepReachable = (key: StepKey, draft: Partial<Record<SectionKey, unknown>>, action: DraftAction): boolean =>
  stepIndex(key) <= stepIndex(pendingStep(draft, action));

/** The step after `key`. */
export const nextStep = (key: SectionKey): StepKey => COMPANY_STEPS[stepIndex(key) + 1]!.key;

// ─── Remuneration limits (illustrative) ──────────────────────────────────────────────────────────

/**
 * The highest remuneration (hundredths of a percent of the net premium) a partner may be given per
 * product line. Illustrative, kept as data (decision 052): an insurer sets them by product and
 * channel; these follow the usual shape — rural lines, subsidised and with thin margins, pay least;
 * mass retail lines most.
 */
export const REMUNERATION_LIMITS: Record<ProductLine, number> = {
  residencial: 35_00,
  agricola: 20_00,
  maquinas: 25_00,
  empresarial: 30_00,
  'empresarial-individual': 30_00,
  vida: 35_00,
  'itens-pessoais': 40_00,
};

/** The limit of a simulator code's line; undefined for an unknown code. */
export const remunerationLimit = (code: string): number | undefined => {
  const simulator = findSimulatorCode(code);
  return simulator ? REMUNERATION_LIMITS[simulator.line] : undefined;
};

export const OFFER_MESSAGES = {
  none: 'Selecione ao menos um produto.',
  noneSub: 'Selecione ao menos uma oferta do parceiro.',
  unknownProduct: 'Produto indisponível: escolha entre os simuladores ativos.',
  aboveLimit: (percent: string) => `Remuneração acima do limite do produto (${percent}).`,
  outsidePartner: 'Oferta fora das ofertas vigentes do parceiro.',
  aboveParent: (percent: string) => `Remuneração acima da do parceiro nesta oferta (${percent}).`,
  belowSubs: (names: string) => `Remuneração abaixo da de substabelecidos nesta oferta: ${names}. Reduza a deles primeiro.`,
} as const;

/** 1250 → '12,50%'. */
export const percentText = (hundredths: number): string => `${Math.trunc(hundredths / 100)},${String(hundredths % 100).padStart(2, '0')}%`;

/** A partner's product chosen in the offers step. */
export interface PartnerOfferChoice {
  simulador: string;
  /** Hundredths of a percent. */
  comissao: number;
  inicio: string;
}
/** A substabelecido's pick among its partner's offers. */
export interface SubOfferChoice {
  /** The partner's offer it derives from (nrOferta). */
  oferta: number;
  comissao: number;
  inicio: string;
}

/** A field name of a product's row in the offers step: comissao_RES, inicio_RES (or the partner's offer number). */
export const offerField = (field: 'comissao' | 'inicio', id: string | number) => `${field}_${id}`;

/**
 * A partner's offers: at least one (unless allowed none), each an available product (the active v2
 * simulators), each within its line's limit. A lowered remuneration may not leave a substabelecido's
 * derived offer above it. Problems by field: `ofertas`, or the row's remuneration.
 */
export function partnerOfferProblems(
  choices: readonly PartnerOfferChoice[],
  available: readonly string[],
  options: { allowNone?: boolean; subsAbove?: ReadonlyMap<string, readonly { nome: string; comissao: number }[]> } = {},
): FieldErrors {
  const errors: FieldErrors = {};
  if (choices.length === 0 && !options.allowNone) errors.ofertas = [OFFER_MESSAGES.none];
  for (const choice of choices) {
    const limit = remunerationLimit(choice.simulador);
    if (limit === undefined || !available.includes(choice.simulador)) {
      errors.ofertas = [...(errors.ofertas ?? []), OFFER_MESSAGES.unknownProduct];
      continue;
    }
    const field = offerField('comissao', choice.simulador);
    if (choice.comissao > limit) errors[field] = [OFFER_MESSAGES.aboveLimit(percentText(limit))];
    const above = (options.subsAbove?.get(choice.simulador) ?? []).filter((s) => s.comissao > choice.comissao);
    if (above.length > 0)
      errors[field] = [
        ...(errors[field] ?? []),
        OFFER_MESSAGES.belowSubs(above.map((s) => `${s.nome} (${percentText(s.comissao)})`).join(', ')),
      ];
  }
  return errors;
}

/** An offer of the partner a substabelecido may derive from: in force, with its remuneration. */
export interface ParentOffer {
  nrOferta: number;
  comissao: number;
}

/** A substabelecido's offers: a subset of its partner's in force, each at most at the partner's remuneration. */
export function subOfferProblems(
  choices: readonly SubOfferChoice[],
  partnerOffers: readonly ParentOffer[],
  options: { allowNone?: boolean } = {},
): FieldErrors {
  const errors: FieldErrors = {};
  if (choices.length === 0 && !options.allowNone) errors.ofertas = [OFFER_MESSAGES.noneSub];
  for (const choice of choices) {
    const parent = partnerOffers.find((o) => o.nrOferta === choice.oferta);
    if (!parent) {
      errors.ofertas = [...(errors.ofertas ?? []), OFFER_MESSAGES.outsidePartner];
      continue;
    }
    if (choice.comissao > parent.comissao)
      errors[offerField('comissao', choice.oferta)] = [OFFER_MESSAGES.aboveParent(percentText(parent.comissao))];
  }
  return errors;
}

// ─── Who manages which company ───────────────────────────────────────────────────────────────────

export interface CompanyFacts {
  id: number;
  tipo: CompanyKind;
  parentId: number | null;
}

/** A signed-in v2 user as these rules judge them. */
export interface CompanyActor {
  userId: number;
  profile: Profile;
  operations: readonly string[];
  /** The companies the user is linked to. */
  companies: readonly CompanyFacts[];
}

export const MANAGE_SUBS_OPERATION = 'GERENCIAR_SUBSTABELECIDO';

export const mayManagePartners = (actor: CompanyActor): boolean => actor.profile === 'ADMIN';

/** May open the substabelecidos' pages (the menu's Acesso › Substabelecido rule, DESIGN §6). */
export const mayOpenSubs = (actor: CompanyActor): boolean =>
  actor.profile === 'ADMIN' || actor.profile === 'PARCEIRO_ADMIN' || actor.operations.includes(MANAGE_SUBS_OPERATION);

/** The partners whose substabelecidos the actor manages: every one for ADMIN, else the partner companies they are linked to. */
export function managedPartners(actor: CompanyActor): 'all' | number[] {
  if (actor.profile === 'ADMIN') return 'all';
  if (!mayOpenSubs(actor)) return [];
  return actor.companies.filter((c) => c.tipo === 'PARCEIRO').map((c) => c.id);
}

const manages = (partners: 'all' | number[], partnerId: number | null) =>
  partnerId !== null && (partners === 'all' || partners.includes(partnerId));

/** May change this company (its steps, its suspension): a partner only ADMIN; a sub whoever manages its partner. */
export function mayManageCompany(actor: CompanyActor, company: Pick<CompanyFacts, 'tipo' | 'parentId'>): boolean {
  if (company.tipo === 'PARCEIRO') return mayManagePartners(actor);
  return manages(managedPartners(actor), company.parentId);
}

/** May see this company: who manages it, and a substabelecido's own users holding the operation (read-only). */
export function maySeeCompany(actor: CompanyActor, company: CompanyFacts): boolean {
  if (mayManageCompany(actor, company)) return true;
  return company.tipo === 'SUBSTABELECIDO' && mayOpenSubs(actor) && actor.companies.some((c) => c.id === company.id);
}

/** May start a new registration: partners ADMIN; substabelecidos ADMIN, or a PARCEIRO_ADMIN of a partner. */
export function mayOnboard(actor: CompanyActor, kind: CompanyKind): boolean {
  if (actor.profile === 'ADMIN') return true;
  if (kind === 'PARCEIRO') return false;
  const partners = managedPartners(actor);
  return actor.profile === 'PARCEIRO_ADMIN' && partners !== 'all' && partners.length > 0;
}

// ─── The first administrator ─────────────────────────────────────────────────────────────────────

/** A partner's first administrator is its PARCEIRO_ADMIN; a substabelecido's manages it with the SUBSTABELECIDO profile. */
export const ADMINISTRATOR_PROFILE: Record<CompanyKind, Profile> = { PARCEIRO: 'PARCEIRO_ADMIN', SUBSTABELECIDO: 'SUBSTABELECIDO' };

/** What a substabelecido's administrator holds besides the offers of its products: sell, follow the company's sales, run its team. */
export const SUB_ADMINISTRATOR_OPERATIONS = [
  'COTAR_VENDER',
  'HISTORICO_COTACAO_PROPOSTA',
  'RELATORIO_VENDAS',
  'APOLICE_EMPRESA',
  'BOLETOS_EMPRESA',
  'DOCUMENTOS',
  'GERENCIAR_USUARIOS',
  'GERENCIAR_PERMISSOES',
  'GERENCIAR_PONTO_VENDA',
] as const;

/** The operations the first administrator gets: a partner's, none (its profile holds them); a sub's, the list and its products' offers. */
export function administratorOperations(kind: CompanyKind, productCodes: readonly string[]): string[] {
  if (kind === 'PARCEIRO') return [];
  const offers = productCodes.flatMap((code) => {
    const simulator = findSimulatorCode(code);
    return simulator ? [offerOperation(simulator.offerSuffix)] : [];
  });
  return [...new Set([...SUB_ADMINISTRATOR_OPERATIONS, ...offers])];
}

// ─── Suspension and offers in force ──────────────────────────────────────────────────────────────

/** A company works when it and the partner above it (for a substabelecido) are active. */
export const companyOperating = (company: { status: CompanyStatus }, parent?: { status: CompanyStatus } | null): boolean =>
  company.status === 'ATIVO' && (!parent || parent.status === 'ATIVO');

/**
 * A user signs in while at least one of their companies works; a user of no company (the insurer's
 * ADMIN, a legacy admin) is not held back by any.
 */
export const companiesLetSignIn = (companies: readonly { operating: boolean }[]): boolean =>
  companies.length === 0 || companies.some((c) => c.operating);

export const SIGN_IN_SUSPENDED = 'O acesso da sua empresa ao portal está suspenso. Procure a seguradora ou o parceiro responsável.';

/** An offer as the selling rule judges it: its own state and validity, its company's, and the partner's offer it derives from. */
export interface OfferState extends Validity {
  ativo: boolean;
  companyOperating: boolean;
  /** The partner's offer a substabelecido's derives from; undefined: none. */
  parent?: (Validity & { ativo: boolean }) | undefined;
}

/** In force today: active, within validity, its company working, and — derived — its partner's offer in force too. */
export const offerInForce = (offer: OfferState, today: string): boolean =>
  offer.ativo &&
  offer.companyOperating &&
  isInForce(offer, today) &&
  (offer.parent === undefined || (offer.parent.ativo && isInForce(offer.parent, today)));

/**
 * Whose offers a user's company sells (decision 016, refined by 052): its own; and a substabelecido
 * without offers of its own — registered before substabelecidos had any — its partner's too.
 */
export const sellingCompanies = (company: { id: number; parentId: number | null; hasOwnOffers: boolean }): number[] =>
  company.parentId !== null && !company.hasOwnOffers ? [company.id, company.parentId] : [company.id];

/** The v2 simulators a partner may be given: active and sold in v2. */
export const onboardingProducts = (activeCodes: readonly string[]) =>
  SIMULATOR_CODES.filter((s) => s.v2 && activeCodes.includes(s.code)).map((s) => ({ code: s.code, name: s.name, line: s.line }));

// ─── The list ────────────────────────────────────────────────────────────────────────────────────

export const COMPANY_PAGE_SIZE = 10;
export const LIST_STATUSES = ['ativo', 'suspenso', 'em-cadastro'] as const;
export type ListStatus = (typeof LIST_STATUSES)[number];
export const LIST_STATUS_LABELS: Record<ListStatus, string> = { ativo: 'Ativo', suspenso: 'Suspenso', 'em-cadastro': 'Em cadastro' };
export const LIST_FILTER_FIELDS = ['cnpj', 'nome', 'status'] as const;

/** A list's address for these filters and page (blank filters and page 1 are left out). */
export function companyListHref(kind: CompanyKind, filters: Partial<Record<string, string>>, page = 1, notice?: ListNotice): string {
  const params = new URLSearchParams();
  for (const field of LIST_FILTER_FIELDS) {
    const value = filters[field]?.trim();
    if (value) params.set(field, value);
  }
  if (page > 1) params.set('pagina', String(page));
  const query = params.toString();
  const base = COMPANY_PAGES[kind].consulta;
  // The substabelecidos' list carries what was just done in its address (SPEC's /consulta/{action}).
  const path = notice && kind === 'SUBSTABELECIDO' ? `${base}/${notice}` : base;
  const withNotice = notice && kind === 'PARCEIRO' ? [query, `aviso=${notice}`].filter(Boolean).join('&') : query;
  return withNotice ? `${path}?${withNotice}` : path;
}
