/**
 * Text PostgreSQL cannot store: U+0000, and UTF-16 surrogates without their pair (which have no
 * UTF-8 form). Either one in a query parameter used to reach the database and come back as a 500;
 * the API router and the page middleware refuse them up front, as a 400
 * (docs/decisions/022-hostile-input-and-shutdown.md). Other control and astral characters are text
 * like any other: the schemas decide about them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is exactly what this refuses
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const isStorableText = (text: string): boolean => !UNSTORABLE.test(text);

export const UNSTORABLE_MESSAGE = 'Texto com caractere não permitido (caractere nulo ou Unicode inválido).';

/**
 * Where a parsed JSON value (or a query or params record) holds unstorable text: the path of each
 * such string, and of each object with such a key (the key itself is not repeated back). Walked
 * without recursion, so no nesting depth can overflow the stack; stops after `limit` findings.
 */
export function unstorablePaths(value: unknown, limit = 20): (string | number)[][] {
  // Each pending value keeps a link to its parent's step, so a path costs nothing until it is reported.
  type Step = { key: string | number; parent: Step | undefined } | undefined;
  const pathOf = (step: Step) => {
    const path: (string | number)[] = [];
    for (let at = step; at; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  const found: (string | number)[][] = [];
  const pending: [unknown, Step][] = [[value, undefined]];
  while (pending.length > 0 && found.length < limit) {
    const [current, step] = pending.pop()!;
    if (typeof current === 'string') {
      if (!isStorableText(current)) found.push(pathOf(step));
    } else if (Array.isArray(current)) {
      for (const [index, item] of current.entries()) pending.push([item, { key: index, parent: step }]);
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      if (entries.some(([key]) => !isStorableText(key))) found.push(pathOf(step));
      for (const [key, item] of entries) if (isStorableText(key)) pending.push([item, { key, parent: step }]);
    }
  }
  return found;
}

/**
 * A still percent-encoded path or query string whose text cannot be stored, or cannot be decoded at
 * all (a malformed escape, or bytes that are not UTF-8 — %ED%A0%80 is a lone surrogate's bytes).
 */
export function isStorableUrlPart(encoded: string): boolean {
  try {
    return isStorableText(decodeURIComponent(encoded.replaceAll('+', ' ')));
  } catch {
    return false;
  }
}
