import { describe, expect, it } from 'vitest';
import { loginErrorPlacement } from './login-errors';

describe('loginErrorPlacement (SPEC §8)', () => {
  it.each([
    [404, 'Usuário não encontrado', { field: 'email', message: 'USUÁRIO NÃO ENCONTRADO (404)' }],
    [401, 'Usuário ou senha inválidos', { field: 'senha', message: 'USUÁRIO OU SENHA INVÁLIDOS (401)' }],
    [429, 'Muitas tentativas', { field: 'senha', message: 'MUITAS TENTATIVAS (429)' }],
    [500, 'boom', { field: 'senha', message: 'Ocorreu um erro, tente novamente.' }],
    [0, '', { message: 'Erro ao realizar requisição. Tente novamente mais tarde!' }],
  ] as const)('%i %s', (status, message, expected) => expect(loginErrorPlacement(status, message)).toEqual(expected));
});
