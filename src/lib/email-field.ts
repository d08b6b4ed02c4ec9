import * as z from 'zod/mini';
import { isValidEmail } from './validators';

/**
 * What an e-mail field says (issue 27): SPEC §5 keeps 'E-mail obrigatório' for the empty field; a
 * filled value that is not an address says so instead of asking for one. Every form with an e-mail
 * (sign-in, recovery, first access, users, partners, the insured, the contact endorsement) checks it
 * with `emailRule`, and so do their endpoints: the API's field errors carry the same words. zod/mini,
 * as it ships with the login page (decision 012).
 */
export const EMAIL_MESSAGES = { required: 'E-mail obrigatório', invalid: 'E-mail inválido' } as const;

export type EmailMessages = { required: string; invalid: string };

/** The one problem of an e-mail already normalised (SPEC §5: lower case, no spaces), if any. */
export const emailProblem = (email: string, messages: EmailMessages = EMAIL_MESSAGES): string | undefined =>
  email === '' ? messages.required : isValidEmail(email) ? undefined : messages.invalid;

/** The check of a normalised e-mail: one issue at most, required or invalid. */
export const emailRule = (messages: EmailMessages = EMAIL_MESSAGES) =>
  z.superRefine((value: string, ctx) => {
    const message = emailProblem(value, messages);
    if (message) ctx.addIssue({ code: 'custom', input: value, message });
  });
