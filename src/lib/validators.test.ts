import { describe, expect, it } from 'vitest';
import {
  alphanumericOnly,
  cnpjCheckDigits,
  cpfCheckDigits,
  digitsOnly,
  formatCnpj,
  formatCpf,
  isValidCnpj,
  isValidCpf,
  isValidEmail,
  lettersOnly,
  maskCpf,
  normalizeEmail,
  parsePhone,
} from './validators';

describe('isValidCpf', () => {
  it.each([
    ['529.982.247-25', true],
    ['52998224725', true],
    ['111.444.777-35', true],
    ['529.982.247-24', false], // wrong second check digit
    ['529.982.247-15', false], // wrong first check digit
    ['111.111.111-11', false], // all equal digits pass the arithmetic but are rejected
    ['000.000.000-00', false],
    ['5299822472', false],
    ['', false],
  ])('%s → %s', (cpf, valid) => expect(isValidCpf(cpf)).toBe(valid));
});

describe('the check digits of a base (what the scale generator numbers new people and companies with)', () => {
  it.each([
    ['529982247', '25'],
    ['111444777', '35'],
    ['700000001', '59'],
  ])('CPF %s → %s', (base, digits) => expect(cpfCheckDigits(base)).toBe(digits));
  it.each([
    ['112223330001', '81'],
    ['334445550001', '81'],
    ['12ABC34501DE', '35'],
  ])('CNPJ %s → %s', (base, digits) => expect(cnpjCheckDigits(base)).toBe(digits));
});

describe('isValidCnpj', () => {
  it.each([
    ['11.222.333/0001-81', true],
    ['11222333000181', true],
    ['12.ABC.345/01DE-35', true], // alphanumeric CNPJ (Receita Federal's published example)
    ['11.222.333/0001-80', false],
    ['00.000.000/0000-00', false],
    ['1122233300018', false],
    ['11222333000181X', false],
  ])('%s → %s', (cnpj, valid) => expect(isValidCnpj(cnpj)).toBe(valid));
});

describe('e-mail', () => {
  it('lower-cases and strips spaces', () => expect(normalizeEmail(' Ana.Souza @Parceiro.DEMO ')).toBe('ana.souza@parceiro.demo'));
  it.each([
    ['ana@parceiro.demo', true],
    ['ana@parceiro', false],
    ['ana parceiro.demo', false],
    ['@parceiro.demo', false],
    ['ana@@parceiro.demo', false],
  ])('%s → %s', (email, valid) => expect(isValidEmail(email)).toBe(valid));
});

describe('formatting', () => {
  it('formats CPF and CNPJ', () => {
    expect(formatCpf('52998224725')).toBe('529.982.247-25');
    expect(formatCnpj('11222333000181')).toBe('11.222.333/0001-81');
  });
  it('masks a CPF down to its check digits', () => expect(maskCpf('529.982.247-25')).toBe('***.***.***-25'));
});

describe('parsePhone', () => {
  it.each([
    ['(11) 98765-4321', { ddd: '11', numero: '987654321' }],
    ['(21) 3456-7890', { ddd: '21', numero: '34567890' }],
    ['(01) 98765-4321', null],
    ['98765-4321', null],
  ])('%s', (phone, parsed) => expect(parsePhone(phone)).toEqual(parsed));
});

describe('sanitizers', () => {
  it.each([
    [digitsOnly, '529.982.247-25', '52998224725'],
    [lettersOnly, 'João da Silva 3º!', 'João da Silva º'],
    [alphanumericOnly, '12.ABC.345/01DE-35', '12ABC34501DE35'],
  ] as const)('%o keeps what it names', (sanitize, input, output) => expect(sanitize(input)).toBe(output));
});
