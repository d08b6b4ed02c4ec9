import type * as core from 'zod/v4/core';

/**
 * zod issues as `{ field: [messages] }`, the shape of every 400's field errors, keyed as the caller
 * names fields (the whole path, or only its first step).
 */
export function messagesByField(issues: readonly core.$ZodIssue[], keyOf: (issue: core.$ZodIssue) => string): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = keyOf(issue);
    fields[key] = [...(fields[key] ?? []), issue.message];
  }
  return fields;
}

/** Keys an issue by the first step of its path: the form field it belongs to ('body' for the whole). */
export const topField = (issue: core.$ZodIssue): string => String(issue.path[0] ?? 'body');
