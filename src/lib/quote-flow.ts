import type { ProductLine } from './simulators';

/**
 * The quote flow of SPEC §4 as data: which steps a line has, where each step lives, and what the
 * `{action}` and `{nrType}` route parameters mean (docs/decisions/017-quote-routes.md). Pure: the
 * pages parse routes with it and the islands build their links with it.
 */
export const QUOTE_STEPS = ['cadastro', 'risco', 'planos', 'contratacao', 'resumo', 'proposta', 'finalizacao'] as const;
export type QuoteStep = (typeof QUOTE_STEPS)[number];

export const STEP_LABELS: Record<QuoteStep, string> = {
  cadastro: 'Cadastro',
  risco: 'Risco',
  planos: 'Planos',
  contratacao: 'Contratação',
  resumo: 'Resumo',
  proposta: 'Proposta',
  finalizacao: 'Finalização',
};

/** `{action}`: 'editar' opens the step's form; 'visualizar' shows it read-only (a sent or expired quote). */
export const ACTIONS = ['editar', 'visualizar'] as const;
export type Action = (typeof ACTIONS)[number];

/** Agricultural resumo's `{nrType}`: 1 summarises the quote before sending, 2 the sent proposal. */
export const RESUMO_TYPES = { cotacao: '1', proposta: '2' } as const;

export interface FlowShape {
  hasRisk: boolean;
  finalStep: 'proposta' | 'finalizacao';
}

/** SPEC §4: cadastro → risco (lines that have it) → planos → contratacao → resumo → proposta or finalizacao. */
export function stepsOf(flow: FlowShape): QuoteStep[] {
  return QUOTE_STEPS.filter((step) => {
    if (step === 'risco') return flow.hasRisk;
    if (step === 'proposta' || step === 'finalizacao') return step === flow.finalStep;
    return true;
  });
}

export const nextStep = (flow: FlowShape, step: QuoteStep): QuoteStep | undefined => {
  const steps = stepsOf(flow);
  return steps[steps.indexOf(step) + 1];
};
export const previousStep = (flow: FlowShape, step: QuoteStep): QuoteStep | undefined => {
  const steps = stepsOf(flow);
  const index = steps.indexOf(step);
  return index > 0 ? steps[index - 1] : undefined;
};

export type Generation = 'v1' | 'v2';
export const simulatorBase = (generation: Generation, line: ProductLine) => `${generation === 'v2' ? '/v2' : ''}/simulador-${line}`;

/**
 * Resumo with the quote number only (SPEC §2): life in both generations; machinery in legacy.
 * Agricultural resumo takes {nrType} instead of {action}.
 */
const RESUMO_NUMBER_ONLY: Record<Generation, readonly ProductLine[]> = { v1: ['vida', 'maquinas'], v2: ['vida'] };

/**
 * The address of a step of a saved quote. Every step takes {nrCotation}/{action}, except the
 * resumos above and legacy residential finalizacao, which SPEC §2 gives only plain: it resumes the
 * latest proposal of the line, which right after sending is this one. `pinned` keeps the number on
 * it anyway (the history opens one specific proposal; docs/decisions/019-legacy-sell.md).
 */
export function stepPath(
  generation: Generation,
  line: ProductLine,
  step: QuoteStep,
  nrCotacao: string,
  options: { action?: Action; sent?: boolean; pinned?: boolean } = {},
): string {
  const plain = `${simulatorBase(generation, line)}/${step}`;
  if (step === 'finalizacao' && generation === 'v1' && !options.pinned) return plain;
  const base = `${plain}/${nrCotacao}`;
  if (step === 'resumo' && RESUMO_NUMBER_ONLY[generation].includes(line)) return base;
  if (step === 'resumo' && line === 'agricola') return `${base}/${options.sent ? RESUMO_TYPES.proposta : RESUMO_TYPES.cotacao}`;
  return `${base}/${options.action ?? 'editar'}`;
}

export type SimulatorRoute =
  | { kind: 'start'; idSimulador?: number; nrOferta: number }
  /** Legacy plain cadastro: a new simulation (of the offer chosen with ?oferta=, or of the line's only offer). */
  | { kind: 'new' }
  /** A step without a quote number: resumes the user's latest open quote of the line (finalizacao: latest proposal). */
  | { kind: 'resume'; step: QuoteStep }
  /** `moved`: the address named a step the line lacks (v2 risco); the page redirects to `step`'s own address. */
  | { kind: 'step'; step: QuoteStep; nrCotacao: string; action: Action; moved?: true };

const isId = (value: string | undefined): value is string => value !== undefined && /^[1-9]\d{0,9}$/.test(value);
const isQuoteNumber = isId;

/**
 * Reads the segments after /simulador-{line}/. Unknown shapes answer undefined (the page shows 404).
 * v2 start routes: cadastro/iniciar/{idSimulador}/{nrOferta}, or cadastro/iniciar/{nrOferta} for the
 * lines that start by offer alone (individual business and personal items). Legacy has no iniciar:
 * its plain cadastro starts a new simulation. Every step also takes {nrCotation}[/{action}] in both
 * generations, so a reload resumes it.
 */
export function parseSimulatorRoute(
  generation: Generation,
  line: ProductLine,
  segments: readonly string[],
  flow: FlowShape,
): SimulatorRoute | undefined {
  const [stepName, ...rest] = segments;
  const named = QUOTE_STEPS.find((s) => s === stepName);
  if (!named) return undefined;
  // SPEC §2 gives every v2 simulator a risco route: a line without risk questions reads it as the
  // step that stands in its place (planos), as the lines with risco resume theirs (issue 27).
  const moved = generation === 'v2' && named === 'risco' && !flow.hasRisk;
  const step: QuoteStep = moved ? 'planos' : named;
  // Residential's proposal route exists (SPEC §2) and shows its finalizacao; other lines have no finalizacao.
  const known = stepsOf(flow).includes(step) || (step === 'proposta' && flow.finalStep === 'finalizacao');
  if (!known) return undefined;

  if (step === 'cadastro' && rest[0] === 'iniciar') {
    if (generation === 'v1') return undefined;
    const ids = rest.slice(1);
    const byOfferOnly = line === 'empresarial-individual' || line === 'itens-pessoais';
    if (byOfferOnly && ids.length === 1 && isId(ids[0])) return { kind: 'start', nrOferta: Number(ids[0]) };
    if (!byOfferOnly && ids.length === 2 && isId(ids[0]) && isId(ids[1])) {
      return { kind: 'start', idSimulador: Number(ids[0]), nrOferta: Number(ids[1]) };
    }
    return undefined;
  }
  if (rest.length === 0) return generation === 'v1' && step === 'cadastro' ? { kind: 'new' } : { kind: 'resume', step };
  const [nrCotacao, third, ...extra] = rest;
  if (!isQuoteNumber(nrCotacao) || extra.length > 0) return undefined;
  if (third === undefined) return { kind: 'step', step, nrCotacao, action: 'editar', ...(moved ? { moved } : {}) };
  if (step === 'resumo' && line === 'agricola') {
    const type = Object.values(RESUMO_TYPES).find((t) => t === third);
    return type ? { kind: 'step', step, nrCotacao, action: type === RESUMO_TYPES.proposta ? 'visualizar' : 'editar' } : undefined;
  }
  const action = ACTIONS.find((a) => a === third);
  return action ? { kind: 'step', step, nrCotacao, action, ...(moved ? { moved } : {}) } : undefined;
}
