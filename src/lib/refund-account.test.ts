import { describe, expect, it } from 'vitest';
import { parsePixKey, refundAccountSchema } from './refund-account';

const INSURED_CPF = '274.185.963-91';
const schema = refundAccountSchema(INSURED_CPF);
const errorsOf = (input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('Pix keys', () => {
  it.each([
    ['274.185.963-91', { type: 'CPF', key: '27418596391' }],
    ['11.444.777/0001-61', { type: 'CNPJ', key: '11444777000161' }],
    ['  Marina.Alves@Exemplo.com.br ', { type: 'EMAIL', key: 'marina.alves@exemplo.com.br' }],
    ['(11) 98765-4321', { type: 'TELEFONE', key: '+5511987654321' }],
    ['+55 11 98765-4321', { type: 'TELEFONE', key: '+5511987654321' }],
    ['123E4567-E89B-42D3-A456-426614174000', { type: 'ALEATORIA', key: '123e4567-e89b-42d3-a456-426614174000' }],
  ])('%j is a key', (input, expected) => {
    expect(parsePixKey(input)).toEqual(expected);
  });

  it.each([
    '274.185.963-90', // wrong check digits
    '(11) 3333-4444', // a landline is no Pix key
    '(01) 98765-4321', // no DDD starts with 0
    'marina@',
    '123e4567-e89b-42d3-a456',
    '../../etc/passwd',
    '',
  ])('%j is not', (input) => {
    expect(parsePixKey(input)).toBeNull();
  });
});

describe('the refund account', () => {
  const account = { tipo: 'CONTA', banco: '341', agencia: '1234', conta: '12345-6', tipoConta: 'corrente', titular: INSURED_CPF };

  it('takes the insured’s bank account, digits only', () => {
    expect(schema.parse(account)).toEqual({ ...account, conta: '123456', titular: '27418596391' });
  });

  it.each([
    [{ ...account, titular: '529.982.247-25' }, 'titular: A conta deve ser do segurado: o CPF/CNPJ do titular é diferente do segurado.'],
    [{ ...account, titular: '' }, 'titular: Informe o CPF ou CNPJ do titular.'],
    [{ ...account, banco: '999' }, 'banco: Escolha o banco.'],
    [{ ...account, agencia: '123456' }, 'agencia: Informe a agência (até 5 dígitos).'],
    [{ ...account, conta: '1' }, 'conta: Informe a conta com o dígito (até 13 dígitos).'],
    [{ ...account, tipoConta: 'salario' }, 'tipoConta: Escolha conta corrente ou poupança.'],
    [{ tipo: 'PIX', chave: '529.982.247-25' }, 'chave: A chave Pix de CPF/CNPJ deve ser do segurado.'],
    [{ tipo: 'PIX', chave: 'não é chave' }, 'chave: Chave Pix inválida: informe o CPF ou o CNPJ do segurado.'],
    [{ tipo: 'PIX', chave: '' }, 'chave: Informe a chave Pix.'],
  ])('refuses %j', (input, message) => {
    expect(errorsOf(input)).toContain(message);
  });

  it('takes the insured’s own CPF key', () => {
    expect(schema.parse({ tipo: 'PIX', chave: INSURED_CPF })).toEqual({ tipo: 'PIX', chave: { type: 'CPF', key: '27418596391' } });
  });

  // Issue 27: 'terceiro.qualquer@gmail.com' was taken as the destination of the insured's refund.
  it.each(['terceiro.qualquer@gmail.com', '(11) 98765-4321', '123e4567-e89b-42d3-a456-426614174000'])(
    'refuses %j: a key that does not show whose it is',
    (chave) => {
      expect(errorsOf({ tipo: 'PIX', chave })).toEqual([
        'chave: Use a chave Pix de CPF/CNPJ do segurado ou uma conta de que seja titular: chaves de e-mail, celular e aleatórias não mostram de quem são.',
      ]);
    },
  );

  it('asks which kind when none is given', () => {
    expect(errorsOf({ tipo: 'CHEQUE' })).toHaveLength(1);
    expect(errorsOf(undefined)).toHaveLength(1);
  });
});
