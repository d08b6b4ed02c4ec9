import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { EMAIL_MESSAGES, emailProblem } from './email-field';
import { insuredSendSchema } from './insured-messages';
import { parsePixKey } from './refund-account';
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

/**
 * Issue 42: sending a document to the insured took `"a"@[127.0.0.1]`. One rule decides what an
 * address is (lib/validators.ts isValidEmail, through emailProblem): the browser's own check of
 * <input type="email"> (WHATWG) — no quoted local part, no IP literal —, with dots only between
 * atoms, a top-level label of letters, 64 characters before the @ and 254 in all.
 */
const VALID = [
  'ana@parceiro.demo',
  'maria.silva@exemplo.com.br',
  'ana+seguros@exemplo.com',
  "o'brien@exemplo.ie",
  'a_b-c@sub.dominio-x.com.br',
  '1234@exemplo.com',
  'a@b.co',
  'x@xn--caf-dma.com.br',
  `${'a'.repeat(64)}@exemplo.com.br`,
];
const INVALID = [
  '"a"@[127.0.0.1]',
  'a@[127.0.0.1]',
  'a@[ipv6:::1]',
  '"a"@exemplo.com',
  '"a.b"@exemplo.com',
  'a@127.0.0.1',
  'a@exemplo.123',
  'a@exemplo.c',
  '.a@exemplo.com',
  'a.@exemplo.com',
  'a..b@exemplo.com',
  'a@-exemplo.com',
  'a@exemplo-.com',
  'a@exemplo..com',
  'a@exemplo.com.',
  'a@exemplo_x.com',
  'a(comentario)@exemplo.com',
  'a\\b@exemplo.com',
  'a,b@exemplo.com',
  '<a@exemplo.com>',
  'joão@exemplo.com.br',
  'a@exemplo',
  'a@@exemplo.com',
  `${'a'.repeat(65)}@exemplo.com.br`,
  `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(60)}.com`,
];

describe('what an address is (the one rule of every e-mail field)', () => {
  it.each(VALID)('%s is an address', (email) => expect(emailProblem(email)).toBeUndefined());
  it.each(INVALID)('%s is not: "E-mail inválido"', (email) => expect(emailProblem(email)).toBe(EMAIL_MESSAGES.invalid));

  it.each(FORMS)('%s refuses each of them with the message the field already uses', (_, schema, field) => {
    for (const email of INVALID) expect(messagesAt(schema, { [field]: email }, field), email).toEqual([EMAIL_MESSAGES.invalid]);
  });

  it('sending a document to the insured refuses each of them, and takes each valid one', () => {
    for (const email of INVALID)
      expect(messagesAt(insuredSendSchema as Schema, { tipo: 'apolice', email }, 'email'), email).toEqual([EMAIL_MESSAGES.invalid]);
    for (const email of VALID) expect(messagesAt(insuredSendSchema as Schema, { tipo: 'apolice', email }, 'email'), email).toEqual([]);
  });

  it('a Pix key that looks like an e-mail is one only by the same rule', () => {
    for (const email of INVALID) expect(parsePixKey(email)?.type ?? null, email).not.toBe('EMAIL');
    expect(parsePixKey('maria.silva@exemplo.com.br')).toEqual({ type: 'EMAIL', key: 'maria.silva@exemplo.com.br' });
  });
});
