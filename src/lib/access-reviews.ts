import * as z from 'zod/mini';

/*
 * Access reviews (issue 32, decision 071), pure: who counts as idle, the pages' addresses, the
 * deactivation form's schema and what the pages say.
 */

/** A user who has not signed in for this many days (never signed in: since their creation) is listed for review. */
export const IDLE_DAYS = 90;
export const ACCESS_REVIEW_PAGE_SIZE = 20;

export const ACCESS_REVIEW_PAGES = { v1: '/revisao-acessos', v2: '/v2/usuario/revisao-acessos' } as const;

/** The instant before which a last sign-in (or creation) makes a user idle. */
export const idleSince = (at: Date): Date => new Date(at.getTime() - IDLE_DAYS * 86_400_000);

/** Whole days since a user's last sign-in (or creation). */
export const idleDays = (since: Date, at: Date): number => Math.floor((at.getTime() - since.getTime()) / 86_400_000);

const userId = z.string().check(z.regex(/^[1-9]\d{0,9}$/, 'Usuário inválido.'));

/** The deactivation form: the users ticked (a page's worth at most). */
export const deactivateIdleSchema = z.object({
  acao: z.literal('desativar', 'Ação inválida.'),
  usuarios: z
    .array(userId)
    .check(
      z.minLength(1, 'Selecione ao menos um usuário para desativar.'),
      z.maxLength(ACCESS_REVIEW_PAGE_SIZE, `Selecione no máximo ${ACCESS_REVIEW_PAGE_SIZE} usuários por vez.`),
    ),
});

const count = (n: number) => n.toLocaleString('pt-BR');

/**
 * The review's "todos" (decision 076), as its button says it: every user the review lists, or — past
 * the bulk actions' bound — the `limit` longest idle, the rest left for the next round.
 */
export function reviewAllLabel(total: number, limit: number): string {
  if (total > limit) return `Os ${count(limit)} há mais tempo sem entrar`;
  return total === 1 ? 'O único da revisão' : `Todos os ${count(total)} da revisão`;
}

export const ACCESS_REVIEW_MESSAGES = {
  detail: (days: number) => `revisão de acessos: sem entrar há ${days} dias`,
  notIdle: 'Entrou no portal depois da lista, ou já não está ativo: não foi desativado.',
  done: (n: number) => (n === 1 ? '1 usuário desativado.' : `${n} usuários desativados.`),
} as const;
