import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBoletoInfo, isValidBoleto, isValidPixPayload } from '@brazilian-utils/brazilian-utils';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { sellResidential } from '../fixtures/selling';
import { findUserByEmail, loadV2User } from '../../src/server/services/identity/principals';
import { currentCharge, payCharge, secondCopy } from '../../src/server/services/after-sale/charges';
import { scopeFor } from '../../src/server/services/identity/scope';
import type { Scope } from '../../src/lib/scope';

/**
 * Issue 13: an installment's boleto with Pix, its 2ª via with fine and interest, and payments that
 * settle it once — through the real selling and acceptance services.
 */
const ISSUED = new Date('2026-11-23T13:00:00Z');
const day = (iso: string) => new Date(`${iso}T15:00:00Z`);
let db: DB;
let close: () => Promise<void>;
let nrApolice: string;
let partnerScope: Scope;
let partnerId: number;

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  const row = (await findUserByEmail(db, 'parceiro@parceiro.demo'))!;
  partnerId = row.id;
  nrApolice = (await sellResidential(db, { at: ISSUED })).nrApolice!;
  const user = await loadV2User(db, row, { fullyAuthenticated: true });
  partnerScope = await scopeFor(db, { generation: 'v2', user }, 'BOLETOS');
});
afterAll(() => close());

const installment = (numero: number) =>
  db
    .selectFrom('installments as i')
    .innerJoin('policies as a', 'a.id', 'i.policy_id')
    .select(['i.status', 'i.valor', 'i.vencimento'])
    .where('a.nr_apolice', '=', nrApolice)
    .where('i.numero', '=', numero)
    .executeTakeFirstOrThrow();

/** How many payments installment `numero` of this test's policy has recorded. */
const paymentsOf = async (numero: number) =>
  Number(
    (
      await db
        .selectFrom('payments as p')
        .innerJoin('installments as i', 'i.id', 'p.installment_id')
        .innerJoin('policies as a', 'a.id', 'i.policy_id')
        .select(db.fn.countAll<string>().as('n'))
        .where('a.nr_apolice', '=', nrApolice)
        .where('i.numero', '=', numero)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the boleto with Pix of an installment', () => {
  it('is made on first request, valid, and the same charge the next time', async () => {
    const charge = await currentCharge(db, partnerScope, 'v2', nrApolice, 1);
    const { valor, vencimento } = await installment(1);
    expect(isValidBoleto(charge.linhaDigitavel)).toBe(true);
    const info = getBoletoInfo(charge.linhaDigitavel, { referenceDate: ISSUED })!;
    expect(info.amount).toBe(valor);
    expect(info.expirationDate?.toISOString().slice(0, 10)).toBe(vencimento);
    expect(isValidPixPayload(charge.pixCopiaECola)).toBe(true);
    expect((await currentCharge(db, partnerScope, 'v2', nrApolice, 1)).id).toBe(charge.id);
  });

  it('is a 404 outside the scope and for an installment that does not exist', async () => {
    const other = await scopeFor(
      db,
      {
        generation: 'v2',
        user: await loadV2User(db, (await findUserByEmail(db, 'substabelecido@parceiro.demo'))!, { fullyAuthenticated: true }),
      },
      'BOLETOS',
    );
    await expect(currentCharge(db, other, 'v2', nrApolice, 1)).rejects.toMatchObject({ kind: 'not-found' });
    await expect(currentCharge(db, partnerScope, 'v2', nrApolice, 9)).rejects.toMatchObject({ kind: 'not-found' });
    await expect(currentCharge(db, partnerScope, 'v1', nrApolice, 1)).rejects.toMatchObject({ kind: 'not-found' });
  });
});

describe('paying', () => {
  it('a boleto settles its installment once; the same notice again is the same payment; another payment is a credit to refund', async () => {
    const charge = await currentCharge(db, partnerScope, 'v2', nrApolice, 1);
    const paid = await payCharge(db, { code: charge.linhaDigitavel, externalId: 'banco-1', origem: 'BANCO_DEMO' }, day('2026-12-05'));
    expect(paid).toMatchObject({ paid: true, numero: 1, repeated: false, valor: charge.total, situacao: 'QUITACAO' });
    expect(await installment(1)).toMatchObject({ status: 'PAGA' });
    expect(
      await payCharge(
        db,
        { code: charge.linhaDigitavel, externalId: 'banco-1', origem: 'WEBHOOK', valor: charge.total },
        day('2026-12-05'),
      ),
    ).toMatchObject({ repeated: true, situacao: 'QUITACAO' });
    // Issue 27 item 13: the bank received the money again; it was refused and recorded nowhere.
    expect(
      await payCharge(
        db,
        { code: charge.linhaDigitavel, externalId: 'banco-2', origem: 'WEBHOOK', valor: charge.total },
        day('2026-12-05'),
      ),
    ).toMatchObject({ paid: true, situacao: 'CREDITO', credito: charge.total, repeated: false });
    // The demo bank, as a payer's bank, refuses to pay a paid installment before any money moves.
    await expect(
      payCharge(db, { code: charge.linhaDigitavel, externalId: 'demo-2', origem: 'BANCO_DEMO' }, day('2026-12-05')),
    ).rejects.toMatchObject({ kind: 'conflict' });
    await expect(currentCharge(db, partnerScope, 'v2', nrApolice, 1)).rejects.toMatchObject({
      kind: 'conflict',
      message: expect.stringContaining('já está paga'),
    });
    expect(await paymentsOf(1)).toBe(1);
  });

  it('two payments at the same moment: one pays the installment, the other is recorded as a credit', async () => {
    const charge = await currentCharge(db, partnerScope, 'v2', nrApolice, 2);
    const outcomes = await Promise.all([
      payCharge(db, { code: charge.pixCopiaECola, externalId: 'pix-a', origem: 'WEBHOOK', valor: charge.total }, day('2027-01-05')),
      payCharge(db, { code: charge.linhaDigitavel, externalId: 'boleto-b', origem: 'WEBHOOK', valor: charge.total }, day('2027-01-05')),
    ]);
    expect(outcomes.map((o) => o.situacao).sort()).toEqual(['CREDITO', 'QUITACAO']);
    expect(await installment(2)).toMatchObject({ status: 'PAGA' });
    expect(await paymentsOf(2)).toBe(1);
  });

  it('one bank id sent for two charges at the same moment: one is recorded, the other a 409, never a 500', async () => {
    const other = (await sellResidential(db, { at: ISSUED })).nrApolice!;
    const [third, fourth] = await Promise.all([3, 4].map((n) => currentCharge(db, partnerScope, 'v2', other, n)));
    const outcomes = await Promise.allSettled([
      payCharge(db, { code: third!.linhaDigitavel, externalId: 'banco-mesmo', origem: 'WEBHOOK', valor: 1 }, day('2027-01-05')),
      payCharge(db, { code: fourth!.linhaDigitavel, externalId: 'banco-mesmo', origem: 'WEBHOOK', valor: 1 }, day('2027-01-05')),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({ reason: { kind: 'conflict' } });
    // Partial: the installment stays open, the cent is recorded.
    expect(await db.selectFrom('receipts').select(['situacao', 'valor']).where('external_id', '=', 'banco-mesmo').execute()).toEqual([
      { situacao: 'PARCIAL', valor: 1 },
    ]);
  });

  it('a Pix copia e cola copied from the boleto PDF, broken over lines, still pays', async () => {
    const charge = await currentCharge(db, partnerScope, 'v2', nrApolice, 4);
    const copied = `\n${charge.pixCopiaECola.slice(0, 60)}\r\n${charge.pixCopiaECola.slice(60, 120)}\n${charge.pixCopiaECola.slice(120)}\n`;
    const paid = await payCharge(db, { code: copied, externalId: 'pix-pdf', origem: 'BANCO_DEMO' }, day(charge.vencimento));
    expect(paid).toMatchObject({ paid: true, numero: 4, repeated: false });
  });

  it('an unknown code is a 404', async () => {
    await expect(payCharge(db, { code: '0'.repeat(47), externalId: 'x', origem: 'BANCO_DEMO' }, ISSUED)).rejects.toMatchObject({
      kind: 'not-found',
    });
    await expect(payCharge(db, { code: 'qualquer coisa', externalId: 'y', origem: 'BANCO_DEMO' }, ISSUED)).rejects.toMatchObject({
      kind: 'not-found',
    });
  });
});

describe('the 2ª via of an overdue installment', () => {
  it('only for an overdue one, due within ten days, with 2 % fine and 1 % a month pro rata; the old slip and an expired Pix are refused', async () => {
    const first = await currentCharge(db, partnerScope, 'v2', nrApolice, 3);
    const { valor, vencimento } = await installment(3);
    expect(vencimento).toBe('2027-02-10');
    await expect(secondCopy(db, partnerScope, 'v2', nrApolice, 3, '2027-02-12', partnerId, day('2027-02-05'))).rejects.toMatchObject({
      kind: 'conflict',
    });
    const late = day('2027-02-20');
    await expect(secondCopy(db, partnerScope, 'v2', nrApolice, 3, '2027-02-19', partnerId, late)).rejects.toMatchObject({
      kind: 'invalid',
      fieldErrors: { vencimento: [expect.any(String)] },
    });
    await expect(secondCopy(db, partnerScope, 'v2', nrApolice, 3, '2027-03-03', partnerId, late)).rejects.toMatchObject({
      kind: 'invalid',
    });

    const copy = await secondCopy(db, partnerScope, 'v2', nrApolice, 3, '2027-02-22', partnerId, late);
    // 12 days late on the 22nd: fine 2 %, interest 1 % × 12/30.
    expect(copy).toMatchObject({
      vencimento: '2027-02-22',
      valor,
      multa: Math.round(valor * 0.02),
      juros: Math.round((valor * 0.01 * 12) / 30),
    });
    expect(copy.total).toBe(copy.valor + copy.multa + copy.juros);
    expect(getBoletoInfo(copy.linhaDigitavel, { referenceDate: late })!.amount).toBe(copy.total);

    await expect(payCharge(db, { code: first.linhaDigitavel, externalId: 'old', origem: 'BANCO_DEMO' }, late)).rejects.toMatchObject({
      kind: 'conflict',
      message: expect.stringContaining('substituído'),
    });
    await expect(
      payCharge(db, { code: copy.pixCopiaECola, externalId: 'pix-late', origem: 'BANCO_DEMO' }, day('2027-02-23')),
    ).rejects.toMatchObject({
      kind: 'conflict',
      message: expect.stringContaining('venceu'),
    });
    // The bank confirms the installment's original value for the 2ª via: short of its fine and interest, it stays open.
    expect(
      await payCharge(db, { code: copy.linhaDigitavel, externalId: 'curto', origem: 'WEBHOOK', valor }, day('2027-02-21')),
    ).toMatchObject({ situacao: 'PARCIAL', paid: false, devido: copy.total });
    expect(await installment(3)).toMatchObject({ status: 'ABERTA' });
    // The demo bank pays what is still owed: the installment is paid with its fine and interest.
    expect(await payCharge(db, { code: copy.linhaDigitavel, externalId: 'new', origem: 'BANCO_DEMO' }, day('2027-02-21'))).toMatchObject({
      valor: copy.total - valor,
      situacao: 'QUITACAO',
    });
    const payment = await db
      .selectFrom('payments')
      .select(['valor', 'charge_id'])
      .where('external_id', '=', 'new')
      .executeTakeFirstOrThrow();
    expect(payment).toEqual({ valor: copy.total, charge_id: copy.id });
    await expect(secondCopy(db, partnerScope, 'v2', nrApolice, 3, '2027-02-25', partnerId, late)).rejects.toMatchObject({
      kind: 'conflict',
    });
  });
});

describe('a policy paid by card', () => {
  it('has no boleto nor Pix to issue', async () => {
    const card = await sellResidential(db, {
      respostas: { tipoImovel: 'apartamento', uso: 'habitual', construcao: 'alvenaria', valorImovel: 300_000_00, alarme: false },
      plan: 'essencial',
      contratacao: { formaPagamento: 'cartao', parcelas: 3, diaVencimento: 5 },
      at: ISSUED,
    });
    await expect(currentCharge(db, partnerScope, 'v2', card.nrApolice!, 1)).rejects.toMatchObject({
      kind: 'conflict',
      message: expect.stringContaining('cartão'),
    });
  });
});
