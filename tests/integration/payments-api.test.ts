import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, DEMO_PASSWORD } from '../fixtures/api';
import { sellResidential } from '../fixtures/selling';
import { findUserByEmail, loadV2User } from '../../src/server/services/principals';
import { currentCharge, type ChargeView } from '../../src/server/services/charges';
import { scopeFor } from '../../src/server/services/scope';

/**
 * Issue 13: the bank's signed payment confirmation (replay-safe, idempotent by the payment's id) and
 * the demo bank of the insurer's admins, through the API router.
 */
const SECRET = vi.hoisted(() => {
  const secret = 'segredo-de-teste-com-mais-de-trinta-e-dois-caracteres';
  process.env.PAYMENTS_WEBHOOK_SECRET = secret;
  // Outside production the demo bank opens too, beside the signed confirmations.
  process.env.PORTAL_ENV = 'TEST';
  return secret;
});

let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;
let nrApolice: string;
let pixOnly: string;

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  call = apiClient(db);
  // The seed's life policy (the demo partner's proposal, accepted at once), and a residential one paid by Pix.
  nrApolice = (await db.selectFrom('policies').select('nr_apolice').executeTakeFirstOrThrow()).nr_apolice;
  pixOnly = (await sellResidential(db, { plan: 'essencial', contratacao: { formaPagamento: 'pix', parcelas: 1 } })).nrApolice!;
});
afterAll(() => close());

async function charge(policy = nrApolice): Promise<ChargeView> {
  const user = await loadV2User(db, (await findUserByEmail(db, 'admin@seguradora.demo'))!, { fullyAuthenticated: true });
  return currentCharge(db, await scopeFor(db, { generation: 'v2', user }, 'BOLETOS'), 'v2', policy, 1);
}
const token = async (email: string) =>
  (await call('POST', '/api/gateway/login', { body: { userName: email, password: DEMO_PASSWORD } })).json.token as string;

function confirm(
  body: unknown,
  { secret = SECRET, at = Math.floor(Date.now() / 1000), signature }: { secret?: string; at?: number; signature?: string } = {},
) {
  const raw = JSON.stringify(body);
  const sign = signature ?? createHmac('sha256', secret).update(`${at}.${raw}`).digest('hex');
  return call('POST', '/api/pagamentos/v1/confirmacoes', {
    rawBody: raw,
    headers: { 'content-type': 'application/json', 'x-pagamento-timestamp': String(at), 'x-pagamento-assinatura': `sha256=${sign}` },
  });
}

describe('the bank’s confirmation', () => {
  it('refuses an unsigned, forged or stale notice and changes nothing', async () => {
    const { linhaDigitavel } = await charge();
    const before = await db.selectFrom('payments').select('id').execute();
    const body = { id: 'pg-1', codigo: linhaDigitavel };
    expect((await call('POST', '/api/pagamentos/v1/confirmacoes', { body })).status).toBe(401);
    expect((await confirm(body, { secret: 'outro-segredo-com-mais-de-trinta-e-dois-caracteres' })).status).toBe(401);
    expect((await confirm(body, { at: Math.floor(Date.now() / 1000) - 3600 })).status).toBe(401);
    expect((await confirm(body, { signature: 'x' })).status).toBe(401);
    expect(await db.selectFrom('payments').select('id').execute()).toEqual(before);
  });

  it('pays once: the same notice again answers the same payment, another payment of the paid installment is refused', async () => {
    const { linhaDigitavel, total } = await charge();
    const first = await confirm({ id: 'pg-1', codigo: linhaDigitavel });
    expect(first, JSON.stringify(first.json)).toMatchObject({ status: 200, json: { dado: { paid: true, valor: total, repeated: false } } });
    expect(await confirm({ id: 'pg-1', codigo: linhaDigitavel })).toMatchObject({ status: 200, json: { dado: { repeated: true } } });
    expect((await confirm({ id: 'pg-2', codigo: linhaDigitavel })).status).toBe(409);
    expect((await confirm({ id: 'pg-3', codigo: '123' })).status).toBe(404);
    expect((await confirm({ nada: true })).status).toBe(400);
  });
});

describe('the demo bank', () => {
  it('is the insurer admins’, pays by Pix copia e cola, and says what is wrong with a code', async () => {
    const { pixCopiaECola, total } = await charge(pixOnly);
    const partner = await call('POST', '/api/pagamentos/v1/banco-demonstracao', {
      headers: { authtoken: await token('parceiro@parceiro.demo') },
      body: { codigo: pixCopiaECola },
    });
    expect(partner.status).toBe(403);
    expect((await call('POST', '/api/pagamentos/v1/banco-demonstracao', { body: { codigo: pixCopiaECola } })).status).toBe(401);
    const admin = { authtoken: await token('admin@seguradora.demo') };
    const pay = (codigo: string) => call('POST', '/api/pagamentos/v1/banco-demonstracao', { headers: admin, body: { codigo } });
    expect((await pay(' ')).status).toBe(400);
    expect((await pay('não é um código')).status).toBe(404);
    expect(await pay(pixCopiaECola)).toMatchObject({ status: 200, json: { dado: { paid: true, valor: total, nrApolice: pixOnly } } });
    expect((await pay(pixCopiaECola)).status).toBe(409);
    const installment = await db
      .selectFrom('installments as i')
      .innerJoin('policies as a', 'a.id', 'i.policy_id')
      .select('i.status')
      .where('a.nr_apolice', '=', pixOnly)
      .executeTakeFirstOrThrow();
    expect(installment.status).toBe('PAGA');
  });
});
