import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createElement } from 'react';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { cancelWholePolicy, HOUSE, sellResidential, viewerByEmail } from '../fixtures/selling';
import { currentCharge, payCharge } from '../../src/server/services/after-sale/charges';
import { scopeFor } from '../../src/server/services/identity/scope';
import { ledgerCsv, ledgerOfPolicy } from '../../src/server/services/after-sale/ledger';
import { listRefundQueue, payRefund, type RefundActor } from '../../src/server/services/after-sale/refunds';
import { receiptsToReview } from '../../src/server/services/after-sale/payments';
import { useManualClock } from '../../src/server/clock';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import { findUserByEmail, loadV2User } from '../../src/server/services/identity/principals';
import { sellerFromV2 } from '../../src/server/services/selling/sellers';
import { sellableOffers } from '../../src/server/services/network/offers';
import { createQuote, findQuote, saveStep, sendProposal } from '../../src/server/services/selling/quotes';
import { quoteDocument } from '../../src/server/services/selling/quote-document';
import { productFor } from '../../src/lib/products/catalog';
import QuoteSummaryView from '../../src/features/simulators/QuoteSummaryView';
import type { Scope } from '../../src/lib/scope';
import type { QuoteView } from '../../src/lib/quotes';

/**
 * Issue 42, items 5–7, through the real services on PGlite and PostgreSQL: what the insured owes and
 * what is owed to the insured are never netted (5); money received above what was owed is a refund in
 * the staff's queue, paid once, and a cancellation gives back the partial payments of what it cancels
 * (6); the day the resumo promises is the day the policy charges, counted in Brasília (7).
 */
let db: DB;
let close: () => Promise<void>;
let boletos: Scope;
let admin: Scope;
let actor: RefundActor;

const at = (iso: string) => new Date(iso);
const installmentsOf = (nrApolice: string) =>
  db
    .selectFrom('installments as i')
    .innerJoin('policies as a', 'a.id', 'i.policy_id')
    .select(['i.id', 'i.numero', 'i.valor', 'i.vencimento', 'i.status', 'a.id as policy_id'])
    .where('a.nr_apolice', '=', nrApolice)
    .orderBy('i.numero')
    .execute();

beforeAll(async () => {
  ({ db, close } = await freshDatabase({ afterSaleDemo: false }));
  boletos = await scopeFor(db, await viewerByEmail(db, 'parceiro@parceiro.demo'), 'BOLETOS');
  const staff = await viewerByEmail(db, 'admin@seguradora.demo');
  admin = await scopeFor(db, staff, 'APOLICES');
  actor = { userId: staff.user.idUsuario, email: staff.user.email, generation: 'v2', ip: '203.0.113.7' };
});
afterAll(() => close());

describe('item 5: the ledger shows what each side owes, apart', () => {
  it('R$ 62,75 paid above the 1st installment is owed back while the 2nd is overdue: neither is netted against the other', async () => {
    const { nrApolice } = await sellResidential(db, { at: at('2026-03-02T13:00:00Z') });
    const first = await currentCharge(db, boletos, 'v2', nrApolice!, 1);
    await payCharge(
      db,
      { code: first.linhaDigitavel, externalId: 'i5-1', origem: 'WEBHOOK', valor: first.total + 62_75 },
      at('2026-03-05T15:00:00Z'),
    );
    const [, second, third, fourth] = await installmentsOf(nrApolice!);
    const today = '2026-04-20'; // the 2nd fell due on 10/04, the 3rd and 4th are to come
    const ledger = await ledgerOfPolicy(db, second!.policy_id, today);
    expect(ledger.totals.owedByInsured).toEqual({ due: second!.valor, later: third!.valor + fourth!.valor });
    expect(ledger.totals.owedToInsured).toBe(62_75);
    // Every line carries both running totals; none is a difference of the two.
    const overdue = ledger.lines.filter((l) => !l.future).at(-1)!;
    expect(overdue).toMatchObject({ kind: 'PARCELA', owedByInsured: second!.valor, owedToInsured: 62_75 });

    const csv = (await ledgerCsv(db, admin, 'v2', nrApolice!, today))!;
    const [header, ...rows] = csv
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(header).toBe('Data;Tipo;Descrição;Valor (R$);Segurado deve (R$);A devolver ao segurado (R$);A vencer');
    const brl = (cents: number) => `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`;
    const row = rows.find((r) => r.startsWith('10/04/2026'))!.split(';');
    expect(row.slice(-3)).toEqual([brl(second!.valor), '62,75', 'não']);
  });
});

describe('item 6: money received above what was owed is refunded through the queue', () => {
  let nrApolice: string;
  let policyId: number;

  beforeAll(async () => {
    ({ nrApolice } = (await sellResidential(db, { at: at('2026-05-04T13:00:00Z') })) as { nrApolice: string });
    policyId = (await installmentsOf(nrApolice))[0]!.policy_id;
  });

  const refundsOf = () =>
    db.selectFrom('refunds').selectAll().where('policy_id', '=', policyId).where('receipt_id', 'is not', null).orderBy('id').execute();

  it('an excess becomes a refund a pagar to the insured’s own CPF key, in the queue of its generation; the receipt is marked', async () => {
    const charge = await currentCharge(db, boletos, 'v2', nrApolice, 1);
    await payCharge(
      db,
      { code: charge.linhaDigitavel, externalId: 'i6-excess', origem: 'WEBHOOK', valor: charge.total + 10_00 },
      at('2026-05-08T12:00:00Z'),
    );
    const receipt = await db.selectFrom('receipts').selectAll().where('external_id', '=', 'i6-excess').executeTakeFirstOrThrow();
    const [refund] = await refundsOf();
    expect(refund).toMatchObject({ receipt_id: receipt.id, endorsement_id: null, valor: 10_00, status: 'DEVIDA', estorno_comissao: 0 });
    expect(refund!.destino).toEqual({ tipo: 'PIX', chave: { type: 'CPF', key: DEMO_INSURED.residencial.cpf.replace(/\D/g, '') } });
    expect(receipt.refund_id).toBe(refund!.id);

    const queue = await listRefundQueue(db, admin, 'v2', { status: 'DEVIDA', nrApolice }, { page: 1 });
    expect(queue.content).toHaveLength(1);
    expect(queue.content[0]).toMatchObject({ id: refund!.id, valor: 10_00, nrEndosso: null, receipt: { numero: 1 } });
    expect((await listRefundQueue(db, admin, 'v1', { status: 'DEVIDA', nrApolice }, { page: 1 })).content).toEqual([]);

    const review = (await receiptsToReview(db, { kind: 'all' }, 1))!;
    expect(review.receipts.content.find((r) => r.id === receipt.id)).toMatchObject({ refund: { id: refund!.id, status: 'DEVIDA' } });
  });

  it('one duplicate notified 20 times at once is one receipt and one refund; paid from two clicks at once, it is paid once', async () => {
    const charge = await db
      .selectFrom('charges as c')
      .innerJoin('installments as i', 'i.id', 'c.installment_id')
      .select(['c.linha_digitavel', 'c.total'])
      .where('i.policy_id', '=', policyId)
      .where('i.numero', '=', 1)
      .executeTakeFirstOrThrow();
    const notice = { code: charge.linha_digitavel, externalId: 'i6-dup', origem: 'WEBHOOK' as const, valor: charge.total };
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => payCharge(db, notice, at('2026-05-09T12:00:00Z'))));
    expect(outcomes.filter((o) => !o.repeated)).toHaveLength(1);
    expect(outcomes.every((o) => o.situacao === 'CREDITO' && o.credito === charge.total)).toBe(true);
    const refunds = await refundsOf();
    expect(refunds.map((r) => r.valor)).toEqual([10_00, charge.total]);

    const duplicate = refunds[1]!;
    const when = at('2026-05-12T14:00:00Z');
    const paid = await Promise.all([
      payRefund(db, admin, actor, duplicate.id, {}, { demoBank: true }, when),
      payRefund(db, admin, actor, duplicate.id, {}, { demoBank: true }, when),
    ]);
    expect(paid.map((p) => p.repeated).sort()).toEqual([false, true]);
    expect(await db.selectFrom('refund_events').select('acao').where('refund_id', '=', duplicate.id).execute()).toEqual([{ acao: 'PAGA' }]);
    const mails = await db.selectFrom('emails').select('text_body').where('template', '=', 'restituicao-paga-segurado').execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text_body).toContain('pago a mais');
    expect(mails[0]!.text_body).not.toContain('cancelamento');
    const logged = await db
      .selectFrom('access_events')
      .select('detalhe')
      .where('event', '=', 'RESTITUICAO_ALTERADA')
      .where('registro', '=', nrApolice)
      .execute();
    expect(logged).toHaveLength(1);

    // The ledger: received twice and owed back once paid — nothing is left owed to the insured for it.
    const ledger = await ledgerOfPolicy(db, policyId, '2026-05-12');
    expect(ledger.totals.owedToInsured).toBe(10_00);
    const review = (await receiptsToReview(db, { kind: 'all' }, 1, 'devolvidos'))!;
    expect(review.receipts.content.map((r) => r.externalId)).toContain('i6-dup');
  });

  it('the demo bank pays an installment already paid only when asked to pay it again', async () => {
    const charge = await db
      .selectFrom('charges as c')
      .innerJoin('installments as i', 'i.id', 'c.installment_id')
      .select(['c.linha_digitavel'])
      .where('i.policy_id', '=', policyId)
      .where('i.numero', '=', 1)
      .executeTakeFirstOrThrow();
    const demo = { code: charge.linha_digitavel, externalId: 'demo:i6-again', origem: 'BANCO_DEMO' as const };
    await expect(payCharge(db, demo, at('2026-05-13T12:00:00Z'))).rejects.toMatchObject({ kind: 'conflict' });
    const again = await payCharge(db, { ...demo, paidAgain: true }, at('2026-05-13T12:00:00Z'));
    expect(again).toMatchObject({ situacao: 'CREDITO', repeated: false });
    expect(again.credito).toBeGreaterThan(0);
    expect((await refundsOf()).at(-1)).toMatchObject({ valor: again.credito, status: 'DEVIDA' });
  });

  it('a cancellation gives back, with its refund, the partial payments of the installments it cancels, and marks them', async () => {
    const { nrApolice: other } = (await sellResidential(db, { at: at('2026-05-04T13:00:00Z') })) as { nrApolice: string };
    const first = await currentCharge(db, boletos, 'v2', other, 1);
    await payCharge(
      db,
      { code: first.linhaDigitavel, externalId: 'i6-c1', origem: 'WEBHOOK', valor: first.total },
      at('2026-05-08T12:00:00Z'),
    );
    const second = await currentCharge(db, boletos, 'v2', other, 2);
    await payCharge(db, { code: second.linhaDigitavel, externalId: 'i6-c2', origem: 'WEBHOOK', valor: 40_00 }, at('2026-05-20T12:00:00Z'));
    await cancelWholePolicy(db, 'parceiro@parceiro.demo', other, at('2026-06-03T15:00:00Z'));
    const refund = await db
      .selectFrom('refunds as r')
      .innerJoin('endorsements as e', 'e.id', 'r.endorsement_id')
      .innerJoin('policies as a', 'a.id', 'r.policy_id')
      .select(['r.id', 'r.valor', 'e.dados', 'a.id as policy_id'])
      .where('a.nr_apolice', '=', other)
      .executeTakeFirstOrThrow();
    const record = refund.dados as { refund: { total: number; partialReceipts: number; lines: { label: string; amount: number }[] } };
    expect(record.refund.partialReceipts).toBe(40_00);
    expect(record.refund.lines.at(-1)).toMatchObject({ label: 'Pagamentos parciais de parcelas canceladas', amount: 40_00 });
    expect(refund.valor).toBe(record.refund.total);
    const partial = await db.selectFrom('receipts').select(['refund_id']).where('external_id', '=', 'i6-c2').executeTakeFirstOrThrow();
    expect(partial.refund_id).toBe(refund.id);
    // No other refund for it, and the ledger owes the insured the refund once — the partial inside it.
    expect(await db.selectFrom('refunds').select('id').where('policy_id', '=', refund.policy_id).execute()).toHaveLength(1);
    const ledger = await ledgerOfPolicy(db, refund.policy_id, '2026-06-03');
    expect(ledger.totals.owedToInsured).toBe(refund.valor);
    expect(ledger.totals.owedByInsured).toEqual({ due: 0, later: 0 });
    const review = (await receiptsToReview(db, { kind: 'all' }, 1))!;
    expect(review.receipts.content.find((r) => r.externalId === 'i6-c2')).toMatchObject({ refund: { id: refund.id, status: 'DEVIDA' } });
  });
});

describe('item 7: the day the resumo promises is the day the policy charges, in Brasília', () => {
  const product = productFor('RES')!;

  /** A residential quote priced and contracted, not sent, as the v2 seller at `when`. */
  async function contracted(when: Date, contratacao: Record<string, unknown>) {
    const user = await loadV2User(db, (await findUserByEmail(db, 'parceiro@parceiro.demo'))!, { fullyAuthenticated: true });
    const seller = await sellerFromV2(db, user);
    const offer = (await sellableOffers(db, user, when)).find((o) => o.code === 'RES')!;
    const quote = await createQuote(db, seller, offer, { segurado: DEMO_INSURED.residencial, respostas: HOUSE }, when);
    await saveStep(db, seller, quote.nrCotacao, 'planos', { selecao: { plan: 'conforto', capitals: {} } }, when);
    await saveStep(db, seller, quote.nrCotacao, 'contratacao', { contratacao }, when);
    return { seller, nrCotacao: quote.nrCotacao };
  }

  const resumoText = (quote: QuoteView) =>
    renderToStaticMarkup(createElement(QuoteSummaryView, { quote, product, generation: 'v2' })).replace(/<[^>]+>/g, ' ');
  const br = (iso: string) => iso.split('-').reverse().join('/');

  for (const [name, instant, contratacao] of [
    ['a Pix at 23:39 of 06/12 in Brasília (02:39 of 07/12 in UTC)', '2026-12-06T23:39:00-03:00', { formaPagamento: 'pix', parcelas: 1 }],
    [
      'a boleto due on the 10th at 23:39 of 05/12 in Brasília',
      '2026-12-05T23:39:00-03:00',
      { formaPagamento: 'boleto', parcelas: 4, diaVencimento: 10 },
    ],
  ] as const)
    it(`${name}: the resumo, the PDF and the policy agree`, async () => {
      const when = new Date(instant);
      const clock = useManualClock(when.getTime());
      try {
        const { seller, nrCotacao } = await contracted(when, contratacao);
        const before = (await findQuote(db, seller, nrCotacao, when))!;
        const { quote: sent } = await sendProposal(db, seller, nrCotacao, { aceiteTermo: true }, when);
        const installments = await installmentsOf(sent.proposta!.nrApolice!);
        const first = br(installments[0]!.vencimento);
        for (const quote of [before, sent]) {
          const pdf = quoteDocument(quote, product, quote === sent ? 'proposta' : 'cotacao', when);
          expect(pdf.payment!.installments.map((i) => i.dueDate)).toEqual(installments.map((i) => br(i.vencimento)));
          expect(pdf.payment!.lines.find((l) => l.label === 'Vencimento')!.value).toContain(
            contratacao.formaPagamento === 'pix' ? first : 'Dia 10',
          );
          const text = resumoText(quote);
          expect(text).toContain(first);
          // The UTC day (07/12 and 06/12) is promised nowhere.
          expect(text).not.toContain(`(${br(when.toISOString().slice(0, 10))})`);
        }
        // Counted from Brasília's day until the policy is issued, then from its issue day.
        expect([before.vencimentosDesde, sent.vencimentosDesde]).toEqual([instant.slice(0, 10), instant.slice(0, 10)]);
      } finally {
        clock.restore();
      }
    });
});
