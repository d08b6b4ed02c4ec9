import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';

/**
 * Issue 30: the deployment people copy (Dockerfile, compose.yaml, deploy/nginx.conf). Docker does not
 * run on CI's machine, so what can be checked without it is: the compose file parses and describes
 * what DESIGN §11 asks (PostgreSQL, an object store, two instances, a TLS proxy in front of both),
 * each instance's environment is a configuration the portal accepts, and the image is built and
 * started the way the tests build and start the portal.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** What an operator's .env gives (deploy/compose.env.example lists them). */
const OPERATOR = {
  POSTGRES_PASSWORD: 'senha-do-banco',
  S3_ACCESS_KEY_ID: 'portal',
  S3_SECRET_ACCESS_KEY: 'segredo-do-armazenamento',
  REDIRECT_APP_SECRET: 'a'.repeat(64),
  METRICS_TOKEN: 'b'.repeat(64),
};

/** Compose's interpolation: ${NAME}, ${NAME:-default}, ${NAME:?error} ($$ is a literal $). */
function interpolate(text: string, env: Record<string, string>): string {
  return text.replace(/\$\$|\$\{(\w+)(?::([-?])([^}]*))?\}/g, (whole, name?: string, kind?: string, rest?: string) => {
    if (whole === '$$') return '$';
    const value = env[name!];
    if (value) return value;
    if (kind === '?') throw new Error(`compose: ${name} obrigatório (${rest})`);
    return kind === '-' ? rest! : '';
  });
}

const compose = () => parse(interpolate(read('compose.yaml'), OPERATOR), { merge: true });

afterEach(() => vi.unstubAllEnvs());

describe('compose.yaml', () => {
  it('refuses to start without the secrets an operator must set', () => {
    for (const name of Object.keys(OPERATOR)) {
      const { [name as keyof typeof OPERATOR]: _, ...without } = OPERATOR;
      expect(() => interpolate(read('compose.yaml'), without), name).toThrow(name);
    }
  });

  it('runs PostgreSQL, an S3-compatible store, two portal instances and a TLS proxy in front of both', () => {
    const { services, networks } = compose();
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining(['postgres', 'storage', 'storage-bucket', 'portal-a', 'portal-b', 'proxy']),
    );
    for (const name of ['portal-a', 'portal-b']) {
      const portal = services[name];
      expect(portal.build).toBe('.');
      expect(portal.environment).toMatchObject({ STORAGE_DRIVER: 's3', S3_ENDPOINT: 'http://storage:9000', PORTAL_ENV: 'PRD' });
      expect(portal.environment.DATABASE_URL).toMatch(/^postgres:\/\/portal:.+@postgres:5432\/portal$/);
      expect(portal.healthcheck.test.join(' ')).toContain('/readyz');
      expect(portal.ports).toBeUndefined(); // reached through the proxy only
    }
    // The proxy's fixed address is the only one whose X-Forwarded-* the instances believe.
    expect(services['portal-a'].environment.TRUST_PROXY).toBe(services.proxy.networks.portal.ipv4_address);
    expect(networks.portal.ipam.config[0].subnet).toBe('172.30.0.0/24');
    const nginx = read('deploy/nginx.conf');
    expect(nginx).toContain('server portal-a:4321 max_fails=0;');
    expect(nginx).toContain('server portal-b:4321 max_fails=0;');
    expect(nginx).toMatch(/listen 443 ssl;/);
    expect(nginx).toContain('proxy_next_upstream error timeout;');
  });

  it('gives each instance an environment the portal accepts, every variable documented in .env.example', async () => {
    const { services } = compose();
    const environment = services['portal-a'].environment as Record<string, string>;
    const documented = read('.env.example');
    for (const name of Object.keys(environment)) expect(documented, name).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
    // `NAME:` with nothing after it is YAML's null: compose then takes the shell's value, here none.
    for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value === null ? '' : String(value));
    vi.resetModules();
    const { config } = await import('../../src/server/config');
    expect(config()).toMatchObject({ PORTAL_ENV: 'PRD', STORAGE_DRIVER: 's3', PUBLIC_URL: 'https://localhost:8443' });
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));

  it('builds as CI does and runs the built server the way the tests start it, as an unprivileged user', () => {
    expect(dockerfile).toMatch(/^FROM node:24-\S+ AS build$/m);
    expect(dockerfile).toContain('RUN npm install --no-audit --no-fund');
    expect(dockerfile).toContain('RUN npm run build && npm prune --omit=dev');
    // tests/fixtures/instances.ts and tests/e2e/own-server.ts start `scripts/start.mjs --no-build`.
    expect(read('tests/fixtures/instances.ts')).toContain("['scripts/start.mjs', '--no-build']");
    expect(runtime).toMatch(/^CMD \["node", .*"scripts\/start\.mjs", "--no-build"\]$/m);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toContain('/healthz');
    // Only the built server, its dependencies and the server scripts reach the image.
    const copied = [...runtime.matchAll(/^COPY --from=build \S+ \/app\/(\S+)/gm)].map((match) => match[1]);
    expect(copied.sort()).toEqual(['dist', 'node_modules', 'package.json', 'scripts']);
  });

  it('the start script reads nothing outside what the image copies', () => {
    for (const script of ['scripts/start.mjs', 'scripts/serve.mjs']) {
      const imports = [...read(script).matchAll(/from '(\.[^']+)'/g)].map((match) => match[1]!);
      for (const path of imports) expect(path, `${script} imports ${path}`).toMatch(/^\.\/[\w-]+\.mjs$/);
    }
  });
});
