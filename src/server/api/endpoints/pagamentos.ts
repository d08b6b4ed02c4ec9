import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { z } from '../../../lib/zod';
import { endpoint } from '../router';
import { badRequest, forbidden, notFound, unauthorized } from '../errors';
import { config, demoBankEnabled } from '../../config';
import { now, realNow } from '../../clock';
import { payCharge } from '../../services/charges';
import { principalFacts } from '../../services/principals';
import { V1_ADMIN_GROUP } from '../../../lib/permissions';
import { readBodyText } from '../../request-body';

/**
 * Payments (issue 13; docs/decisions/033-boleto-pix-and-payments.md): the bank's signed confirmation
 * of a paid boleto or Pix, and the demo bank that pays one where no bank is connected. `{ dado }`.
 */

/** How old a confirmation may be: a captured request replayed later is refused. */
const MAX_SKEW_SECONDS = 300;

const confirmation = z.object({
  id: z.string().trim().min(1).max(64),
  codigo: z.string().trim().min(1).max(512),
});

/** The signature the bank sends: hex HMAC-SHA256 of `${timestamp}.${body}`, compared in constant time. */
function signed(secret: string, timestamp: string, body: string, given: string): boolean {
  const expected = Buffer.from(createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex'));
  const actual = Buffer.from(given.replace(/^sha256=/, ''));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

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
      const fresh = /^\d{1,12}$/.test(timestamp) && Math.abs(realNow().getTime() / 1000 - at) <= MAX_SKEW_SECONDS;
      if (!fresh || !signed(secret, timestamp, body, signature)) throw unauthorized('Assinatura inválida ou expirada.');
      let parsed: z.infer<typeof confirmation>;
      try {
        parsed = confirmation.parse(JSON.parse(body));
      } catch {
        throw badRequest('Confirmação inválida: envie { id, codigo }.', { body: ['Envie o id do pagamento e o código pago.'] });
      }
      return payCharge(ctx.db, { code: parsed.codigo, externalId: `banco:${parsed.id}`, origem: 'WEBHOOK' }, now());
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
    }),
    async handle(ctx) {
      if (!demoBankEnabled()) throw notFound('Banco de demonstração indisponível neste ambiente.');
      const user = ctx.auth.user;
      const admin =
        user.generation === 'v2' ? user.profile === 'admin' : (await principalFacts(ctx.db, user.id)).groups.includes(V1_ADMIN_GROUP);
      if (!admin) throw forbidden('Só os administradores da seguradora usam o banco de demonstração.');
      return payCharge(ctx.db, { code: ctx.body.codigo, externalId: `demo:${randomUUID()}`, origem: 'BANCO_DEMO' }, now());
    },
  }),
];
