/**
 * The bell's words (issue 31), apart from the rest of lib/worklist.ts: the shell ships on every
 * signed-in page, and this module imports nothing, so the bell brings no other module to the browser.
 */

/** The bell says 99+ beyond this. */
export const NEW_COUNT_CAP = 99;

/** The bell's count as it reads ('99+' past the cap). */
export const countText = (count: number): string => (count > NEW_COUNT_CAP ? `${NEW_COUNT_CAP}+` : String(count));

/** The bell's accessible name: 'Pendências: 3 novas'. */
export function bellLabel(count: number): string {
  if (count <= 0) return 'Pendências: nenhuma nova';
  if (count === 1) return 'Pendências: 1 nova';
  return `Pendências: ${countText(count)} novas`;
}
