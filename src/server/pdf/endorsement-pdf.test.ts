import { describe, expect, it } from 'vitest';
import { pdfInfo, pdfPageTexts, pdfText } from '../../../tests/fixtures/pdf';
import { endorsementPdfFileName, renderEndorsementPdf, type EndorsementDocument } from './endorsement-pdf';

const flat = (text: string) => text.replace(/\s+/g, ' ');

const base = {
  nrApolice: '011420260000002',
  idContratacao: 100002,
  product: 'Residencial',
  insured: { name: 'Marina Costa Alves', document: '274.185.963-91' },
  effectiveDate: '15/01/2027',
  issuedAt: '15/01/2027 10:30',
  issuedBy: 'Eduarda Lima',
} as const;

const contact: EndorsementDocument = {
  ...base,
  nrEndosso: '202700000001',
  kind: 'Alteração de dados cadastrais',
  premium: { before: 52_018, after: 52_018 },
  contact: [
    { label: 'E-mail', before: 'marina.alves@exemplo.com.br', after: 'marina.alves@exemplo.com.br', changed: false },
    { label: 'Telefone', before: '(11) 98765-4321', after: '(11) 91234-5678', changed: true },
    {
      label: 'Endereço',
      before: 'Avenida Paulista, 120 — Bela Vista, São Paulo/SP — CEP 01310-100',
      after: 'Rua Açaí, 7, apto 12 — Jardim Paulistano, São Paulo/SP — CEP 01451-000',
      changed: true,
    },
  ],
};

// A whole cancellation asked by the insured after 53 days: the short-term table keeps 20 % of 480,70.
const cancellation: EndorsementDocument = {
  ...base,
  nrEndosso: '202700000002',
  kind: 'Cancelamento da apólice',
  premium: { before: 52_018, after: 0 },
  cancellation: {
    requester: 'O segurado',
    reason: 'Venda ou perda do bem segurado',
    rule: 'Pedido do segurado: tabela de prazo curto',
    daysUsed: 53,
    termDays: 365,
    percentKept: 20,
    coverages: [
      { name: 'Incêndio, queda de raio e explosão', premium: 30_000 },
      { name: 'Danos elétricos', premium: 18_070 },
    ],
    refundLines: [
      { label: 'Prêmio líquido pago', amount: 24_035, how: 'R$ 260,10 pagos de R$ 520,18: a mesma parte do prêmio líquido de R$ 480,70.' },
      {
        label: 'Prêmio retido pela seguradora',
        amount: 9_614,
        how: '53 de 365 dias de cobertura: a tabela de prazo curto retém 20 % de R$ 480,70.',
      },
      { label: 'Prêmio líquido a devolver', amount: 14_421, how: 'R$ 240,35 pagos − R$ 96,14 retidos.' },
      { label: 'IOF a devolver', amount: 1_064, how: 'O IOF pago (R$ 17,74) na proporção do prêmio devolvido.' },
      { label: 'Custo de apólice a devolver', amount: 0, how: 'Não é devolvido: a apólice foi emitida e vigorou.' },
    ],
    refundTotal: 15_485,
    expectedDate: '29/01/2027',
    destination: 'Pix (e-mail) m***@exemplo.com.br',
    installmentsCancelled: [3, 4],
    installmentsReduced: [],
    clawback: 2_884,
  },
};

describe('renderEndorsementPdf', () => {
  it('a contact endorsement: the insurer, the numbers, the insured and the contact before and after', async () => {
    const text = flat(await pdfText(await renderEndorsementPdf(contact)));
    expect(text).toContain('Endosso — Alteração de dados cadastrais');
    expect(text).toContain('Nº do endosso 202700000001');
    expect(text).toContain('Nº da apólice 011420260000002');
    expect(text).toContain('Efetivo em 15/01/2027');
    expect(text).toContain('Emitido por Eduarda Lima');
    expect(text).toContain('Seguradora Demo S.A.');
    expect(text).toContain('Código SUSEP 09999');
    expect(text).toContain('Marina Costa Alves');
    expect(text).toContain('Dado Antes Depois');
    expect(text).toContain('Telefone (alterado) (11) 98765-4321 (11) 91234-5678');
    expect(text).toContain('Rua Açaí, 7, apto 12 — Jardim Paulistano, São Paulo/SP — CEP 01451-000');
    expect(text).toContain('Este endosso não altera o prêmio da apólice, que continua R$ 520,18.');
    expect(text).not.toContain('Restituição');
  });

  it('a cancellation: who asked and why, the coverages, the refund line by line, the installments and the clawback', async () => {
    const text = flat(await pdfText(await renderEndorsementPdf(cancellation)));
    expect(text).toContain('Endosso — Cancelamento da apólice');
    expect(text).toContain('Solicitado por O segurado');
    expect(text).toContain('Motivo Venda ou perda do bem segurado');
    expect(text).toContain('Dias de cobertura 53 de 365');
    expect(text).toContain('Pedido do segurado: tabela de prazo curto');
    expect(text).toContain('Danos elétricos R$ 180,70');
    expect(text).toContain(
      'Prêmio retido pela seguradora 53 de 365 dias de cobertura: a tabela de prazo curto retém 20 % de R$ 480,70. R$ 96,14',
    );
    expect(text).toContain('Prêmio líquido a devolver R$ 240,35 pagos – R$ 96,14 retidos. R$ 144,21');
    expect(text).toContain('Total a restituir R$ 154,85');
    expect(text).toContain('Previsão de pagamento 29/01/2027');
    expect(text).toContain('Destino Pix (e-mail) m***@exemplo.com.br');
    expect(text).toContain('Parcelas canceladas (não serão cobradas): 3ª, 4ª.');
    expect(text).toContain('Prêmio total antes do endosso R$ 520,18');
    expect(text).toContain('Prêmio total depois do endosso R$ 0,00');
    expect(text).toContain('Estorno da comissão do parceiro R$ 28,84');
    expect(text).toContain('0800 021 8484');
  });

  it('a partial cancellation lists the reduced installments, from and to', async () => {
    const partial: EndorsementDocument = {
      ...cancellation,
      kind: 'Cancelamento de coberturas',
      premium: { before: 52_018, after: 32_460 },
      cancellation: {
        ...cancellation.cancellation!,
        coverages: [{ name: 'Danos elétricos', premium: 18_070 }],
        installmentsCancelled: [],
        installmentsReduced: [
          { number: 3, from: 13_004, to: 8_114 },
          { number: 4, from: 13_004, to: 8_116 },
        ],
      },
    };
    const text = flat(await pdfText(await renderEndorsementPdf(partial)));
    expect(text).toContain('Endosso — Cancelamento de coberturas');
    expect(text).toContain('Nenhuma parcela foi cancelada.');
    expect(text).toContain('Parcela Valor anterior Novo valor');
    expect(text).toContain('4ª R$ 130,04 R$ 81,16');
    expect(text).not.toContain('Incêndio');
  });

  it('numbers every page with the endorsement and its policy, and names the file and the metadata after them', async () => {
    const bytes = await renderEndorsementPdf(cancellation);
    const pages = await pdfPageTexts(bytes);
    for (const [index, page] of pages.entries())
      expect(flat(page)).toContain(`Endosso nº 202700000002 · Apólice nº 011420260000002 · Página ${index + 1} de ${pages.length}`);
    expect(await pdfInfo(bytes)).toMatchObject({ Title: 'Endosso — Cancelamento da apólice 202700000002' });
    expect(await renderEndorsementPdf(cancellation)).toEqual(bytes);
    expect(endorsementPdfFileName('011420260000002', '202700000002')).toBe('endosso-202700000002-apolice-011420260000002.pdf');
  });
});
