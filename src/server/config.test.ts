import { afterEach, describe, expect, it, vi } from 'vitest';
import { opsSettings } from '../../scripts/ops.mjs';

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

describe('CLOCK_OFFSET_DAYS', () => {
  it('sets the clock ahead outside production', async () => {
    expect((await configWith({ PORTAL_ENV: 'TEST', CLOCK_OFFSET_DAYS: '26' })).CLOCK_OFFSET_DAYS).toBe(26);
    vi.resetModules();
    const { now } = await import('./clock');
    expect(now().getTime() - Date.now()).toBeGreaterThan(26 * 86_400_000 - 1_000);
  });

  it('is refused in production, and must be whole days', async () => {
    await expect(configWith({ PORTAL_ENV: 'PRD', CLOCK_OFFSET_DAYS: '1' })).rejects.toThrow(/CLOCK_OFFSET_DAYS: o relógio só pode/);
    await expect(configWith({ PORTAL_ENV: 'DEV', CLOCK_OFFSET_DAYS: '1.5' })).rejects.toThrow(/CLOCK_OFFSET_DAYS/);
    expect((await configWith({ PORTAL_ENV: 'PRD', CLOCK_OFFSET_DAYS: '0' })).CLOCK_OFFSET_DAYS).toBe(0);
  });
});

describe('ACCESS_LOG_RETENTION_DAYS', () => {
  it('keeps a year by default, or the days given', async () => {
    vi.stubEnv('ACCESS_LOG_RETENTION_DAYS', undefined as unknown as string);
    expect((await configWith({})).ACCESS_LOG_RETENTION_DAYS).toBe(365);
    expect((await configWith({ ACCESS_LOG_RETENTION_DAYS: '730' })).ACCESS_LOG_RETENTION_DAYS).toBe(730);
  });

  it('refuses less than the 6 months of the Marco Civil, more than 10 years, or part of a day', async () => {
    await expect(configWith({ ACCESS_LOG_RETENTION_DAYS: '90' })).rejects.toThrow(/ACCESS_LOG_RETENTION_DAYS: guarde ao menos 183 dias/);
    await expect(configWith({ ACCESS_LOG_RETENTION_DAYS: '4000' })).rejects.toThrow(/ACCESS_LOG_RETENTION_DAYS: no máximo 3650/);
    await expect(configWith({ ACCESS_LOG_RETENTION_DAYS: '200.5' })).rejects.toThrow(/ACCESS_LOG_RETENTION_DAYS/);
    await expect(configWith({ ACCESS_LOG_RETENTION_DAYS: 'um ano' })).rejects.toThrow(/ACCESS_LOG_RETENTION_DAYS/);
  });
});

describe('EMBEDDED_APPS_HOST and EMBEDDED_APPS_ENV_PREFIX (decision 054)', () => {
  it('takes a host name with an optional port and a dotted prefix; empty means this server', async () => {
    const settings = await configWith({ EMBEDDED_APPS_HOST: 'seguradora.com.br:8443', EMBEDDED_APPS_ENV_PREFIX: 'hml.' });
    expect([settings.EMBEDDED_APPS_HOST, settings.EMBEDDED_APPS_ENV_PREFIX]).toEqual(['seguradora.com.br:8443', 'hml.']);
    expect((await configWith({ EMBEDDED_APPS_HOST: '' })).EMBEDDED_APPS_HOST).toBeUndefined(); // empty is unset, as for every variable
  });

  it.each([
    ['EMBEDDED_APPS_HOST', 'https://seguradora.com.br'],
    ['EMBEDDED_APPS_HOST', 'seguradora.com.br/static'],
    ['EMBEDDED_APPS_HOST', "seguradora.com.br 'unsafe-inline'"],
    ['EMBEDDED_APPS_ENV_PREFIX', 'hml'],
  ])('refuses %s=%j, naming the variable', async (name, value) => {
    await expect(configWith({ [name]: value })).rejects.toThrow(new RegExp(name));
  });
});

describe('an empty variable (compose files write NAME= for "not given")', () => {
  it('is an unset one: a secret with a minimum length left empty starts the server with its default', async () => {
    const settings = await configWith({ PAYMENTS_WEBHOOK_SECRET: '', SMTP_URL: '', REDIRECT_APP_SECRET: '' });
    expect([settings.PAYMENTS_WEBHOOK_SECRET, settings.SMTP_URL, settings.REDIRECT_APP_SECRET]).toEqual([undefined, undefined, undefined]);
  });
});

describe('LOG_LEVEL, LOG_REQUESTS and METRICS_TOKEN (issue 30): the same rules here and in the server script', () => {
  const unset = { LOG_LEVEL: '', LOG_REQUESTS: '', METRICS_TOKEN: '' };

  it('defaults to info, request lines on, no metrics — unset or empty', async () => {
    for (const name of Object.keys(unset)) vi.stubEnv(name, undefined as unknown as string);
    const settings = await configWith({});
    expect([settings.LOG_LEVEL, settings.LOG_REQUESTS, settings.METRICS_TOKEN]).toEqual(['info', true, undefined]);
    expect(opsSettings({})).toEqual({ logLevel: 'info', logRequests: true, metricsToken: undefined });
    const empty = await configWith(unset);
    expect([empty.LOG_LEVEL, empty.LOG_REQUESTS, empty.METRICS_TOKEN]).toEqual(['info', true, undefined]);
    expect(opsSettings(unset)).toEqual({ logLevel: 'info', logRequests: true, metricsToken: undefined });
  });

  it('takes a level, false, and a token of 32 characters or more', async () => {
    const env = { LOG_LEVEL: 'DEBUG', LOG_REQUESTS: 'false', METRICS_TOKEN: 'x'.repeat(32) };
    const settings = await configWith(env);
    expect([settings.LOG_LEVEL, settings.LOG_REQUESTS, settings.METRICS_TOKEN]).toEqual(['debug', false, 'x'.repeat(32)]);
    expect(opsSettings(env)).toEqual({ logLevel: 'debug', logRequests: false, metricsToken: 'x'.repeat(32) });
  });

  it.each([
    ['LOG_LEVEL', 'verbose'],
    ['LOG_REQUESTS', 'talvez'],
    ['METRICS_TOKEN', 'curto-demais'],
  ])('refuses %s=%j, naming the variable, on both sides', async (name, value) => {
    await expect(configWith({ [name]: value })).rejects.toThrow(new RegExp(name));
    expect(() => opsSettings({ [name]: value })).toThrow(new RegExp(name));
  });
});

describe('STORAGE_DRIVER and S3_* (issue 30)', () => {
  const unset = (...names: string[]) => {
    for (const name of names) vi.stubEnv(name, undefined as unknown as string);
  };

  it('stores in the local folder by default, as every release before', async () => {
    unset('STORAGE_DRIVER', 'S3_BUCKET', 'S3_ENDPOINT', 'S3_PREFIX');
    const settings = await configWith({});
    expect(settings.STORAGE_DRIVER).toBe('local');
    const { storeOf } = await import('./files');
    expect(storeOf(settings).driver).toBe('local');
  });

  it('refuses s3 without a bucket, saying which variable', async () => {
    unset('S3_BUCKET');
    await expect(configWith({ STORAGE_DRIVER: 's3' })).rejects.toThrow(/S3_BUCKET: STORAGE_DRIVER=s3 precisa do nome do bucket/);
    await expect(configWith({ STORAGE_DRIVER: 's3', S3_BUCKET: '' })).rejects.toThrow(/S3_BUCKET/);
  });

  it('refuses an unknown driver, a bad bucket name or address, and one key without the other', async () => {
    await expect(configWith({ STORAGE_DRIVER: 'disco' })).rejects.toThrow(/STORAGE_DRIVER: use local ou s3/);
    await expect(configWith({ STORAGE_DRIVER: 's3', S3_BUCKET: 'Meu_Bucket' })).rejects.toThrow(/S3_BUCKET: use um nome de bucket/);
    await expect(configWith({ S3_ENDPOINT: 'minio:9000' })).rejects.toThrow(/S3_ENDPOINT: use um endereço http/);
    unset('S3_SECRET_ACCESS_KEY');
    await expect(configWith({ S3_ACCESS_KEY_ID: 'chave' })).rejects.toThrow(
      /S3_SECRET_ACCESS_KEY: dê S3_ACCESS_KEY_ID e S3_SECRET_ACCESS_KEY juntos/,
    );
  });

  it('never puts a secret in its error message', async () => {
    unset('S3_ACCESS_KEY_ID');
    const error = await configWith({ STORAGE_DRIVER: 's3', S3_SECRET_ACCESS_KEY: 'segredo-muito-secreto' }).catch((e: Error) => e);
    expect(String(error)).toMatch(/S3_BUCKET/);
    expect(String(error)).not.toContain('segredo-muito-secreto');
  });

  it('takes a bucket with an endpoint: path-style by default there, and a prefix with one trailing slash', async () => {
    unset('S3_FORCE_PATH_STYLE', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_REGION');
    const settings = await configWith({
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'portal-arquivos',
      S3_ENDPOINT: 'http://minio:9000',
      S3_PREFIX: '/portal/arquivos/',
    });
    expect(settings).toMatchObject({ S3_BUCKET: 'portal-arquivos', S3_REGION: 'us-east-1', S3_PREFIX: 'portal/arquivos/' });
    const { storeOf } = await import('./files');
    const store = storeOf(settings);
    expect(store.driver).toBe('s3');
    expect(store.location).toBe('s3://portal-arquivos/portal/arquivos/ em minio:9000');
    expect((await configWith({ S3_PREFIX: '' })).S3_PREFIX).toBe('');
    expect((await configWith({ S3_FORCE_PATH_STYLE: 'false' })).S3_FORCE_PATH_STYLE).toBe(false);
  });
});
