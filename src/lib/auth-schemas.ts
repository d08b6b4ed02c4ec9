import { z } from './zod';
import { isValidEmail, normalizeEmail } from './validators';
import { PASSWORD_MAX_LENGTH, passwordProblems } from './password-policy';

/**
 * Schemas of the sign-in and account forms. Each form's resolver and its endpoint's safeParse use
 * the same schema, so the browser and the server accept and refuse the same input.
 */

export const MESSAGES = {
  emailRequired: 'E-mail obrigatório',
  passwordRequired: 'SENHA OBRIGATÓRIA',
  passwordTooLong: `A senha deve ter no máximo ${PASSWORD_MAX_LENGTH} caracteres`,
  passwordsDiffer: 'As senhas não conferem',
  codeFormat: 'Informe o código de 6 dígitos enviado por e-mail',
} as const;

export const emailField = z
  .string({ error: MESSAGES.emailRequired })
  .max(254, MESSAGES.emailRequired)
  .transform(normalizeEmail)
  .refine(isValidEmail, MESSAGES.emailRequired);

const passwordInput = z
  .string({ error: MESSAGES.passwordRequired })
  .min(1, MESSAGES.passwordRequired)
  .max(PASSWORD_MAX_LENGTH, MESSAGES.passwordTooLong);

/** A new password must follow the SPEC §5 guidance; the message lists what is missing. */
export const newPasswordField = passwordInput.superRefine((value, ctx) => {
  const problems = passwordProblems(value);
  if (problems.length > 0) ctx.addIssue({ code: 'custom', message: `A senha precisa ter: ${problems.join(', ').toLowerCase()}` });
});

export const loginFormSchema = z.object({ email: emailField, senha: passwordInput });
export type LoginForm = z.input<typeof loginFormSchema>;

const newPasswordPair = {
  senha: newPasswordField,
  confirmacao: z.string({ error: MESSAGES.passwordsDiffer }).max(PASSWORD_MAX_LENGTH),
};
const confirmed = (v: { senha: string; confirmacao: string }) => v.senha === v.confirmacao;
const confirmationMismatch = { message: MESSAGES.passwordsDiffer, path: ['confirmacao'] };

export const forgotPasswordSchema = z.object({ email: emailField });
export const resendCodeSchema = forgotPasswordSchema;
export const resetPasswordSchema = z
  .object({ token: z.string().min(16, 'Link inválido').max(128, 'Link inválido'), ...newPasswordPair })
  .refine(confirmed, confirmationMismatch);
export const firstAccessSchema = z
  .object({
    email: emailField,
    codigo: z.string({ error: MESSAGES.codeFormat }).trim().regex(/^\d{6}$/, MESSAGES.codeFormat),
    ...newPasswordPair,
  })
  .refine(confirmed, confirmationMismatch);

// The API bodies of SPEC §7 (field names as the contract gives them).
export const v1LoginBody = z.object({ user_name: z.string().trim().min(1, MESSAGES.emailRequired).max(254), password: passwordInput });
export const gatewayLoginBody = z.object({ userName: z.string().trim().min(1, MESSAGES.emailRequired).max(254), password: passwordInput });

export const changePasswordSchema = z
  .object({ senhaAtual: passwordInput, ...newPasswordPair })
  .refine(confirmed, confirmationMismatch)
  .refine((v) => v.senha !== v.senhaAtual, { message: 'A nova senha deve ser diferente da atual', path: ['senha'] });
