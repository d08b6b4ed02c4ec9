/**
 * SPEC §5 password guidance as rules: the form shows them as a checklist, the server enforces them.
 */
export const PASSWORD_RULES = [
  { id: 'length', label: 'Pelo menos 8 caracteres', test: (p: string) => p.length >= 8 },
  { id: 'upper', label: 'Uma letra maiúscula', test: (p: string) => /\p{Lu}/u.test(p) },
  { id: 'lower', label: 'Uma letra minúscula', test: (p: string) => /\p{Ll}/u.test(p) },
  { id: 'special', label: 'Um caractere especial (ex.: @ # $ %)', test: (p: string) => /[^\p{L}\p{N}\s]/u.test(p) },
] as const;

export const passwordProblems = (password: string): string[] =>
  PASSWORD_RULES.filter((rule) => !rule.test(password)).map((rule) => rule.label);

/** Longest password accepted: bounds the work of hashing a hostile input. */
export const PASSWORD_MAX_LENGTH = 128;
