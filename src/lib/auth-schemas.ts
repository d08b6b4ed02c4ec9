import * as z from 'zod/mini';
import { normalizeEmail } from './validators';
import { EMAIL_MESSAGES, emailRule } from './email-field';
import { PASSWORD_MAX_LENGTH, passwordProblems } from './password-policy';

/**
 * Schemas of the sign-in and account forms. Each form and its endpoint use the same schema, so the
 * browser and the server accept and refuse the same input. Written with zod/mini: these schemas
 * ship to the browser with the login page, whose JavaScript budget is 90 KB
 * (docs/decisions/012-javascript-budget.md).
 */

export const MESSAGES = {
  emailRequired: EMAIL_MESSAGES.required,
  emailInvalid: EMAIL_MESSAGES.invalid,
  passwordRequired: 'SENHA OBRIGATÓRIA',
  passwordTooLong: `A senha deve ter no máximo ${PASSWORD_MAX_LENGTH} caracteres`,
  passwordsDiffer: 'As senhas não conferem',
  codeFormat: 'Informe o código de 6 dígitos enviado por e-mail',
  invalidLink: 'Link inválido',
} as const;

/** RFC 5321's longest address; forms set it as the input's maxLength. */
export const EMAIL_MAX_LENGTH = 254;

/** SPEC §5: 'E-mail obrigatório' when empty; a filled value that is no address is 'E-mail inválido' (issue 27). */
export const emailField = z
  .pipe(
    z.string({ error: MESSAGES.emailRequired }).check(z.maxLength(EMAIL_MAX_LENGTH, MESSAGES.emailInvalid)),
    z.transform(normalizeEmail),
  )
  .check(emailRule());

const passwordInput = z
  .string({ error: MESSAGES.passwordRequired })
  .check(z.minLength(1, MESSAGES.passwordRequired), z.maxLength(PASSWORD_MAX_LENGTH, MESSAGES.passwordTooLong));

/** A new password must follow the SPEC §5 guidance; the message lists what is missing. */
export const newPasswordField = passwordInput.check(
  z.superRefine((value, ctx) => {
    const problems = passwordProblems(value);
    if (problems.length > 0)
      ctx.addIssue({ code: 'custom', input: value, message: `A senha precisa ter: ${problems.join(', ').toLowerCase()}` });
  }),
);

export const loginFormSchema = z.object({ email: emailField, senha: passwordInput });
export type LoginForm = z.input<typeof loginFormSchema>;

const newPasswordPair = {
  senha: newPasswordField,
  confirmacao: z.string({ error: MESSAGES.passwordsDiffer }).check(z.maxLength(PASSWORD_MAX_LENGTH)),
};
const confirmed = z.refine<{ senha: string; confirmacao: string }>((v) => v.senha === v.confirmacao, {
  message: MESSAGES.passwordsDiffer,
  path: ['confirmacao'],
});

export const forgotPasswordSchema = z.object({ email: emailField });
export const resendCodeSchema = forgotPasswordSchema;
export const resetPasswordSchema = z
  .object({ token: z.string().check(z.minLength(16, MESSAGES.invalidLink), z.maxLength(128, MESSAGES.invalidLink)), ...newPasswordPair })
  .check(confirmed);
export const firstAccessSchema = z
  .object({
    email: emailField,
    codigo: z.string({ error: MESSAGES.codeFormat }).check(z.trim(), z.regex(/^\d{6}$/, MESSAGES.codeFormat)),
    ...newPasswordPair,
  })
  .check(confirmed);

export const changePasswordSchema = z.object({ senhaAtual: passwordInput, ...newPasswordPair }).check(
  confirmed,
  z.refine<{ senha: string; senhaAtual: string }>((v) => v.senha !== v.senhaAtual, {
    message: 'A nova senha deve ser diferente da atual',
    path: ['senha'],
  }),
);

// The API bodies of SPEC §7 (field names as the contract gives them).
const userName = z.string({ error: MESSAGES.emailRequired }).check(z.trim(), z.minLength(1, MESSAGES.emailRequired), z.maxLength(254));
export const v1LoginBody = z.object({ user_name: userName, password: passwordInput });
export const gatewayLoginBody = z.object({ userName, password: passwordInput });
