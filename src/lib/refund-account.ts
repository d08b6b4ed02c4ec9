import * as z from 'zod/mini';
import { BANKS, digitsField, oneOf } from './contracting';
import { digitsOnly, isValidCnpj, isValidCpf, isValidEmail, normalizeCnpj, normalizeEmail, parsePhone } from './validators';

/*
 * Where money is paid to: a bank account whose holder is the payee, or the payee's own CPF/CNPJ Pix
 * key. A cancellation's refund goes to the insured (issue 14, cancelamento/resumo/cadastro-conta); a
 * partner's commissions to the company (issue 17, financeiro/conta). zod/mini, so the form and the
 * endpoint check the same.
 *
 * Money leaves only to the payee's document (decision 056): a CPF/CNPJ key is registered in the DICT
 * to that document, and a transfer to an account names its holder's document, which the receiving bank
 * checks. An e-mail, phone or random key says nothing of whose it is — whoever types it could be
 * sending the insured's refund to themselves (issue 27) — so it is refused, with a message saying why.
 */

/** Whose the account must be, as the messages name them: 'do segurado', 'da empresa'. */
export type AccountOwner = 'do segurado' | 'da empresa';

const messagesFor = (owner: AccountOwner) =>
  ({
    kind: 'Escolha conta bancária ou chave Pix.',
    bank: 'Escolha o banco.',
    branch: 'Informe a agência (até 5 dígitos).',
    account: 'Informe a conta com o dígito (até 13 dígitos).',
    accountType: 'Escolha conta corrente ou poupança.',
    holder: 'Informe o CPF ou CNPJ do titular.',
    notOwner: `A conta deve ser ${owner}: o CPF/CNPJ do titular é diferente ${owner}.`,
    pixKey: 'Informe a chave Pix.',
    pixInvalid: `Chave Pix inválida: informe o CPF ou o CNPJ ${owner}.`,
    pixNotOwner: `A chave Pix de CPF/CNPJ deve ser ${owner}.`,
    pixNotDocument: `Use a chave Pix de CPF/CNPJ ${owner} ou uma conta de que seja titular: chaves de e-mail, celular e aleatórias não mostram de quem são.`,
  }) as const;

export const ACCOUNT_TYPES = [
  { value: 'corrente', label: 'Conta corrente' },
  { value: 'poupanca', label: 'Conta poupança' },
] as const;

export type PixKeyType = 'CPF' | 'CNPJ' | 'EMAIL' | 'TELEFONE' | 'ALEATORIA';
export const PIX_KEY_LABELS: Record<PixKeyType, string> = {
  CPF: 'CPF',
  CNPJ: 'CNPJ',
  EMAIL: 'E-mail',
  TELEFONE: 'Celular',
  ALEATORIA: 'Chave aleatória',
};

const RANDOM_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A Pix key as the DICT stores it, with its type; null when it is none. A typed CPF, CNPJ or phone
 * may carry its mask; a phone is a Brazilian mobile number (+55, DDD and 9 digits starting with 9).
 */
export function parsePixKey(input: string): { type: PixKeyType; key: string } | null {
  const value = input.trim();
  if (RANDOM_KEY.test(value.toLowerCase())) return { type: 'ALEATORIA', key: value.toLowerCase() };
  if (value.includes('@')) {
    const email = normalizeEmail(value);
    return isValidEmail(email) && email.length <= 77 ? { type: 'EMAIL', key: email } : null;
  }
  const digits = digitsOnly(value);
  if (/^[\d.\-\s]+$/.test(value) && digits.length === 11 && isValidCpf(digits)) return { type: 'CPF', key: digits };
  const cnpj = normalizeCnpj(value);
  if (cnpj.length === 14 && /^[\dA-Z./\-\s]+$/i.test(value) && isValidCnpj(cnpj)) return { type: 'CNPJ', key: cnpj };
  const national = digits.startsWith('55') && (digits.length === 12 || digits.length === 13) ? digits.slice(2) : digits;
  const phone = /^[+\d()\-\s]+$/.test(value) ? parsePhone(national) : null;
  if (phone && phone.numero.length === 9 && phone.numero.startsWith('9'))
    return { type: 'TELEFONE', key: `+55${phone.ddd}${phone.numero}` };
  return null;
}

/**
 * The destination of a payment to the holder of document `ownerDocument` (CPF or CNPJ, any mask),
 * the messages naming whose it must be.
 */
export function payeeAccountSchema(ownerDocument: string, owner: AccountOwner) {
  const MESSAGES = messagesFor(owner);
  const holder = normalizeCnpj(ownerDocument);
  const account = z.object({
    tipo: z.literal('CONTA'),
    banco: oneOf(
      BANKS.map((b) => b.value),
      MESSAGES.bank,
    ),
    agencia: digitsField(1, 5, MESSAGES.branch),
    conta: digitsField(2, 13, MESSAGES.account),
    tipoConta: oneOf(
      ACCOUNT_TYPES.map((t) => t.value),
      MESSAGES.accountType,
    ),
    titular: z.pipe(z.string({ error: MESSAGES.holder }), z.transform(normalizeCnpj)).check(
      z.refine((v) => v.length > 0, MESSAGES.holder),
      z.refine((v) => v === '' || v === holder, MESSAGES.notOwner),
    ),
  });
  const pix = z.object({
    tipo: z.literal('PIX'),
    chave: z.pipe(
      z.string({ error: MESSAGES.pixKey }).check(z.trim(), z.minLength(1, MESSAGES.pixKey), z.maxLength(77, MESSAGES.pixInvalid)),
      z.transform((value, ctx) => {
        const parsed = parsePixKey(value);
        if (!parsed) {
          ctx.issues.push({ code: 'custom', input: value, message: MESSAGES.pixInvalid });
          return z.NEVER;
        }
        if (parsed.type !== 'CPF' && parsed.type !== 'CNPJ') {
          ctx.issues.push({ code: 'custom', input: value, message: MESSAGES.pixNotDocument });
          return z.NEVER;
        }
        if (parsed.key !== holder) {
          ctx.issues.push({ code: 'custom', input: value, message: MESSAGES.pixNotOwner });
          return z.NEVER;
        }
        return parsed;
      }),
    ),
  });
  return z.discriminatedUnion('tipo', [account, pix], { error: MESSAGES.kind });
}
export type PayeeAccount = z.output<ReturnType<typeof payeeAccountSchema>>;

/** Where a cancellation's refund goes: the insured of document `insuredDocument`. */
export const refundAccountSchema = (insuredDocument: string) => payeeAccountSchema(insuredDocument, 'do segurado');
export type RefundAccount = PayeeAccount;

/**
 * The payee's own CPF/CNPJ Pix key: where money received above what was owed goes back when nobody
 * was asked for an account (decision 074) — the one destination decision 056 allows that needs no one's
 * word. A key the payee never registered is returned by the bank, and the staff correct the destination.
 */
export const ownDocumentPixKey = (document: string): PayeeAccount => ({
  tipo: 'PIX',
  chave: { type: document.length === 11 ? 'CPF' : 'CNPJ', key: document },
});
