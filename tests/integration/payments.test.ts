import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { sellResidential } from '../fixtures/selling';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import { findUserByEmail, loadV1User, loadV2User } from '../../src/server/services/identity/principals';
import { currentCharge, payCharge, secondCopy } from '../../src/server/services/after-sale/charges';
import { listInstallments, paymentsCsv, paymentsReport } from '../../src/server/services/after-sale/payments';
import { scopeFor } from '../../src/server/services/identity/scope';
import { boletoOffer, csvAmount } from '../../src/lib/payments';
import type { Scope } from '../../src/lib/scope';
import type { SessionViewer } from '../../src/lib/session';

/**
 * Issue 13, the payment pages' reads against the database: a residential policy sold and accepted
 * through the real services, an installment paid on the bank, another left overdue and given a 2ª
 * via; who sees them (BOLETOS scope), the report's totals and its CSV.
 */
const ISSUED = new Date('2026-11-23T13:00:00Z');
const at = (iso: string) => new Date(`${iso}T15:00:00Z`);
const DECEMBER = { de: '2026-12-01', ate: '2026-12-31' };
let db: DB;
let close: () => Promise<void>;
let nrApolice: string;
let partner: Scope;
let partnerId: number;
let paidAmount: number;

async function scopeOf(email: string): Promise<{ scope: Scope; generation: 'v1' | 'v2' }> {
  const row = (await findUserByEmail(db, email))!;
  const viewer: SessionViewer =
    row.generation === 'v1'
      ? { generation: 'v1', user: await loadV1User(db, row) }
      : { generation: 'v2', user: await loadV2User(db, row, { fullyAuthenticated: true }) };
  return { scope: await scopeFor(db, viewer, 'BOLETOS'), generation: viewer.generation };
}

async function csvText(scope: Scope, generation: 'v1' | 'v2', period: { de: string; ate: string }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of paymentsCsv(db, scope, generation, period)) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  // Without the demo's policies and payments, whose days follow the real date: this file counts a period's payments.
  ({ db, close } = await freshDatabase({ afterSaleDemo: false }));
  partnerId = (await findUserByEmail(db, 'parceiro@parceiro.demo'))!.id;
  // Boleto in 4, due on the 10th: 10/12/2026, 10/01, 10/02 and 10/03/2027.
  nrApolice = (await sellResidential(db, { at: ISSUED })).nrApolice!;
  partner = (await scopeOf('parceiro@parceiro.demo')).scope;
  const first = await currentCharge(db, partner, 'v2', nrApolice, 1);
  paidAmount = (await payCharge(db, { code: first.linhaDigitavel, externalId: 'banco-1', origem: 'BANCO_DEMO' }, at('2026-12-05'))).valor;
});
afterAll(() => close());

describe('the installments of a search (/consulta-pagamento, /v2/boleto)', () => {
  it('lists each installment with its state, n/N, and the payment of the paid one', async () => {
    const { content, total: totalElements } = await listInstallments(db, partner, 'v2', { nrApolice }, { page: 1 }, '2027-01-15');
    expect(totalElements).toBe(4);
    expect(content.map((i) => [i.numero, i.parcelas, i.status])).toEqual([
      [1, 4, 'PAGA'],
      [2, 4, 'VENCIDA'],
      [3, 4, 'ABERTA'],
      [4, 4, 'ABERTA'],
    ]);
    expect(content[0]).toMatchObject({ valorPago: paidAmount, meio: 'BOLETO', pagoEm: at('2026-12-05').toISOString() });
    expect(content[1]).toMatchObject({ vencimento: '2027-01-10', pagoEm: null, valorPago: null });
    expect(content[0]!.documentoSegurado).toMatch(/\*/);
  });

  it('finds by part of the name (wildcards literal) and by the whole CPF, and the 2ª via page keeps only the unpaid', async () => {
    const cpf = DEMO_INSURED.residencial.cpf!.replace(/\D/g, '');
    const byName = await listInstallments(
      db,
      partner,
      'v2',
      { segurado: DEMO_INSURED.residencial.nome.slice(0, 6) },
      { page: 1 },
      '2027-01-15',
    );
    expect(byName.total).toBeGreaterThanOrEqual(4);
    expect((await listInstallments(db, partner, 'v2', { segurado: cpf }, { page: 1 }, '2027-01-15')).total).toBeGreaterThanOrEqual(4);
    expect((await listInstallments(db, partner, 'v2', { segurado: '%%%' }, { page: 1 }, '2027-01-15')).total).toBe(0);
    const open = await listInstallments(db, partner, 'v2', { nrApolice }, { page: 1 }, '2027-01-15', { openOnly: true });
    expect(open.content.map((i) => i.numero)).toEqual([2, 3, 4]);
  });

  it('an overdue installment is offered a 2ª via; once issued, its codes until the new due day', async () => {
    const today = '2027-01-15';
    const before = (await listInstallments(db, partner, 'v2', { nrApolice }, { page: 1 }, today, { openOnly: true })).content;
    expect(before.map((i) => boletoOffer(i, today))).toEqual(['segunda-via', 'pagina-da-apolice', 'pagina-da-apolice']);
    const copy = await secondCopy(db, partner, 'v2', nrApolice, 2, '2027-01-20', partnerId, at(today));
    const [overdue] = (await listInstallments(db, partner, 'v2', { nrApolice }, { page: 1 }, today, { openOnly: true })).content;
    expect(overdue!.charge).toMatchObject({ vencimento: '2027-01-20', total: copy.total, linhaDigitavel: copy.linhaDigitavel });
    expect(boletoOffer(overdue!, today)).toBe('segunda-via-emitida');
    // Past the 2ª via's day, it asks for another one.
    expect(boletoOffer(overdue!, '2027-01-21')).toBe('segunda-via');
  });

  it('another company, the other generation and a scope with none see nothing', async () => {
    const subagent = await scopeOf('substabelecido@parceiro.demo');
    expect((await listInstallments(db, subagent.scope, 'v2', { nrApolice }, { page: 1 }, '2027-01-15')).total).toBe(0);
    const legacyAdmin = await scopeOf('admin@legado.demo');
    expect(legacyAdmin.scope).toEqual({ kind: 'all' });
    expect((await listInstallments(db, legacyAdmin.scope, 'v1', { nrApolice }, { page: 1 }, '2027-01-15')).total).toBe(0);
    // A legacy seller without CLIENTES_CONSULTA_PAGAMENTO sees the installments of the policies he
    // sees, his own (issue 27 item 5) — never another's.
    const seller = await scopeOf('vendedor@legado.demo');
    expect(seller.scope).toEqual({ kind: 'own', userId: expect.any(Number) });
    expect((await listInstallments(db, seller.scope, 'v1', { nrApolice }, { page: 1 }, '2027-01-15')).total).toBe(0);
  });
});

describe('the payments report (/relatorio-pagamento)', () => {
  it('totals per product and lists the payments of the period; outside it, nothing', async () => {
    const { totals, payments } = await paymentsReport(db, partner, 'v2', DECEMBER, { page: 1 });
    expect(totals.products).toEqual([{ productName: 'Residencial', count: 1, amount: paidAmount }]);
    expect(totals.total).toEqual({ count: 1, amount: paidAmount });
    expect(payments.content).toEqual([
      expect.objectContaining({
        nrApolice,
        numero: 1,
        parcelas: 4,
        valor: paidAmount,
        meio: 'BOLETO',
        nomeSegurado: DEMO_INSURED.residencial.nome,
      }),
    ]);
    const november = await paymentsReport(db, partner, 'v2', { de: '2026-11-01', ate: '2026-11-30' }, { page: 1 });
    expect(november.totals.total).toEqual({ count: 0, amount: 0 });
    expect(november.payments).toMatchObject({ content: [], total: 0, more: false });
  });

  it('counts a payment at 23:30 in Brasília on the last day of the period (02:30 UTC the next day)', async () => {
    const lateNight = new Date('2027-01-01T02:30:00Z'); // 31/12/2026 23:30 in Brasília
    const charge = await currentCharge(db, partner, 'v2', nrApolice, 3);
    await payCharge(db, { code: charge.linhaDigitavel, externalId: 'banco-3', origem: 'WEBHOOK' }, lateNight);
    expect((await paymentsReport(db, partner, 'v2', DECEMBER, { page: 1 })).totals.total.count).toBe(2);
    expect((await paymentsReport(db, partner, 'v2', { de: '2027-01-01', ate: '2027-01-31' }, { page: 1 })).totals.total.count).toBe(0);
  });

  it('is empty for another company’s user', async () => {
    const subagent = await scopeOf('substabelecido@parceiro.demo');
    expect((await paymentsReport(db, subagent.scope, 'v2', DECEMBER, { page: 1 })).totals.total).toEqual({ count: 0, amount: 0 });
    const csv = (await csvText(subagent.scope, 'v2', DECEMBER)).toString('utf8');
    expect(
      csv
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n'),
    ).toHaveLength(1); // the header only
  });
});

describe('the CSV export', () => {
  it('has a BOM, ";" between fields, pt-BR headers, amounts as 1234,56, and a formula typed as a name stays text', async () => {
    await db
      .updateTable('policies')
      .set({ nome_segurado: '=HYPERLINK("http://mal.exemplo";"clique")' })
      .where('nr_apolice', '=', nrApolice)
      .execute();
    const bytes = await csvText(partner, 'v2', DECEMBER);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe('Data do pagamento;Apólice;Produto;Segurado;CPF/CNPJ;Parcela;Valor pago (R$);Meio');
    expect(lines).toHaveLength(3);
    const cells = lines[1]!.match(/("([^"]|"")*"|[^;]*)(;|$)/g)!.map((c) => c.replace(/;$/, ''));
    expect(cells[0]).toBe('05/12/2026');
    // The policy number keeps its leading zero in a spreadsheet: quoted, a tab after the digits (decision 058).
    expect(nrApolice).toMatch(/^0\d+$/);
    expect(cells[1]).toBe(`"${nrApolice}\t"`);
    expect(cells[3]).toBe(`"'=HYPERLINK(""http://mal.exemplo"";""clique"")"`);
    expect(cells[5]).toBe('1 de 4');
    expect(cells[6]).toBe(csvAmount(paidAmount));
    expect(cells[6]).toMatch(/^\d+,\d{2}$/);
    expect(cells[7]).toBe('Boleto');
  });
});
