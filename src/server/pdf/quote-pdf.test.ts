import { describe, expect, it } from 'vitest';
import { pdfInfo, pdfPageTexts, pdfText } from '../../../tests/fixtures/pdf';
import { quotePdfFileName, renderQuotePdf, type QuoteDocument } from './quote-pdf';
import { toWinAnsi } from './writer';

/** Line breaks and column gaps of the extracted text become single spaces. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

// Net 1.119,71 + policy 30,00 + IOF 7,38 % (84,85) = 1.234,56, in 10 installments (the first takes the remainder).
const INSTALLMENT_VALUES = [12351, ...Array<number>(9).fill(12345)];

const residentialProposal: QuoteDocument = {
  kind: 'proposta',
  nrCotacao: '202600007',
  nrProposta: '202600012',
  status: 'Em análise',
  product: 'Residencial',
  offer: 'Residencial Essencial',
  branch: '0114 — Compreensivo residencial',
  registration: { process: '15414.900101/2024-73', conditionsUrl: 'www.seguradorademo.com.br/condicoes-gerais/residencial' },
  partner: {
    razaoSocial: 'Corretora Exemplo Ltda.',
    cnpj: '12.345.678/0001-95',
    susep: '202031234',
    commissionPercent: 20,
    commission: 22394,
  },
  seller: 'Ana Vendedora',
  insured: {
    name: 'José da Conceição Araújo',
    document: '123.***.***-09',
    email: 'jose@example.com',
    phone: '(11) 98765-4321',
    address: 'Rua das Acácias, 100, Pinheiros, São Paulo - SP, 05422-000',
  },
  answers: [
    { label: 'Tipo de imóvel', value: 'Casa' },
    { label: 'Valor do imóvel', value: 'R$ 500.000,00' },
    { label: 'Construção', value: 'Alvenaria' },
  ],
  pricing: {
    plan: 'Completo',
    coverages: [
      { name: 'Incêndio, raio e explosão', capital: 50_000_000, premium: 80_000, deductible: 'Não há' },
      { name: 'Danos elétricos', capital: 1_000_000, premium: 20_000, deductible: 'R$ 500,00' },
      {
        name: 'Responsabilidade civil familiar',
        capital: 2_000_000,
        premium: 11_971,
        deductible: '10 % dos prejuízos, mínimo R$ 1.000,00',
      },
    ],
    premium: { net: 111_971, policyCost: 3_000, iofRate: 0.0738, iof: 8_485, total: 123_456 },
  },
  payment: {
    lines: [
      { label: 'Forma de pagamento', value: 'Boleto bancário' },
      { label: 'Vencimento', value: 'Dia 10' },
    ],
    installments: INSTALLMENT_VALUES.map((value, index) => ({
      number: index + 1,
      dueDate: `10/${String(index + 2).padStart(2, '0')}/2026`,
      value,
    })),
    total: 123_456,
  },
  acceptance: {
    receivedAt: '15/01/2026 10:30',
    clock: 'Aceite em até 25 dias (até 09/02/2026); sem resposta da seguradora até lá, a proposta é aceita.',
  },
  createdAt: '15/01/2026',
  validUntil: '14/02/2026',
  issuedAt: '15/01/2026 10:30',
};

const lifeProposal: QuoteDocument = {
  ...residentialProposal,
  nrCotacao: '202600031',
  nrProposta: '202600044',
  product: 'Vida',
  offer: 'Vida Individual',
  status: 'Proposta em análise',
  answers: [
    { label: 'Data de nascimento', value: '03/05/1985' },
    { label: 'Profissão', value: 'Engenheira' },
  ],
  pricing: {
    plan: 'Vida Mais',
    coverages: [
      { name: 'Morte por qualquer causa', capital: 10_000_000, premium: 24_000, deductible: 'Não há' },
      { name: 'Invalidez permanente total ou parcial por acidente', capital: 10_000_000, premium: 6_000, deductible: 'Não há' },
    ],
    premium: { net: 30_000, policyCost: 0, iofRate: 0.0038, iof: 114, total: 30_114 },
  },
  payment: undefined,
  beneficiaries: [
    { name: 'Maria Conceição Souza', relationship: 'Cônjuge', percent: 60 },
    { name: 'João Pedro Souza', relationship: 'Filho', percent: 40 },
  ],
};

const residentialQuote: QuoteDocument = {
  ...residentialProposal,
  kind: 'cotacao',
  nrProposta: undefined,
  status: 'Em elaboração',
  payment: undefined,
  acceptance: undefined,
};

describe('renderQuotePdf', () => {
  it('writes a PDF whose text carries the residential proposal', async () => {
    const bytes = await renderQuotePdf(residentialProposal);
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');

    const rawText = await pdfText(bytes);
    expect(rawText).toContain('R$ 1.234,56'); // found as typed, without flattening the extracted text
    const text = flat(rawText);
    expect(text).toContain('Proposta de Seguro — Residencial');
    expect(text).toContain('202600012');
    expect(text).toContain('202600007');
    expect(text).toContain('José da Conceição Araújo');
    for (const coverage of residentialProposal.pricing!.coverages) expect(text).toContain(coverage.name);
    expect(text).toContain('Cobertura Capital segurado Prêmio Franquia');
    expect(text).toContain('Incêndio, raio e explosão R$ 500.000,00 R$ 800,00 Não há');
    expect(text).toContain('IOF (7,38 %) R$ 84,85');
    expect(text).toContain('Prêmio total R$ 1.234,56');
    expect(text).toContain('1/10 10/02/2026 R$ 123,51');
    expect(text).toContain('10/10 10/11/2026 R$ 123,45');
    expect(text).toContain('Total R$ 1.234,56');
    expect(text).toContain('Válida até 14/02/2026');
    expect(text).toContain('Em análise');
    expect(text).toContain(
      'Em cumprimento à Resolução CNSP nº 382/2020, informamos que o parceiro Corretora Exemplo Ltda. ' +
        '(CNPJ 12.345.678/0001-95) receberá remuneração de 20 % sobre o prêmio líquido, equivalente a R$ 223,94.',
    );
    expect(text).toContain('Documento sem valor de apólice. Sujeito à análise de aceitação da seguradora.');
    expect(text).not.toContain('Beneficiários');
  });

  it('holds what Circular SUSEP 642/2021 asks of a policy that a proposal can already say, and the acceptance clock', async () => {
    const text = flat(await pdfText(await renderQuotePdf(residentialProposal)));
    // Who insures, the branch and the product's SUSEP process, the broker's registration
    expect(text).toContain('Seguradora Demo S.A.');
    expect(text).toContain('Código SUSEP 09999');
    expect(text).toContain('Ramo 0114 — Compreensivo residencial');
    expect(text).toContain('Processo SUSEP 15414.900101/2024-73');
    expect(text).toContain('Registro SUSEP do corretor 202031234');
    // The Condições Gerais and where to read them
    expect(text).toContain(
      'Este seguro é regido pelas Condições Gerais do produto Residencial, registradas na SUSEP sob o processo nº 15414.900101/2024-73',
    );
    expect(text).toContain('www.seguradorademo.com.br/condicoes-gerais/residencial');
    // Where the consumer asks and complains
    expect(text).toContain('Ouvidoria: 0800 000 4321');
    expect(text).toContain('0800 021 8484');
    // When the insurer received it, and until when it has to decide (Lei 15.040/2024)
    expect(text).toContain('Recebida pela seguradora em 15/01/2026 10:30');
    expect(text).toContain('Aceite em até 25 dias (até 09/02/2026); sem resposta da seguradora até lá, a proposta é aceita.');
    // A quote was not received by anyone yet
    const quote = flat(await pdfText(await renderQuotePdf(residentialQuote)));
    expect(quote).toContain('Processo SUSEP 15414.900101/2024-73');
    expect(quote).not.toContain('Recebida pela seguradora');
  });

  it('lists every installment value of the payment', async () => {
    const text = flat(await pdfText(await renderQuotePdf(residentialProposal)));
    const installmentRows = text.match(/\d+\/10 \d{2}\/\d{2}\/2026 R\$ [\d.]+,\d{2}/g) ?? [];
    expect(installmentRows.map((row) => row.split(' R$ ')[1])).toEqual(['123,51', ...Array<string>(9).fill('123,45')]);
    expect(text).toContain('Forma de pagamento Boleto bancário');
  });

  it('names the account of a bank debit (as the resumo does)', async () => {
    const lines = [
      { label: 'Forma de pagamento', value: 'Débito em conta' },
      { label: 'Vencimento', value: 'Dia 5' },
      { label: 'Conta para débito', value: '341 — Itaú Unibanco · Ag. 0123 · C/C 123456', wide: true },
    ];
    const text = flat(await pdfText(await renderQuotePdf({ ...residentialProposal, payment: { ...residentialProposal.payment!, lines } })));
    expect(text).toContain('Conta para débito');
    expect(text).toContain('341 — Itaú Unibanco · Ag. 0123 · C/C 123456');
  });

  it('writes the beneficiaries and the life IOF of a life proposal, without a payment section', async () => {
    const text = flat(await pdfText(await renderQuotePdf(lifeProposal)));
    expect(text).toContain('Proposta de Seguro — Vida');
    expect(text).toContain('202600044');
    expect(text).toContain('Beneficiários');
    expect(text).toContain('Maria Conceição Souza Cônjuge 60 %');
    expect(text).toContain('João Pedro Souza Filho 40 %');
    expect(text).toContain('IOF (0,38 %) R$ 1,14');
    expect(text).toContain('Prêmio total R$ 301,14');
    expect(text).toContain('Proposta em análise');
    expect(text).not.toContain('Pagamento');
  });

  it('writes a quote without a proposal number and with the validity notice', async () => {
    const bytes = await renderQuotePdf(residentialQuote);
    const text = flat(await pdfText(bytes));
    expect(text).toContain('Cotação de Seguro — Residencial');
    expect(text).toContain('Nº da cotação 202600007');
    expect(text).not.toContain('Nº da proposta');
    expect(text).not.toContain('202600012');
    expect(text).toContain('Cotação válida até 14/02/2026; valores sujeitos a alteração após essa data.');
    expect(text).not.toContain('Documento sem valor de apólice');
    expect(quotePdfFileName(residentialQuote)).toBe('cotacao-202600007.pdf');
    expect(quotePdfFileName(residentialProposal)).toBe('proposta-202600012.pdf');
  });

  it('continues a long coverage table on the next pages, repeating its header and numbering every page', async () => {
    const coverages = Array.from({ length: 40 }, (_, index) => ({
      name: `Cobertura adicional ${index + 1}`,
      capital: 100_000 * (index + 1),
      premium: 1_000,
      deductible: 'Não há',
    }));
    const pages = await pdfPageTexts(
      await renderQuotePdf({ ...residentialProposal, pricing: { ...residentialProposal.pricing!, coverages } }),
    );
    expect(pages.length).toBeGreaterThanOrEqual(2);
    const second = flat(pages[1] ?? '');
    expect(second).toContain('Cobertura Capital segurado Prêmio Franquia');
    expect(second).toMatch(/Cobertura adicional \d+ R\$/);
    const all = flat(pages.join(' '));
    for (const coverage of coverages) expect(all).toContain(`${coverage.name} ${'R$ '}`);
    pages.forEach((page, index) => {
      expect(flat(page)).toContain(`Proposta nº 202600012 · Página ${index + 1} de ${pages.length}`);
    });
  });

  it('never leaves the premium heading alone at the foot of a page, however many coverages come before it', async () => {
    for (let count = 1; count <= 40; count += 1) {
      const coverages = Array.from({ length: count }, (_, index) => ({
        name: `Cobertura ${index + 1}`,
        capital: 100_000,
        premium: 1_000,
        deductible: 'Não há',
      }));
      const pages = (
        await pdfPageTexts(await renderQuotePdf({ ...residentialProposal, pricing: { ...residentialProposal.pricing!, coverages } }))
      ).map(flat);
      const page = pages.find((text) => text.includes('Composição do prêmio'))!;
      expect(page, `${count} coverages`).toContain('Prêmio total');
    }
  });

  it('a quote that has no plan yet says so, with no R$ 0,00 premium and no "isento" IOF', async () => {
    const text = flat(await pdfText(await renderQuotePdf({ ...residentialQuote, pricing: undefined })));
    expect(text).toContain('Plano escolhido');
    expect(text).toContain('O plano ainda não foi escolhido');
    expect(text).not.toContain('R$ 0,00');
    expect(text).not.toContain('isento');
    expect(text).not.toContain('Composição do prêmio');
    expect(text).toContain('calculada quando o plano for escolhido');
  });

  it('sets the document metadata from the document, the same bytes for the same document', async () => {
    const bytes = await renderQuotePdf(residentialProposal);
    const info = await pdfInfo(bytes);
    expect(info).toMatchObject({ Title: 'Proposta de Seguro — Residencial 202600012', Author: 'Portal de Parceiros' });
    expect(String(info.Producer)).not.toMatch(/pdfkit|\d+\.\d+/i);
    expect(info.CreationDate).toBe('D:20260115133000Z');
    expect(await renderQuotePdf(residentialProposal)).toEqual(bytes);
  });

  it('draws names outside the standard fonts’ characters legibly', async () => {
    const text = flat(
      await pdfText(
        await renderQuotePdf({
          ...residentialProposal,
          insured: { ...residentialProposal.insured, name: 'Łukasz Ŕibeiro 😀 Ação' },
        }),
      ),
    );
    expect(text).toContain('?ukasz Ribeiro ? Ação');
  });

  it('refuses a proposal without its number and an emission date in another format', async () => {
    await expect(renderQuotePdf({ ...residentialProposal, nrProposta: undefined })).rejects.toThrow(/nrProposta/);
    await expect(renderQuotePdf({ ...residentialProposal, issuedAt: '2026-01-15T10:30' })).rejects.toThrow(/issuedAt/);
  });

  it('renders 20 documents in a few seconds', async () => {
    const started = performance.now();
    for (let index = 0; index < 20; index += 1) await renderQuotePdf(index % 2 ? lifeProposal : residentialProposal);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('toWinAnsi', () => {
  it.each([
    ['Conceição, Ação, Pêssego, à, ü', 'Conceição, Ação, Pêssego, à, ü'],
    ['“aspas” – travessão — € …', '“aspas” – travessão — € …'],
    ['Ŕita\tŁ', 'Rita ?'],
    ['Ação'.normalize('NFD'), 'Ação'],
    ['emoji 😀', 'emoji ?'],
    ['R$ 240,35 − R$ 96,14, idade ≥ 18', 'R$ 240,35 – R$ 96,14, idade >= 18'],
  ])('%s → %s', (input, output) => expect(toWinAnsi(input)).toBe(output));
});
