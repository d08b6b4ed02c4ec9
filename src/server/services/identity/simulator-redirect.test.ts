import { describe, expect, it } from 'vitest';
import { appToken, bearerToken, verifyAppToken } from './simulator-redirect';
import { config } from '../../config';

/** The app token and Authorization parsing of the AFS redirect; the key's database rules are in tests/integration/afs.test.ts. */
describe('appToken / verifyAppToken', () => {
  const key = 'chave-de-exemplo-0123456789';

  it('names the calling application and verifies for its own key and type', () => {
    const token = appToken('AFS', key);
    expect(token.startsWith(`${config().APP_NAME}.`)).toBe(true);
    expect(token).not.toContain(key);
    expect(verifyAppToken(token, 'AFS', key)).toBe(true);
  });

  it('refuses the token of another key, another type, another application, or altered in any way', () => {
    const token = appToken('AFS', key);
    const signature = token.slice(token.lastIndexOf('.') + 1);
    expect(verifyAppToken(token, 'AFS', `${key}x`)).toBe(false);
    expect(verifyAppToken(token, 'EMP', key)).toBe(false);
    expect(verifyAppToken(`outro-app.${signature}`, 'AFS', key)).toBe(false);
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    expect(verifyAppToken(`${config().APP_NAME}.${flipped}`, 'AFS', key)).toBe(false);
    expect(verifyAppToken(`${config().APP_NAME}.${signature}x`, 'AFS', key)).toBe(false);
    expect(verifyAppToken(signature, 'AFS', key)).toBe(false);
    expect(verifyAppToken('', 'AFS', key)).toBe(false);
  });

  it('gives each key its own token', () => {
    expect(appToken('AFS', 'a')).not.toBe(appToken('AFS', 'b'));
  });
});

describe('bearerToken', () => {
  it.each([
    ['Bearer abc.def', 'abc.def'],
    ['bearer   abc', 'abc'],
    ['abc', 'abc'],
    ['  abc  ', 'abc'],
  ])('%j → %j', (header, token) => expect(bearerToken(header)).toBe(token));

  it.each([[null], [undefined], [''], ['Basic dXNlcjpwYXNz'], ['Bearer'], ['Bearer a b']])('%j → undefined', (header) => {
    expect(bearerToken(header)).toBeUndefined();
  });
});
