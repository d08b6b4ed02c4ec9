import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { FULL_NAME_MESSAGES } from '../full-name';
import { INSURED_MAX_LENGTH, UFS, insuredDocument, insuredName, insuredSchema } from './insured';

const TODAY = new Date(2026, 2, 15);

const ENDERECO = { cep: '01310-100', logradouro: 'Avenida Paulista', numero: '1000', bairro: 'Bela Vista', cidade: 'São Paulo', uf: 'sp' };
const PERSON = {
  tipoPessoa: 'PF',
  nome: 'Maria da Silva',
  cpf: '529.982.247-25',
  dataNascimento: '1985-06-20',
  email: ' Maria@Exemplo.com.br ',
  telefone: '(11) 98765-4321',
  endereco: ENDERECO,
};
const COMPANY = {
  tipoPessoa: 'PJ',
  razaoSocial: 'Padaria Pão Quente Ltda',
  cnpj: '11.222.333/0001-81',
  email: 'contato@paoquente.com.br',
  telefone: '(41) 3333-4444',
  endereco: { ...ENDERECO, complemento: 'Loja 2' },
};

const messagesOf = (kind: 'PF' | 'PJ' | 'PF_PJ', input: unknown, age?: { min: number; max: number }) => {
  const result = z.safeParse(insuredSchema(kind, { today: TODAY, age }), input);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('insuredSchema', () => {
  it('accepts a masked person and returns digits, a normalised e-mail and an upper-case UF', () => {
    expect(z.parse(insuredSchema('PF', { today: TODAY }), PERSON)).toEqual({
      ...PERSON,
      cpf: '52998224725',
      email: 'maria@exemplo.com.br',
      telefone: '11987654321',
      endereco: { ...ENDERECO, cep: '01310100', uf: 'SP' },
    });
  });

  it('accepts a company with an 8-digit landline and an alphanumeric CNPJ', () => {
    expect(z.parse(insuredSchema('PJ'), COMPANY)).toMatchObject({ cnpj: '11222333000181', telefone: '4133334444' });
    expect(z.parse(insuredSchema('PJ'), { ...COMPANY, cnpj: '12.abc.345/01de-35' }).cnpj).toBe('12ABC34501DE35');
  });

  it('takes either kind for PF_PJ, by tipoPessoa', () => {
    expect(z.parse(insuredSchema('PF_PJ', { today: TODAY }), PERSON).tipoPessoa).toBe('PF');
    expect(z.parse(insuredSchema('PF_PJ'), COMPANY).tipoPessoa).toBe('PJ');
    expect(messagesOf('PF_PJ', { ...PERSON, tipoPessoa: 'XX' })).toEqual({ tipoPessoa: 'Escolha pessoa física ou pessoa jurídica.' });
  });

  it('refuses the other kind where the product takes one', () => {
    expect(messagesOf('PF', COMPANY)).toHaveProperty('tipoPessoa', 'Escolha pessoa física ou pessoa jurídica.');
    expect(messagesOf('PJ', PERSON)).toHaveProperty('tipoPessoa');
  });

  it('refuses a CPF with a wrong check digit, or with all digits equal', () => {
    expect(messagesOf('PF', { ...PERSON, cpf: '529.982.247-24' })).toEqual({ cpf: 'Informe um CPF válido.' });
    expect(messagesOf('PF', { ...PERSON, cpf: '111.111.111-11' })).toEqual({ cpf: 'Informe um CPF válido.' });
    expect(messagesOf('PJ', { ...COMPANY, cnpj: '11.222.333/0001-80' })).toEqual({ cnpj: 'Informe um CNPJ válido.' });
  });

  it('tells the limit of a text that is too long, instead of asking for it again', () => {
    const long = (n: number) => `Maria ${'a'.repeat(n)}`;
    expect(messagesOf('PF', { ...PERSON, nome: long(500) })).toEqual({ nome: 'Use no máximo 120 caracteres.' });
    expect(messagesOf('PJ', { ...COMPANY, razaoSocial: long(150) })).toEqual({ razaoSocial: 'Use no máximo 150 caracteres.' });
    expect(messagesOf('PF', { ...PERSON, endereco: { ...ENDERECO, logradouro: long(120), complemento: long(60) } })).toEqual({
      'endereco.logradouro': 'Use no máximo 120 caracteres.',
      'endereco.complemento': 'Use no máximo 60 caracteres.',
    });
    expect(INSURED_MAX_LENGTH).toMatchObject({ nome: 120, razaoSocial: 150, logradouro: 120, complemento: 60 });
    // at the limit it is accepted
    expect(messagesOf('PF', { ...PERSON, nome: long(114) })).toEqual({});
  });

  it('refuses a UF that does not exist, a short CEP and a phone without area code', () => {
    expect(messagesOf('PF', { ...PERSON, telefone: '98765-4321', endereco: { ...ENDERECO, uf: 'XX', cep: '0131010' } })).toEqual({
      telefone: 'Informe o telefone no formato (DD) NNNNN-NNNN.',
      'endereco.uf': 'Escolha a UF.',
      'endereco.cep': 'Informe o CEP com 8 dígitos.',
    });
  });

  it('asks for every missing field by name', () => {
    expect(messagesOf('PF', { tipoPessoa: 'PF', endereco: {} })).toEqual({
      nome: 'Informe o nome completo.',
      cpf: 'Informe um CPF válido.',
      dataNascimento: 'Informe a data de nascimento.',
      email: 'E-mail obrigatório',
      telefone: 'Informe o telefone no formato (DD) NNNNN-NNNN.',
      'endereco.cep': 'Informe o CEP com 8 dígitos.',
      'endereco.logradouro': 'Informe o logradouro.',
      'endereco.numero': 'Informe o número.',
      'endereco.bairro': 'Informe o bairro.',
      'endereco.cidade': 'Informe a cidade.',
      'endereco.uf': 'Escolha a UF.',
    });
    expect(messagesOf('PF', { ...PERSON, nome: 'Maria' })).toEqual({ nome: 'Informe o nome completo.' });
  });

  it('takes a full name by the portal’s one rule (decision 060)', () => {
    expect(messagesOf('PF', { ...PERSON, nome: 'Maria 2' })).toEqual({ nome: 'Informe o nome completo.' });
    expect(messagesOf('PF', { ...PERSON, nome: 'Maria; Souza' })).toEqual({ nome: FULL_NAME_MESSAGES.characters(';') });
    expect(messagesOf('PF', { ...PERSON, nome: 'Ana B. Souza' })).toEqual({});
  });

  it('bounds the age at 18 to 100, or at the product’s own bounds', () => {
    const age = { dataNascimento: 'A idade deve estar entre 18 e 100 anos.' };
    expect(messagesOf('PF', { ...PERSON, dataNascimento: '2008-03-15' })).toEqual({});
    expect(messagesOf('PF', { ...PERSON, dataNascimento: '2008-03-16' })).toEqual(age);
    expect(messagesOf('PF', { ...PERSON, dataNascimento: '1925-03-16' })).toEqual({});
    expect(messagesOf('PF', { ...PERSON, dataNascimento: '1925-03-15' })).toEqual(age);
    expect(messagesOf('PF', { ...PERSON, dataNascimento: '1955-03-15' }, { min: 18, max: 70 })).toEqual({
      dataNascimento: 'A idade deve estar entre 18 e 70 anos.',
    });
    expect(messagesOf('PF', { ...PERSON, dataNascimento: '1990-02-30' })).toEqual({ dataNascimento: 'Informe a data de nascimento.' });
  });
});

describe('UFS', () => {
  it('lists the 26 states and the Distrito Federal once each', () => {
    expect(UFS).toHaveLength(27);
    expect(new Set(UFS.map((u) => u.value)).size).toBe(27);
    expect(UFS.find((u) => u.value === 'DF')?.label).toBe('Distrito Federal');
  });
});

describe('insuredName and insuredDocument', () => {
  it('read the person’s name and CPF, or the company’s razão social and CNPJ, unmasked', () => {
    const person = z.parse(insuredSchema('PF', { today: TODAY }), PERSON);
    const company = z.parse(insuredSchema('PJ'), COMPANY);
    expect([insuredName(person), insuredDocument(person)]).toEqual(['Maria da Silva', '52998224725']);
    expect([insuredName(company), insuredDocument(company)]).toEqual(['Padaria Pão Quente Ltda', '11222333000181']);
  });
});
