import type { PolicyStatus } from './policies';
import { cancellationPath } from './cancellation';

/*
 * The endorsement home (issue 14): where each endorsement starts, and which a policy's state offers.
 * A table, so the home, the policy page and the services ask the same question the same way.
 */

type Generation = 'v1' | 'v2';
const base = (generation: Generation) => (generation === 'v2' ? '/v2/endosso' : '/endosso');

/** A contract id as an address carries it; undefined when it cannot be one (the page's 404). */
export const contractIdOf = (text: string | null | undefined): number | undefined =>
  text && /^\d{1,9}$/.test(text) ? Number(text) : undefined;

/** SPEC §2's endorsement routes, both generations. */
export const ENDORSEMENT_PATHS = {
  home: (generation: Generation, idContratacao: number) => `${base(generation)}/home/${idContratacao}`,
  contact: (generation: Generation, nrProposta: string, idContratacao: number) =>
    `${base(generation)}/contato/${nrProposta}/${idContratacao}`,
  cancellation: (generation: Generation, idContratacao: number) => cancellationPath(generation, 'motivo', { contratacao: idContratacao }),
} as const;

export interface EndorsementAction {
  id: 'contato' | 'cancelamento';
  label: string;
  description: string;
  href: (generation: Generation, policy: { nrProposta: string; idContratacao: number }) => string;
}

/** What may be asked of a policy in force, in the order the home offers it. */
export const ENDORSEMENT_ACTIONS: readonly EndorsementAction[] = [
  {
    id: 'contato',
    label: 'Alterar dados cadastrais',
    description: 'E-mail, telefone e endereço do segurado. Não altera o prêmio.',
    href: (generation, policy) => ENDORSEMENT_PATHS.contact(generation, policy.nrProposta, policy.idContratacao),
  },
  {
    id: 'cancelamento',
    label: 'Cancelar apólice',
    description: 'Toda a apólice ou algumas coberturas, com a restituição calculada antes de confirmar.',
    href: (generation, policy) => ENDORSEMENT_PATHS.cancellation(generation, policy.idContratacao),
  },
];

/**
 * Why a policy takes no endorsement, by state; a state absent here takes them all. An endorsement
 * changes a contract in force: one that ended, by cancellation or by its term, has nothing to change.
 */
export const ENDORSEMENT_CLOSED: Partial<Record<PolicyStatus, string>> = {
  CANCELADA: 'Esta apólice está cancelada: não aceita endossos.',
  VENCIDA: 'A vigência desta apólice terminou: não aceita endossos.',
};

/** What a policy's state offers; a cancellation already scheduled is undone, not asked for again. */
export const offeredEndorsements = (status: PolicyStatus, cancellationScheduled = false): readonly EndorsementAction[] =>
  ENDORSEMENT_CLOSED[status] ? [] : ENDORSEMENT_ACTIONS.filter((action) => !(cancellationScheduled && action.id === 'cancelamento'));
