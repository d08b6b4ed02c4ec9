import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { z } from '../../../lib/zod';
import { endpoint } from '../router';
import { invalid, fieldErrorsOf, forbidden, notFound, unauthenticated } from '../../errors';
import { config, demoBankEnabled } from '../../config';
import { now, realNow } from '../../clock';
import { payCharge } from '../../services/after-sale/charges';
import { principalFacts } from '../../services/identity/principals';
import { V1_ADMIN_GROUP } from '../../../lib/permissions';
import { readBodyText } from '../../request-body';
import { isStorableText } from '../../../lib/storable-text';
import { MAX_RECEIPT_CENTS } from '../../../lib/receipts';
import { parseMoneyText } from '../../../lib/commissions';

/**
 * Payments (issue 13; decisions 033 and 059): the bank's signed confirmation of an amount received for
 * a boleto or Pix, and the demo bank that pays one where no bank is connected. `{ dado }`. Every
 * signed body gets a 2xx or a 4xx: a bank retries a 5xx forever.
 */

/** How far the bank's timestamp may be from the real time: a captured request replayed later is refused. */
const MAX_SKEW_SECONDS = 300;

const unstorable = (what: string) => `${what} com caractere não permitido (caractere nulo ou Unicode inválido).`;

/**
 * The bank's confirmation: its payment id, the code paid and the amount received, in cents. Text the
 * database cannot hold is refused here, with its field — the bank retries a 5xx forever (decision 059).
 */
const confirmation = z.object(
  {
    id: z
      .string('Envie o id do pagamento (texto).')
      .trim()
      .min(1, 'Envie o id do pagamento.')
      .max(64, 'O id do pagamento tem no máximo 64 caracteres.')
      .refine(isStorableText, unstorable('Id do pagamento')),
    codigo: z
      .string('Envie o código pago: a linha digitável ou o Pix copia e cola.')
      .trim()
      .min(1, 'Envie o código pago: a linha digitável ou o Pix copia e cola.')
      .max(512, 'O código pago tem no máximo 512 caracteres.')
      .refine(isStorableText, unstorable('Código pago')),
    valor: z
      .number('Envie o valor recebido em centavos (número inteiro).')
      .int('Envie o valor recebido em centavos (número inteiro).')
      .min(1, 'O valor recebido deve ser maior que zero.')
      .max(MAX_RECEIPT_CENTS, 'Valor recebido acima do limite de um pagamento.'),
  },
  'Envie um objeto { id, codigo, valor }.',
);

/** The signature the bank sends: hex HMAC-SHA256 of `${timestamp}.${body}`, compared in constant time. */
function signed(secret: string, timestamp: string, body: string, given: string): boolean {
  const expected = Buffer.from(createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex'));
  const actual = Buffer.from(given.replace(/^sha256=/, ''));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** The demo bank's amount, typed in reais ('383,95'); blank pays what is owed that day. */
const demoAmount = z
  .string()
  .trim()
  .max(30)
  .optional()
  .transform((text, ctx) => {
    if (!text) return undefined;
    const cents = parseMoneyText(text);
    if (cents === undefined || cents < 1 || cents > MAX_RECEIPT_CENTS) {
      ctx.addIssue({ code: 'custom', message: 'Informe o valor em reais, como 383,95, ou deixe em branco.' });
      return z.NEVER;
    }
    return cents;
  });

export const pagamentos = [
  // No body schema: the router leaves the body unread, so the signature is checked over its bytes.
  endpoint({
    method: 'POST',
    path: '/v1/confirmacoes',
    async handle(ctx) {
      const secret = config().PAYMENTS_WEBHOOK_SECRET;
      // Without a secret no bank is connected: the address does not exist here.
      if (!secret) throw notFound('Confirmação de pagamentos não configurada neste ambiente.');
      const timestamp = ctx.request.headers.get('x-pagamento-timestamp') ?? '';
      const signature = ctx.request.headers.get('x-pagamento-assinatura') ?? '';
      const body = await readBodyText(ctx.request);
      const at = Number(timestamp);
      // The bank signs with its own clock, the real one: compared with the real time, not the
      // server's clock set ahead outside production (CLOCK_OFFSET_DAYS; decision 059).
      const fresh = /^\d{1,12}$/.test(timestamp) && Math.abs(realNow().getTime() / 1000 - at) <= MAX_SKEW_SECONDS;
      if (!fresh || !signed(secret, timestamp, body, signature)) throw unauthenticated('Assinatura inválida ou expirada.');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        throw invalid('Confirmação inválida: o corpo não é JSON.', { body: ['Envie um objeto { id, codigo, valor }.'] });
      }
      const parsed = confirmation.safeParse(json);
      if (!parsed.success) throw invalid('Confirmação inválida: confira os campos.', fieldErrorsOf(parsed.error));
      const { id, codigo, valor } = parsed.data;
      return payCharge(ctx.db, { code: codigo, externalId: `banco:${id}`, origem: 'WEBHOOK', valor }, now());
    },
  }),
  // The demo bank: the insurer's admins pay a boleto or Pix by its code where no bank confirms them.
  endpoint({
    method: 'POST',
    path: '/v1/banco-demonstracao',
    auth: ['v2', 'v1'],
    body: z.object({
      codigo: z
        .string('Cole a linha digitável ou o Pix copia e cola.')
        .trim()
        .min(1, 'Cole a linha digitável ou o Pix copia e cola.')
        .max(512),
      valor: demoAmount,
      // Pay a slip that already paid its installment: the duplicate a customer makes (decision 074).
      duplicidade: z.boolean('Envie duplicidade como verdadeiro ou falso.').optional(),
    }),
    async handle(ctx) {
      if (!demoBankEnabled()) throw notFound('Banco de demonstração indisponível neste ambiente.');
      const user = ctx.auth.user;
      const admin =
        user.generation === 'v2' ? user.profile === 'admin' : (await principalFacts(ctx.db, user.id)).groups.includes(V1_ADMIN_GROUP);
      if (!admin) throw forbidden('Só os administradores da seguradora usam o banco de demonstração.');
      return payCharge(
        ctx.db,
        {
          code: ctx.body.codigo,
          externalId: `demo:${randomUUID()}`,
          origem: 'BANCO_DEMO',
          valor: ctx.body.valor,
          paidAgain: ctx.body.duplicidade === true,
        },
        now(),
      );
    },
  }),
];
