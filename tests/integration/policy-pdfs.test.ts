import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { hostileText } from '../fixtures/hostile-text';
import { pdfText } from '../fixtures/pdf';
import { sellResidential, viewerByEmail } from '../fixtures/selling';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import { currentCharge, payableCharges, payCharge, secondCopy } from '../../src/server/services/after-sale/charges';
import { findPolicy } from '../../src/server/services/after-sale/policies';
import { isPayableOn } from '../../src/lib/charges';
import { brasiliaDay } from '../../src/lib/format';
import { scopeFor } from '../../src/server/services/identity/scope';
import { policyPdfOutcome as policyPdfResponse } from '../../src/features/policies/policy-pdf.server';
import { formatDigitableLine } from '../../src/lib/boleto';
import { PRODUCT_REGISTRATIONS } from '../../src/lib/insurer';
import { productFor } from '../../src/lib/products/catalog';
import { cancellationContext, confirmCancellation, saveCoverages, saveReason } from '../../src/server/services/after-sale/cancellation';
import { endorsementHistory } from '../../src/server/services/after-sale/endorsements';
import { quoteDocument } from '../../src/server/services/selling/quote-document';
import { findQuote } from '../../src/server/services/selling/quotes';
import { sellerFromV2 } from '../../src/server/services/selling/sellers';
import { renderQuotePdf } from '../../src/server/pdf/quote-pdf';
import { HOUSE } from '../fixtures/selling';

/**
 * Issue 13: the policy and boleto PDF routes (features/policies/policy-pdf.server.ts) through the real
 * selling, acceptance and charging services: the seller gets the documents; whoever may not see or
 * pay them — and whatever is not there to pay — gets the same 404.
 */
const ISSUED = new Date('2026-11-23T13:00:00Z');
const day = (iso: string) => new Date(`${iso}T15:00:00Z`);
const flat = (text: string) => text.replace(/\s+/g, ' ');
let db: DB;
let close: () => Promise<void>;
let nrApolice: string;
let cardPolicy: string;

beforeAll(async () => {
  ({ db, close } = await freshDatabase());
  nrApolice = (await sellResidential(db, { at: ISSUED })).nrApolice!;
  cardPolicy = (await sellResidential(db, { at: ISSUED, contratacao: { formaPagamento: 'cartao', parcelas: 1, diaVencimento: 10 } }))
    .nrApolice!;
});
afterAll(() => close());

const viewer = (email: string) => viewerByEmail(db, email);
const get = async (email: string, type: string, nr: string, parcela: string | null = null, at = ISSUED) =>
  policyPdfResponse(db, await viewer(email), { type, nrApolice: nr, parcela }, at, '127.0.0.1');
/** A PDF the route must answer (not the 404 nor the 410 page). */
async function getPdf(...args: Parameters<typeof get>): Promise<Response> {
  const response = await get(...args);
  if (!(response instanceof Response)) throw new Error(`no PDF: ${JSON.stringify(response)}`);
  return response;
}
const SELLER = 'parceiro@parceiro.demo';

describe('the policy PDF', () => {
  it('is the seller’s, inline, uncached, with every item SUSEP asks of a policy', async () => {
    const response = await getPdf(SELLER, 'apolice', nrApolice);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toMatch(new RegExp(`^inline; filename="apolice-${nrApolice}\\.pdf";`));
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const text = flat(await pdfText(new Uint8Array(await response.arrayBuffer())));
    expect(text).toContain(`Apólice de Seguro — Residencial`);
    expect(text).toContain(`Nº da apólice ${nrApolice}`);
    expect(text).toContain('Código SUSEP');
    expect(text).toContain(DEMO_INSURED.residencial.nome);
    expect(text).toContain(DEMO_INSURED.residencial.cpf); // whole: it is the insured's own contract
    expect(text).toContain('Ramo 0114 — Compreensivo residencial');
    expect(text).toMatch(/Das 24h de \d{2}\/\d{2}\/2026 às 24h de \d{2}\/\d{2}\/2027/);
    expect(text).toContain('Importância segurada');
    expect(text).toMatch(/IOF \(7,38 %\) R\$ [\d.]+,\d{2}/);
    expect(text).toMatch(/1\/4 10\/12\/2026 R\$ [\d.]+,\d{2} Em aberto/);
    expect(text).toContain('Resolução CNSP nº 382/2020');
    expect(text).toContain('0800 021 8484');
    // Circular SUSEP 642/2021: the product's process, the broker's registration (the company's record), the Condições Gerais
    expect(text).toContain(`Processo SUSEP ${PRODUCT_REGISTRATIONS.RES!.process}`);
    expect(text).toContain('Registro SUSEP do corretor 202031234');
    expect(text).toContain(`registradas na SUSEP sob o processo nº ${PRODUCT_REGISTRATIONS.RES!.process}`);
    expect(text).toContain(PRODUCT_REGISTRATIONS.RES!.conditionsUrl);
    // The insured risk, as it was sold
    expect(text).toContain('Dados do risco');
    expect(text).toContain('Tipo de construção Alvenaria');
  });

  it('of a life policy names its beneficiaries', async () => {
    const life = await db
      .selectFrom('policies')
      .select('nr_apolice')
      .where('simulator_code', '=', 'VEU')
      .where('generation', '=', 'v2')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const text = flat(await pdfText(new Uint8Array(await (await getPdf(SELLER, 'apolice', life.nr_apolice)).arrayBuffer())));
    expect(text).toContain(`Processo SUSEP ${PRODUCT_REGISTRATIONS.VEU!.process}`);
    expect(text).toMatch(/Beneficiários Nome Parentesco Participação .+ 100 %/);
  });

  it('is a 404 for another company’s user, the other generation, an unknown or malformed number and an unknown type', async () => {
    expect(await get('substabelecido@parceiro.demo', 'apolice', nrApolice)).toBeUndefined();
    expect(await get('vendedor@legado.demo', 'apolice', nrApolice)).toBeUndefined();
    expect(await get(SELLER, 'apolice', '011420269999999')).toBeUndefined();
    expect(await get(SELLER, 'apolice', `${nrApolice}'`)).toBeUndefined();
    expect(await get(SELLER, 'cotacao', nrApolice)).toBeUndefined();
    expect(await policyPdfResponse(db, undefined, { type: 'apolice', nrApolice, parcela: null }, ISSUED, '127.0.0.1')).toBeUndefined();
  });

  it('is the partner admin’s and the insurer admin’s too', async () => {
    expect((await getPdf('parceiro.admin@parceiro.demo', 'apolice', nrApolice)).status).toBe(200);
    expect((await getPdf('admin@seguradora.demo', 'apolice', nrApolice)).status).toBe(200);
  });
});

describe('the boleto PDF', () => {
  it('is an open installment’s active charge, with its formatted linha digitável', async () => {
    const response = await getPdf(SELLER, 'boleto', nrApolice, '2');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(new RegExp(`^inline; filename="boleto-${nrApolice}-parcela-2\\.pdf";`));
    const scope = await scopeFor(db, await viewer(SELLER), 'BOLETOS');
    const charge = await currentCharge(db, scope, 'v2', nrApolice, 2);
    const text = flat(await pdfText(new Uint8Array(await response.arrayBuffer())));
    expect(text).toContain(formatDigitableLine(charge.linhaDigitavel));
    expect(text).toContain(`Parcela 2/4 da apólice nº ${nrApolice}`);
    expect(text).toContain(`${DEMO_INSURED.residencial.nome} — CPF/CNPJ ${DEMO_INSURED.residencial.cpf}`);
  });

  it('is a 404 without a parcela, for one that does not exist, outside the BOLETOS scope and for a card policy', async () => {
    expect(await get(SELLER, 'boleto', nrApolice)).toBeUndefined();
    expect(await get(SELLER, 'boleto', nrApolice, '9')).toBeUndefined();
    expect(await get(SELLER, 'boleto', nrApolice, 'um')).toBeUndefined();
    expect(await get('substabelecido@parceiro.demo', 'boleto', nrApolice, '1')).toBeUndefined();
    expect(await get(SELLER, 'boleto', cardPolicy, '1')).toBeUndefined();
    expect((await getPdf(SELLER, 'apolice', cardPolicy)).status).toBe(200);
  });

  it('once the installment is paid, says when and with what, and links the policy — to whoever may charge it only', async () => {
    const scope = await scopeFor(db, await viewer(SELLER), 'BOLETOS');
    const charge = await currentCharge(db, scope, 'v2', nrApolice, 1);
    await payCharge(db, { code: charge.linhaDigitavel, externalId: 'pdf-1', origem: 'BANCO_DEMO' }, day('2026-12-05'));
    // Issue 27 item 12: this was the bare 404 page.
    expect(await get(SELLER, 'boleto', nrApolice, '1')).toEqual({
      title: 'Parcela paga',
      heading: 'Parcela paga em 05/12/2026',
      detail: expect.stringContaining(`A 1ª parcela da apólice ${nrApolice} já foi paga`),
      link: { href: `/v2/apolices/${nrApolice}`, label: `Ver a apólice nº ${nrApolice}` },
    });
    expect(await get('substabelecido@parceiro.demo', 'boleto', nrApolice, '1')).toBeUndefined();
    const policy = flat(await pdfText(new Uint8Array(await (await getPdf(SELLER, 'apolice', nrApolice)).arrayBuffer())));
    expect(policy).toMatch(/1\/4 10\/12\/2026 R\$ [\d.]+,\d{2} Paga em 05\/12\/2026/);
  });

  it('an overdue installment says its boleto expired until its 2ª via, which then shows the fine and interest', async () => {
    const late = day('2027-01-15'); // installment 2 fell due on 10/01/2027
    expect(await get(SELLER, 'boleto', nrApolice, '2', late)).toMatchObject({
      heading: 'Boleto vencido',
      detail: expect.stringContaining('2ª via'),
    });
    const scope = await scopeFor(db, await viewer(SELLER), 'BOLETOS');
    const { idUsuario } = (await viewer(SELLER)).user;
    const copy = await secondCopy(db, scope, 'v2', nrApolice, 2, '2027-01-20', idUsuario, late);
    const text = flat(await pdfText(new Uint8Array(await (await getPdf(SELLER, 'boleto', nrApolice, '2', late)).arrayBuffer())));
    expect(text).toContain(formatDigitableLine(copy.linhaDigitavel));
    expect(text).toContain('(+) Mora / Multa');
    expect(text).toContain('2ª via: inclui multa de');
  });
});

describe('a cancelled installment', () => {
  it('says so, with the policy’s link', async () => {
    const cancelled = (await sellResidential(db, { at: ISSUED })).nrApolice!;
    await db
      .updateTable('installments')
      .set({ status: 'CANCELADA' })
      .where('policy_id', '=', db.selectFrom('policies').select('id').where('nr_apolice', '=', cancelled))
      .execute();
    expect(await get(SELLER, 'boleto', cancelled, '3')).toMatchObject({
      heading: 'Parcela cancelada',
      detail: `A 3ª parcela da apólice ${cancelled} foi cancelada: não há boleto a pagar.`,
    });
  });
});

describe('whoever sees a policy’s installments gets their codes and boleto PDFs, both generations (issue 27 item 5)', () => {
  // Every demo account that signs in, each against every boleto or Pix policy of its generation
  // (the seed's after-sale data and this file's sales): vendedor@legado.demo saw his own policy's
  // open installments, yet its codes and PDF were the 404 page.
  const EMAILS = [
    'vendedor@legado.demo',
    'consultor@legado.demo',
    'gestor@legado.demo',
    'admin@legado.demo',
    'admin@seguradora.demo',
    'parceiro.admin@parceiro.demo',
    'parceiro@parceiro.demo',
    'igor.pereira@parceiro.demo',
    'substabelecido@parceiro.demo',
  ];
  it.each(EMAILS)('%s', async (email) => {
    const who = await viewer(email);
    const now = new Date();
    const today = brasiliaDay(now);
    const policies = await db
      .selectFrom('policies')
      .select('nr_apolice')
      .where('generation', '=', who.generation)
      .where('forma_pagamento', 'in', ['boleto', 'pix'])
      .execute();
    const [installmentsScope, codesScope] = await Promise.all([scopeFor(db, who, 'APOLICES'), scopeFor(db, who, 'BOLETOS')]);
    let seen = 0;
    for (const { nr_apolice: nr } of policies) {
      const policy = await findPolicy(db, installmentsScope, who.generation, nr, today);
      const codes = await payableCharges(db, codesScope, who.generation, nr);
      expect(codes !== undefined, `${email}, ${nr}: sees the installments ⇔ gets their codes`).toBe(policy !== undefined);
      if (!policy || !codes) continue;
      seen += 1;
      for (const [numero, charge] of Object.entries(codes)) {
        if (!isPayableOn(charge, today)) continue;
        const pdf = await policyPdfResponse(db, who, { type: 'boleto', nrApolice: nr, parcela: numero }, now, '127.0.0.1');
        expect(pdf instanceof Response ? pdf.status : pdf, `${email}, ${nr}, parcela ${numero}`).toBe(200);
      }
    }
    // The accounts that sell see their own policies here; the sub-delegated one sees none.
    if (['vendedor@legado.demo', 'parceiro@parceiro.demo', 'admin@seguradora.demo', 'admin@legado.demo'].includes(email))
      expect(seen).toBeGreaterThan(0);
  });
});

describe('under random input', () => {
  // These are pages, not API endpoints (tests/fixtures/fuzz-api.ts walks the API's table): the same property here.
  it('never throws, and answers a PDF only for the seller’s policy or a payable installment of it', async () => {
    const viewers = await Promise.all([SELLER, 'substabelecido@parceiro.demo', 'vendedor@legado.demo'].map(viewer));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...viewers),
        fc.oneof(fc.constantFrom('apolice', 'boleto', 'cotacao'), hostileText(12)),
        fc.oneof(fc.constant(nrApolice), fc.constant(cardPolicy), fc.stringMatching(/^\d{1,22}$/), hostileText(24)),
        fc.option(fc.oneof(fc.constantFrom('1', '2', '3', '4', '0', '01', '-1', '1e3'), hostileText(8)), { nil: null }),
        async (who, type, nr, parcela) => {
          const response = await policyPdfResponse(db, who, { type, nrApolice: nr, parcela }, ISSUED, '127.0.0.1');
          if (!response) return;
          expect(who.user).toMatchObject({ idUsuario: viewers[0]!.user.idUsuario });
          expect([nrApolice, cardPolicy]).toContain(nr);
          // Only a boleto of the seller's own policy says why it is gone.
          if (response instanceof Response) expect(response.headers.get('content-type')).toBe('application/pdf');
          else expect(type).toBe('boleto');
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);
});

describe('the proposal PDF', () => {
  it('says when the insurer received it and its acceptance clock, with the insurer, the product’s process and the broker', async () => {
    const { user } = await viewer(SELLER);
    const seller = await sellerFromV2(db, user as Parameters<typeof sellerFromV2>[1]);
    const referred = await sellResidential(db, { at: ISSUED, respostas: { ...HOUSE, construcao: 'mista' } });
    const quote = (await findQuote(db, seller, referred.nrCotacao, day('2026-11-26')))!;
    const text = flat(await pdfText(await renderQuotePdf(quoteDocument(quote, productFor('RES')!, 'proposta', day('2026-11-26')))));
    expect(text).toContain('Recebida pela seguradora em 23/11/2026 10:00');
    expect(text).toContain('Aceite em até 22 dias (até 18/12/2026); sem resposta da seguradora até lá, a proposta é aceita.');
    expect(text).toContain('Código SUSEP 09999');
    expect(text).toContain('Ramo 0114 — Compreensivo residencial');
    expect(text).toContain(`Processo SUSEP ${PRODUCT_REGISTRATIONS.RES!.process}`);
    expect(text).toContain('Registro SUSEP do corretor 202031234');
    expect(text).toContain(PRODUCT_REGISTRATIONS.RES!.conditionsUrl);
  });
});

describe('the cancellation PDF and the endorsements list', () => {
  it('say the reason in words, with what the requester added — never its code', async () => {
    const sold = (await sellResidential(db, { at: ISSUED })).nrApolice!;
    const policy = await db
      .selectFrom('policies')
      .select(['id', 'id_contratacao'])
      .where('nr_apolice', '=', sold)
      .executeTakeFirstOrThrow();
    // As the seed's cancellations go (seed-history.ts), with a reason and what the insured added.
    const at = day('2026-11-25');
    const actor = {
      userId: (await db.selectFrom('users').select('id').where('email', '=', SELLER).executeTakeFirstOrThrow()).id,
      insurerStaff: false,
    };
    const context = () => cancellationContext(db, { kind: 'all' }, 'v2', policy.id_contratacao, actor, '2026-11-25');
    const detail = 'Seguro incluído no financiamento do imóvel';
    await saveReason(
      db,
      await context(),
      { solicitante: 'SEGURADO', motivo: 'OUTRO_SEGURO', detalhe: detail, efetivaEm: '2026-11-25' },
      at,
    );
    await saveCoverages(db, await context(), { escopo: 'TOTAL' }, at);
    const { draft } = await context();
    const { nrEndosso } = await confirmCancellation(db, { kind: 'all' }, 'v2', policy.id_contratacao, actor, { chave: draft!.chave }, at);

    const response = (await policyPdfResponse(
      db,
      await viewer(SELLER),
      { type: 'endosso', nrApolice: sold, parcela: null, endosso: nrEndosso! },
      at,
      '127.0.0.1',
    )) as Response;
    const text = flat(await pdfText(new Uint8Array(await response.arrayBuffer())));
    expect(text).toContain(`Motivo Contratou outro seguro — ${detail}`);
    expect(text).not.toContain('OUTRO_SEGURO');

    const [listed] = await endorsementHistory(db, policy.id);
    expect(listed).toMatchObject({ nrEndosso, motivo: `Contratou outro seguro — ${detail}` });
  });
});
