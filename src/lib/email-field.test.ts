import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { EMAIL_MESSAGES } from './email-field';
import { firstAccessSchema, forgotPasswordSchema, loginFormSchema } from './auth-schemas';
import { legacyUserSchema, personalDataSchema } from './user-admin';
import { administratorSchema, commercialSchema, responsibleSchema } from './partner-forms';
import { insuredSchema } from './products/insured';
import { contactSchema } from './endorsements';

/**
 * Issue 27: "E-mail obrigatório" was shown for a filled but invalid e-mail. SPEC §5 keeps it for the
 * empty field; a filled address that is not one says "E-mail inválido" — in every form with an e-mail
 * field of both generations, whose schemas the API's field errors come from too.
 */
type Schema = z.ZodMiniType<unknown, unknown>;
const messagesAt = (schema: Schema, input: Record<string, unknown>, field: string) => {
  const result = z.safeParse(schema, input);
  return result.success ? [] : result.error.issues.filter((issue) => issue.path.join('.') === field).map((issue) => issue.message);
};

const FORMS: [string, Schema, string][] = [
  ['login (both generations)', loginFormSchema as Schema, 'email'],
  ['forgot password and resend code', forgotPasswordSchema as Schema, 'email'],
  ['first access', firstAccessSchema as Schema, 'email'],
  ['legacy user form', legacyUserSchema as Schema, 'email'],
  ['v2 user, personal data', personalDataSchema as Schema, 'email'],
  ['partner: legal representative', responsibleSchema as Schema, 'email'],
  ['partner: commercial contacts', commercialSchema as Schema, 'email'],
  ['partner: first administrator', administratorSchema as Schema, 'email'],
  ['the insured of a quote (person)', insuredSchema('PF') as Schema, 'email'],
  ['the insured of a quote (company)', insuredSchema('PJ') as Schema, 'email'],
  ['contact endorsement', contactSchema as Schema, 'email'],
];

describe('an e-mail field', () => {
  it.each(FORMS)('%s: empty → "E-mail obrigatório"', (_, schema, field) => {
    for (const empty of ['', '   ']) expect(messagesAt(schema, { [field]: empty }, field)).toEqual([EMAIL_MESSAGES.required]);
    expect(messagesAt(schema, {}, field)).toEqual([EMAIL_MESSAGES.required]);
  });

  it.each(FORMS)('%s: filled but not an address → "E-mail inválido"', (_, schema, field) => {
    for (const invalid of ['sem-arroba', 'a@b', 'x@.com', `${'a'.repeat(250)}@exemplo.com.br`])
      expect(messagesAt(schema, { [field]: invalid }, field), invalid).toEqual([EMAIL_MESSAGES.invalid]);
  });

  it.each(FORMS)('%s: an address → no message (spaces and case as SPEC §5 says)', (_, schema, field) => {
    expect(messagesAt(schema, { [field]: ' Maria.Silva@Exemplo.com.BR ' }, field)).toEqual([]);
  });

  it('the financial e-mail of a partner names itself', () => {
    expect(messagesAt(commercialSchema as Schema, { emailFinanceiro: '' }, 'emailFinanceiro')).toEqual(['Informe o e-mail do financeiro.']);
    expect(messagesAt(commercialSchema as Schema, { emailFinanceiro: 'x' }, 'emailFinanceiro')).toEqual(['E-mail do financeiro inválido.']);
  });
});
