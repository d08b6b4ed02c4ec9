import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, signInApi, tokenOf } from '../fixtures/api';
import { sellResidential } from '../fixtures/selling';
import { findUserByEmail, loadV2User } from '../../src/server/services/identity/principals';
import { currentCharge, type ChargeView } from '../../src/server/services/after-sale/charges';
import { scopeFor } from '../../src/server/services/identity/scope';
import { receiptsToReview } from '../../src/server/services/after-sale/payments';
import { formatDigitableLine } from '../../src/lib/boleto';
import fc from 'fast-check';
import { hostileText } from '../fixtures/hostile-text';

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
let fourInstallments: string;

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  call = apiClient(db);
  // The seed's life policy (the demo partner's proposal, accepted at once), and a residential one paid by Pix.
  nrApolice = (await db.selectFrom('policies').select('nr_apolice').executeTakeFirstOrThrow()).nr_apolice;
  pixOnly = (await sellResidential(db, { plan: 'essencial', contratacao: { formaPagamento: 'pix', parcelas: 1 } })).nrApolice!;
  fourInstallments = (await sellResidential(db)).nrApolice!;
});
afterAll(() => close());

async function charge(policy = nrApolice, numero = 1): Promise<ChargeView> {
  const user = await loadV2User(db, (await findUserByEmail(db, 'admin@seguradora.demo'))!, { fullyAuthenticated: true });
  return currentCharge(db, await scopeFor(db, { generation: 'v2', user }, 'BOLETOS'), 'v2', policy, numero);
}

const statusOf = async (policy: string, numero: number) =>
  (
    await db
      .selectFrom('installments as i')
      .innerJoin('policies as a', 'a.id', 'i.policy_id')
      .select('i.status')
      .where('a.nr_apolice', '=', policy)
      .where('i.numero', '=', numero)
      .executeTakeFirstOrThrow()
  ).status;

/** The receipts recorded for a policy's installments, in order. */
const receiptsOf = (policy: string) =>
  db
    .selectFrom('receipts as r')
    .innerJoin('installments as i', 'i.id', 'r.installment_id')
    .innerJoin('policies as a', 'a.id', 'i.policy_id')
    .select(['r.external_id', 'r.valor', 'r.aplicado', 'r.credito', 'r.situacao'])
    .where('a.nr_apolice', '=', policy)
    .orderBy('r.id')
    .execute();
const token = async (email: string) => tokenOf((await signInApi(call, email)).json) as string;

function confirm(
  body: unknown,
  { secret = SECRET, at = Math.floor(Date.now() / 1000), signature }: { secret?: string; at?: number; signature?: string } = {},
) {
  const raw = JSON.stringify(body) ?? '';
  const sign = signature ?? createHmac('sha256', secret).update(`${at}.${raw}`).digest('hex');
  return call('POST', '/api/pagamentos/v1/confirmacoes', {
    rawBody: raw,
    headers: { 'content-type': 'application/json', 'x-pagamento-timestamp': String(at), 'x-pagamento-assinatura': `sha256=${sign}` },
  });
}

describe('the bank’s confirmation', () => {
  it('refuses an unsigned, forged or stale notice and changes nothing', async () => {
    const { linhaDigitavel, total } = await charge();
    const before = await db.selectFrom('receipts').select('id').execute();
    const body = { id: 'pg-1', codigo: linhaDigitavel, valor: total };
    expect((await call('POST', '/api/pagamentos/v1/confirmacoes', { body })).status).toBe(401);
    expect((await confirm(body, { secret: 'outro-segredo-com-mais-de-trinta-e-dois-caracteres' })).status).toBe(401);
    expect((await confirm(body, { at: Math.floor(Date.now() / 1000) - 3600 })).status).toBe(401);
    expect((await confirm(body, { signature: 'x' })).status).toBe(401);
    expect(await db.selectFrom('receipts').select('id').execute()).toEqual(before);
  });

  it('pays once: the same notice again answers the same payment; another payment of the paid installment is a credit to refund', async () => {
    const { linhaDigitavel, total } = await charge();
    const first = await confirm({ id: 'pg-1', codigo: linhaDigitavel, valor: total });
    expect(first, JSON.stringify(first.json)).toMatchObject({
      status: 200,
      json: { dado: { paid: true, situacao: 'QUITACAO', valor: total, credito: 0, repeated: false } },
    });
    expect(await confirm({ id: 'pg-1', codigo: linhaDigitavel, valor: total })).toMatchObject({
      status: 200,
      json: { dado: { repeated: true } },
    });
    // Issue 27 item 13: this was a 409 and the money received was recorded nowhere.
    const again = await confirm({ id: 'pg-2', codigo: linhaDigitavel, valor: total });
    expect(again, JSON.stringify(again.json)).toMatchObject({
      status: 200,
      json: { dado: { paid: true, situacao: 'CREDITO', valor: total, credito: total, repeated: false } },
    });
    expect(await receiptsOf(nrApolice)).toEqual([
      { external_id: 'banco:pg-1', valor: total, aplicado: total, credito: 0, situacao: 'QUITACAO' },
      { external_id: 'banco:pg-2', valor: total, aplicado: 0, credito: total, situacao: 'CREDITO' },
    ]);
    expect(await db.selectFrom('payments').select('valor').where('external_id', 'like', 'banco:pg-%').execute()).toEqual([
      { valor: total },
    ]);
    expect((await confirm({ nada: true })).status).toBe(400);
  });

  it('an amount short of what is due leaves the installment open; what completes it pays it, the excess to refund', async () => {
    const { linhaDigitavel, total } = await charge(fourInstallments, 2);
    // Issue 27 item 13: `valor: 1` closed an installment of R$ 383,95.
    const short = await confirm({ id: 'parcial-1', codigo: linhaDigitavel, valor: 1 });
    expect(short, JSON.stringify(short.json)).toMatchObject({
      status: 200,
      json: { dado: { paid: false, situacao: 'PARCIAL', valor: 1 } },
    });
    expect(await statusOf(fourInstallments, 2)).toBe('ABERTA');
    const rest = await confirm({ id: 'parcial-2', codigo: linhaDigitavel, valor: total });
    expect(rest, JSON.stringify(rest.json)).toMatchObject({
      status: 200,
      json: { dado: { paid: true, situacao: 'QUITACAO', credito: 1 } },
    });
    expect(await statusOf(fourInstallments, 2)).toBe('PAGA');
    const payment = await db
      .selectFrom('payments')
      .select(['valor', 'external_id'])
      .where('external_id', '=', 'banco:parcial-2')
      .executeTakeFirstOrThrow();
    expect(payment.valor).toBe(total);
  });

  it('more than is due pays the installment and keeps the excess as a credit to refund', async () => {
    const { linhaDigitavel, total } = await charge(fourInstallments, 3);
    const over = await confirm({ id: 'a-mais', codigo: linhaDigitavel, valor: total + 5000 });
    expect(over, JSON.stringify(over.json)).toMatchObject({
      status: 200,
      json: { dado: { paid: true, situacao: 'QUITACAO', credito: 5000 } },
    });
  });

  it('a bank id already used for another charge is a 409 that says so, and records nothing', async () => {
    const { linhaDigitavel, total } = await charge(fourInstallments, 4);
    const before = await db.selectFrom('receipts').select('id').execute();
    // Issue 27 item 13: this was a 500, and the bank retries a 5xx forever.
    const reused = await confirm({ id: 'pg-1', codigo: linhaDigitavel, valor: total });
    expect(reused).toMatchObject({ status: 409, json: { message: expect.stringContaining('já foi registrado') } });
    expect(await db.selectFrom('receipts').select('id').execute()).toEqual(before);
    expect(await statusOf(fourInstallments, 4)).toBe('ABERTA');
  });

  it('an id with a NUL or a lone surrogate is a 400 with a message; two different lone surrogates are never one payment', async () => {
    const { linhaDigitavel, total } = await charge(fourInstallments, 4);
    for (const id of ['nul\u0000id', 'lone-\ud800', 'lone-\udbff', '\udc00x']) {
      const answer = await confirm({ id, codigo: linhaDigitavel, valor: total });
      expect(answer, `${JSON.stringify(id)} → ${JSON.stringify(answer.json)}`).toMatchObject({
        status: 400,
        json: { message: expect.any(String), erros: { id: [expect.stringContaining('caractere')] } },
      });
    }
    const codeWithNul = await confirm({ id: 'ok-id', codigo: `${linhaDigitavel}\u0000`, valor: total });
    expect(codeWithNul).toMatchObject({ status: 400, json: { erros: { codigo: [expect.any(String)] } } });
    expect(await statusOf(fourInstallments, 4)).toBe('ABERTA');
  });

  it('a code that names no charge of ours is recorded, unidentified, to refund', async () => {
    const answer = await confirm({ id: 'pg-3', codigo: '123', valor: 4200 });
    expect(answer, JSON.stringify(answer.json)).toMatchObject({
      status: 200,
      json: { dado: { paid: false, situacao: 'NAO_IDENTIFICADO', valor: 4200, credito: 4200 } },
    });
    const row = await db.selectFrom('receipts').selectAll().where('external_id', '=', 'banco:pg-3').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ charge_id: null, installment_id: null, codigo: '123', credito: 4200 });
  });

  it('a body without the amount, or with it as text, a fraction or zero, is a 400 that says so', async () => {
    const { linhaDigitavel } = await charge(fourInstallments, 4);
    for (const valor of [undefined, '383,95', 383.95, 0, -1, 2 ** 31]) {
      const answer = await confirm({ id: 'sem-valor', codigo: linhaDigitavel, valor });
      expect(answer, `${valor} → ${JSON.stringify(answer.json)}`).toMatchObject({
        status: 400,
        json: { erros: { valor: [expect.any(String)] } },
      });
    }
  });

  it('random signed bodies: never a 5xx, and every notice taken is recorded', async () => {
    const { linhaDigitavel, pixCopiaECola, total } = await charge(fourInstallments, 4);
    const codes = fc.constantFrom(linhaDigitavel, pixCopiaECola, formatDigitableLine(linhaDigitavel), '0'.repeat(47), '');
    const id = fc.oneof(fc.constantFrom('pg-1', 'pg-2', 'parcial-1', 'x'), hostileText(70));
    const valor = fc.oneof(fc.integer(), fc.constantFrom(total, 1, 0, 2 ** 31), fc.double(), hostileText(8));
    const body = fc.oneof(
      { weight: 6, arbitrary: fc.record({ id, codigo: fc.oneof(codes, hostileText(600)), valor }, { requiredKeys: [] }) },
      { weight: 1, arbitrary: fc.anything() },
    );
    const taken = new Set<string>();
    await fc.assert(
      fc.asyncProperty(body, async (sent) => {
        const answer = await confirm(sent);
        expect(answer.status, JSON.stringify({ sent, answer: answer.json })).toBeLessThan(500);
        if (answer.status >= 400) expect(answer.json).toMatchObject({ status: answer.status, message: expect.any(String) });
        else taken.add(`banco:${(sent as { id: string }).id.trim()}`);
      }),
      { numRuns: 300 },
    );
    expect(taken.size).toBeGreaterThan(0);
    const recorded = new Set((await db.selectFrom('receipts').select('external_id').execute()).map((r) => r.external_id));
    for (const externalId of taken) expect(recorded.has(externalId), externalId).toBe(true);
  }, 120_000);
});

describe('the insurer’s list of receipts to look at', () => {
  it('holds the credits to refund and the partial payments still open — for a scope of every sale only', async () => {
    const scopeOf = async (email: string) =>
      scopeFor(
        db,
        { generation: 'v2', user: await loadV2User(db, (await findUserByEmail(db, email))!, { fullyAuthenticated: true }) },
        'BOLETOS',
      );
    const { linhaDigitavel } = await charge((await sellResidential(db)).nrApolice!, 1);
    expect((await confirm({ id: 'parcial-aberta', codigo: linhaDigitavel, valor: 250 })).status).toBe(200);
    // Every page: the random notices above add many receipts of their own.
    const admin = await scopeOf('admin@seguradora.demo');
    const first = (await receiptsToReview(db, admin, 1))!;
    const pages = [first];
    for (let page = 2; page <= first.receipts.totalPages; page++) pages.push((await receiptsToReview(db, admin, page))!);
    const content = pages.flatMap((p) => p.receipts.content);
    expect(content).toHaveLength(first.receipts.totalElements);
    const listed = Object.fromEntries(content.map((r) => [r.externalId, [r.situacao, r.credito]]));
    expect(listed).toMatchObject({
      'pg-2': ['CREDITO', expect.any(Number)],
      'parcial-2': ['QUITACAO', 1],
      'a-mais': ['QUITACAO', 5000],
      'pg-3': ['NAO_IDENTIFICADO', 4200],
      'parcial-aberta': ['PARCIAL', 0],
    });
    // Paid in full, or partial and completed later: nothing to look at.
    expect(listed).not.toHaveProperty('pg-1');
    expect(listed).not.toHaveProperty('parcial-1');
    expect(first.owedBack).toBe(content.reduce((sum, r) => sum + r.credito, 0));
    expect(await receiptsToReview(db, await scopeOf('parceiro.admin@parceiro.demo'), 1)).toBeUndefined();
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
