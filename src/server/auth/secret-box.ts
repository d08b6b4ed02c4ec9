import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { config } from '../config';

/**
 * Seals a secret the server must read back (a TOTP app's shared secret) with AES-256-GCM under
 * SECOND_FACTOR_KEY: a copy of the database alone does not give anyone the codes. Passwords and
 * tokens are hashed instead — those are only ever compared.
 */

// Unset outside production (the demo, the tests), this key keeps the format and the code path the same.
const DEVELOPMENT_KEY = 'portal-de-parceiros: chave de desenvolvimento do segundo fator';
const VERSION = 'v1';

const keyOf = () =>
  createHash('sha256')
    .update(config().SECOND_FACTOR_KEY ?? DEVELOPMENT_KEY)
    .digest();

export function seal(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(), iv);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
}

export function unseal(box: string): string {
  const [version, iv, tag, sealed] = box.split('.');
  if (version !== VERSION || !iv || !tag || !sealed) throw new Error('secret-box: unknown format');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
}
