import { describe, expect, it } from 'vitest';
import { pdfInfo, pdfPageTexts, pdfText } from '../../../tests/fixtures/pdf';
import { GLOSSARY, policyPdfFileName, renderPolicyPdf, type PolicyDocument } from './policy-pdf';

const flat = (text: string) => text.replace(/\s+/g, ' ');

// Net 480,70 + policy cost 0 + IOF 7,38 % (35,48) = 516,18; four installments with R$ 4,00 of interest.
const policy: PolicyDocument = {
  nrApolice: '011420260000002',
  idContratacao: 100002,
  nrProposta: '202600000002',
  nrCotacao: '2026000005',
  status: 'Vigente',
  product: 'Residencial',
  branch: '0114 — Compreensivo residencial',
  plan: 'Conforto',
  term: { start: '23/11/2026', end: '23/11/2027' },
  insured: {
    name: 'Marina Costa Alves',
    document: '274.185.963-91',
    email: 'marina.alves@exemplo.com.br',
    phone: '(11) 98765-4321',
    address: 'Avenida Paulista, 120 — Bela Vista, São Paulo/SP — CEP 01310-100',
  },
  registration: { process: '15414.900101/2024-73', conditionsUrl: 'www.seguradorademo.com.br/condicoes-gerais/residencial' },
  partner: {
    razaoSocial: 'Corretora Horizonte Seguros Ltda.',
    cnpj: '11.222.333/0001-81',
    susep: '202031234',
    commissionPercent: 20,
    commission: 9614,
  },
  seller: 'Eduarda Lima',
  pointOfSale: 'Loja Centro — São Paulo',
  answers: [
    { label: 'Tipo de imóvel', value: 'Casa' },
    { label: 'Construção', value: 'Alvenaria' },
  ],
  coverages: [
    { name: 'Incêndio, queda de raio e explosão', capital: 45_000_000, premium: 30_000, deductible: 'Não há' },
    { name: 'Danos elétricos', capital: 1_500_000, premium: 18_070, deductible: '10% dos prejuízos, mínimo de R$ 300,00' },
  ],
  premium: { net: 48_070, policyCost: 0, iofRate: 0.0738, iof: 3_548, total: 51_618 },
  paymentMethod: 'Boleto bancário',
  installments: [
    { number: 1, dueDate: '10/12/2026', value: 13_006, status: 'Paga em 05/12/2026' },
    { number: 2, dueDate: '10/01/2027', value: 13_004, status: 'Vencida' },
    { number: 3, dueDate: '10/02/2027', value: 13_004, status: 'Em aberto' },
    { number: 4, dueDate: '10/03/2027', value: 13_004, status: 'Em aberto' },
  ],
  installmentsTotal: 52_018,
  issuedAt: '23/11/2026 10:00',
};

describe('renderPolicyPdf', () => {
  it('holds what Circular SUSEP 642/2021 asks of a policy document', async () => {
    const text = flat(await pdfText(await renderPolicyPdf(policy)));
    // The contract
    expect(text).toContain('Apólice de Seguro — Residencial');
    expect(text).toContain('Nº da apólice 011420260000002');
    expect(text).toContain('Contrato 100002');
    expect(text).toContain('Nº da proposta 202600000002');
    expect(text).toContain('Ramo 0114 — Compreensivo residencial');
    expect(text).toContain('Plano Conforto');
    expect(text).toContain('Das 24h de 23/11/2026 às 24h de 23/11/2027');
    // The insurer
    expect(text).toContain('Seguradora Demo S.A.');
    expect(text).toContain('CNPJ 12.345.678/0001-95');
    expect(text).toContain('Código SUSEP 09999');
    // The insured, whole: it is their contract
    expect(text).toContain('Marina Costa Alves');
    expect(text).toContain('274.185.963-91');
    expect(text).toContain('marina.alves@exemplo.com.br');
    expect(text).toContain('Avenida Paulista, 120 — Bela Vista, São Paulo/SP — CEP 01310-100');
    // The product's registration at SUSEP and its Condições Gerais, with where the insured reads them
    expect(text).toContain('Processo SUSEP 15414.900101/2024-73');
    expect(text).toContain(
      'Este seguro é regido pelas Condições Gerais do produto Residencial, registradas na SUSEP sob o processo nº 15414.900101/2024-73',
    );
    expect(text).toContain('www.seguradorademo.com.br/condicoes-gerais/residencial');
    expect(text).toContain('consulta pública de produtos da SUSEP');
    expect(text).toContain('Circular SUSEP nº 642/2021');
    expect(text).toContain(
      'O registro do produto na SUSEP não implica, por parte da Autarquia, incentivo ou recomendação à sua comercialização.',
    );
    // The insured risk
    expect(text).toContain('Dados do risco');
    expect(text).toContain('Construção Alvenaria');
    // The partner, its SUSEP registration and its remuneration
    expect(text).toContain('Corretora Horizonte Seguros Ltda.');
    expect(text).toContain('Registro SUSEP do corretor 202031234');
    expect(text).toContain('situação cadastral do corretor');
    expect(text).toContain(
      'Em cumprimento à Resolução CNSP nº 382/2020, informamos que o parceiro Corretora Horizonte Seguros Ltda. ' +
        '(CNPJ 11.222.333/0001-81) receberá remuneração de 20 % sobre o prêmio líquido, equivalente a R$ 96,14.',
    );
    // Coverages, premium with IOF apart, installments
    expect(text).toContain('Cobertura Importância segurada Prêmio Franquia');
    expect(text).toContain('Incêndio, queda de raio e explosão R$ 450.000,00 R$ 300,00 Não há');
    expect(text).toContain('Prêmio líquido R$ 480,70');
    expect(text).toContain('Custo de apólice R$ 0,00');
    expect(text).toContain('IOF (7,38 %) R$ 35,48');
    expect(text).toContain('Prêmio total R$ 516,18');
    expect(text).toContain('Parcelas — Boleto bancário');
    expect(text).toContain('1/4 10/12/2026 R$ 130,06 Paga em 05/12/2026');
    expect(text).toContain('2/4 10/01/2027 R$ 130,04 Vencida');
    expect(text).toContain('Total R$ 520,18');
    expect(text).toContain('O total das parcelas inclui R$ 4,00 de juros de parcelamento.');
    // Glossary and the consumer's channels
    for (const [term] of GLOSSARY) expect(text).toContain(term);
    expect(text).toContain('Glossário');
    expect(text).toContain('SAC Seguradora Demo S.A.: 0800 000 1234');
    expect(text).toContain('Ouvidoria: 0800 000 4321');
    expect(text).toContain('0800 021 8484');
    expect(text).toContain('www.gov.br/susep');
    expect(text).toContain('www.consumidor.gov.br');
  });

  it('numbers every page with the policy, and names the file and the metadata after it', async () => {
    const bytes = await renderPolicyPdf(policy);
    const pages = await pdfPageTexts(bytes);
    for (const [index, page] of pages.entries())
      expect(flat(page)).toContain(`Apólice nº 011420260000002 · Página ${index + 1} de ${pages.length}`);
    expect(await pdfInfo(bytes)).toMatchObject({ Title: 'Apólice de Seguro — Residencial 011420260000002' });
    expect(await renderPolicyPdf(policy)).toEqual(bytes);
    expect(policyPdfFileName('011420260000002')).toBe('apolice-011420260000002.pdf');
  });

  it('a partner that is not a broker has no SUSEP registration, and says so', async () => {
    const text = flat(await pdfText(await renderPolicyPdf({ ...policy, partner: { ...policy.partner, susep: null } })));
    expect(text).toContain('Registro SUSEP do corretor Não se aplica: parceiro sem registro de corretor');
    expect(text).not.toContain('situação cadastral do corretor');
  });

  it('a life policy names its beneficiaries', async () => {
    const life = { ...policy, beneficiaries: [{ name: 'Caio Campos Teixeira', relationship: 'Filho(a)', percent: 100 }] };
    const text = flat(await pdfText(await renderPolicyPdf(life)));
    expect(text).toContain('Beneficiários');
    expect(text).toContain('Caio Campos Teixeira Filho(a) 100 %');
    expect(flat(await pdfText(await renderPolicyPdf(policy)))).not.toContain('Beneficiários');
  });

  it('says nothing of installment interest when the installments add up to the premium', async () => {
    const text = flat(await pdfText(await renderPolicyPdf({ ...policy, installmentsTotal: 51_618 })));
    expect(text).not.toContain('juros de parcelamento');
    expect(text).toContain('Total R$ 516,18');
  });
});
