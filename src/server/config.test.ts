import { afterEach, describe, expect, it, vi } from 'vitest';

/** config() reads process.env once per module instance: each case loads a fresh one. */
async function configWith(env: Record<string, string>) {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  vi.resetModules();
  const { config } = await import('./config');
  return config();
}

afterEach(() => vi.unstubAllEnvs());

describe('PUBLIC_URL', () => {
  it.each([
    ['https://parceiros.seguradora.com.br', 'https://parceiros.seguradora.com.br'],
    ['https://parceiros.seguradora.com.br/', 'https://parceiros.seguradora.com.br'],
    ['HTTPS://Parceiros.Seguradora.com.br:443', 'https://parceiros.seguradora.com.br'],
    ['http://localhost:4321', 'http://localhost:4321'],
    ['', undefined],
  ])('%j is the origin %j', async (value, origin) => {
    expect((await configWith({ PUBLIC_URL: value })).PUBLIC_URL).toBe(origin);
  });

  it.each([
    'parceiros.seguradora.com.br',
    'ftp://parceiros.seguradora.com.br',
    'https://parceiros.seguradora.com.br/portal',
    'https://parceiros.seguradora.com.br/?x=1',
    'https://user:secret@parceiros.seguradora.com.br',
    'https://',
  ])('refuses %j, naming the variable', async (value) => {
    await expect(configWith({ PUBLIC_URL: value })).rejects.toThrow(/PUBLIC_URL: use só a origem pública/);
  });
});

describe('TRUST_PROXY', () => {
  it('trusts no one by default', async () => {
    vi.stubEnv('TRUST_PROXY', undefined as unknown as string);
    expect((await configWith({})).TRUST_PROXY.has('127.0.0.1')).toBe(false);
  });

  it('trusts the listed addresses and ranges', async () => {
    const trusted = (await configWith({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' })).TRUST_PROXY;
    expect([trusted.has('127.0.0.1'), trusted.has('10.3.2.1'), trusted.has('192.168.0.1')]).toEqual([true, true, false]);
  });

  it('stops the server on an entry that is not an address, naming it', async () => {
    await expect(configWith({ TRUST_PROXY: '10.0.0.0/8, proxy.interno' })).rejects.toThrow(
      /TRUST_PROXY: "proxy.interno" não é um endereço IP/,
    );
  });
});

describe('TEST_CLOCK_OFFSET_DAYS', () => {
  it('moves the clock ahead in the test environment only', async () => {
    const before = Date.now();
    expect((await configWith({ PORTAL_ENV: 'TEST', TEST_CLOCK_OFFSET_DAYS: '45' })).TEST_CLOCK_OFFSET_DAYS).toBe(45);
    const { now } = await import('./clock');
    expect(now().getTime() - before).toBeGreaterThanOrEqual(45 * 86_400_000);
  });

  it.each(['PRD', 'HML', 'DEV'])('is refused with PORTAL_ENV=%s', async (environment) => {
    await expect(configWith({ PORTAL_ENV: environment, TEST_CLOCK_OFFSET_DAYS: '45' })).rejects.toThrow(
      /TEST_CLOCK_OFFSET_DAYS: só vale com PORTAL_ENV=TEST/,
    );
  });
});
