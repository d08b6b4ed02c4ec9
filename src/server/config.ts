import { z } from 'zod';
import { parseTrustedProxies } from './proxy';

/**
 * Server configuration from the environment (documented in .env.example), read once and validated:
 * a typo in a variable stops the server with a clear message instead of misbehaving later.
 */
const environment = z.enum(['PRD', 'DEV', 'HML', 'TEST']);

/** A same-site path ('/afs/receptor') or an absolute http(s) address. */
const pathOrHttpUrl = z
  .string()
  .trim()
  .refine(
    (value) => (value.startsWith('/') && !value.startsWith('//')) || (/^https?:\/\/[^/]/i.test(value) && URL.canParse(value)),
    'use um caminho iniciado por / ou um endereço http(s)://',
  );

/**
 * PUBLIC_URL: the origin browsers use (https://parceiros.seguradora.com.br), trailing slash allowed;
 * empty is unset. A path is refused, not ignored: the portal is served at the root, and a path would
 * promise otherwise (docs/decisions/021-public-origin-and-proxies.md).
 */
const publicOrigin = z
  .string()
  .trim()
  .refine((value) => {
    if (value === '') return true;
    const url = URL.parse(value);
    return (
      url !== null &&
      /^https?:$/.test(url.protocol) &&
      url.hostname !== '' &&
      !url.username &&
      !url.password &&
      url.pathname === '/' &&
      !url.search &&
      !url.hash &&
      !value.endsWith('?') &&
      !value.endsWith('#')
    );
  }, 'use só a origem pública, como https://parceiros.seguradora.com.br (sem caminho: o portal é servido na raiz)')
  .transform((value) => (value === '' ? undefined : new URL(value).origin));

/** TRUST_PROXY: the reverse proxies whose X-Forwarded-* headers are believed (server/proxy.ts). */
const trustedProxies = z
  .string()
  .default('')
  .transform((value, ctx) => {
    try {
      return parseTrustedProxies(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  });

/** pino's levels (LOG_LEVEL). */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const schema = z
  .object({
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: z.string().optional(),
    PORTAL_ENV: z
      .string()
      .default('PRD')
      .transform((v) => v.toUpperCase())
      .pipe(environment),
    PROVIDER_EMAIL_DOMAIN: z
      .string()
      .default('seguradora.demo')
      .transform((v) => v.toLowerCase()),
    SMTP_URL: z.string().optional(),
    /** The HMAC secret the bank signs payment confirmations with (POST /api/pagamentos/v1/confirmacoes). */
    PAYMENTS_WEBHOOK_SECRET: z.string().min(32, 'use um segredo de ao menos 32 caracteres').optional(),
    MAIL_FROM: z.string().default('Portal de Parceiros <nao-responda@seguradora.demo>'),
    PUBLIC_URL: publicOrigin.optional(),
    TRUST_PROXY: trustedProxies,
    API_PLATAFORMA_URL: z.string().default('/api/plataforma'),
    API_BFF_URL: z.string().default('/api/bff'),
    API_GATEWAY_URL: z.string().default('/api/gateway'),
    API_AUTH_URL: z.string().default('/api/auth'),
    APP_NAME: z.string().default('portal-parceiros'),
    CENTRAL_ATENDIMENTO: z.string().default('0800 000 0000'),
    CHAT_WHATSAPP: z.string().default('(11) 4000-0000'),
    // External addresses of the header and the menus (SPEC §2).
    LINK_POLITICA_PRIVACIDADE: z.string().default('https://www.seguradora.demo/politica-de-privacidade'),
    LINK_MANUAL_PRIVACIDADE: z.string().default('https://www.seguradora.demo/manual-de-privacidade'),
    LINK_BIBLIOTECA_PARCEIRO: z.string().default('https://parceiros.seguradora.demo/biblioteca'),
    LINK_PERSONALIZADO_FOLDER: z.string().default('https://www.canva.com/templates/?query=folder%20seguros'),
    LINK_PERSONALIZADO_GIFS: z.string().default('https://www.canva.com/templates/?query=gif%20seguros'),
    LINK_CONQUISTA_PREMIADA: z.string().default('https://conquistapremiada.seguradora.demo'),
    LINK_RELATORIO_TESTE: z.string().default('https://relatorios-hml.seguradora.demo'),
    // The AFS redirect (docs/decisions/020-afs-redirect.md): where the browser posts the one-time key,
    // and the secret that signs the app token the receiver checks.
    AFS_REDIRECT_URL: pathOrHttpUrl.optional(),
    REDIRECT_APP_SECRET: z.string().min(32, 'use ao menos 32 caracteres').optional(),
    // Seals the TOTP secrets of the second factor in the database (decision 068); every instance
    // needs the same one. Unset, a development key is used (logged as a warning in production).
    SECOND_FACTOR_KEY: z.string().min(32, 'use ao menos 32 caracteres').optional(),
    // Where the embedded issuance apps' bundles load from (SPEC §7, decision 054): unset, this server
    // serves them under /mf/{app}/; set, //{app}.{EMBEDDED_APPS_ENV_PREFIX}{EMBEDDED_APPS_HOST}/static/js/bundle.js.
    EMBEDDED_APPS_HOST: z
      .string()
      .trim()
      // Empty means unset: this server serves the bundles.
      .regex(/^(?:[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?(?::\d{1,5})?)?$/i, 'use só o nome do servidor (e a porta), sem esquema nem caminho')
      .optional(),
    EMBEDDED_APPS_ENV_PREFIX: z
      .string()
      .trim()
      .regex(/^(?:[a-z0-9-]+\.)*$/i, 'use rótulos terminados em ponto, como "hml."')
      .default(''),
    // Outside production only: the server's clock runs this many days ahead (or behind), so a demo or a
    // browser test sees deadlines pass — a proposal accepted by silence, an installment overdue.
    // A fresh database gets a year of demo sales (server/demo/seed-history.ts): seconds more on the first
    // start, and the metrics, rankings and statements have something to show. 'false' leaves it out.
    DEMO_HISTORY: z.stringbool({ error: 'use true ou false' }).default(true),
    CLOCK_OFFSET_DAYS: z.coerce.number().int('use um número inteiro de dias').min(-3650).max(3650).default(0),
    // How long the access log keeps a row (decision 049): at least the 6 months the Marco Civil da
    // Internet (art. 15) asks of an application's access records; a year by default.
    ACCESS_LOG_RETENTION_DAYS: z.coerce
      .number({ error: 'use um número inteiro de dias' })
      .int('use um número inteiro de dias')
      .min(183, 'guarde ao menos 183 dias (6 meses, Marco Civil da Internet, art. 15)')
      .max(3650, 'no máximo 3650 dias (10 anos)')
      .default(365),
    // Below this much free space on the files' disk, uploads are refused with a clear message (decision
    // 057): the database, the logs and the reports written there keep room to work.
    UPLOADS_MIN_FREE_MB: z.coerce
      .number({ error: 'use um número inteiro de megabytes' })
      .int('use um número inteiro de megabytes')
      .min(0, 'use um número inteiro de megabytes')
      .default(1024),
    // Operations (issue 30): read by the server script (scripts/ops.mjs opsSettings, the same rules)
    // before the bundle loads; declared here so they are validated and documented with the rest.
    LOG_LEVEL: z
      .string()
      .default('info')
      .transform((v) => v.toLowerCase())
      .pipe(z.enum(LOG_LEVELS, { error: `use ${LOG_LEVELS.join(', ')}` })),
    LOG_REQUESTS: z.stringbool({ error: 'use true ou false' }).default(true),
    /** The bearer token of GET /metrics; unset, the path is a page like any other (404). */
    METRICS_TOKEN: z.string().min(32, 'use um segredo de ao menos 32 caracteres').optional(),
    // Where files are stored (server/files.ts, issue 30): `local` (DATA_DIR/files, one instance) or
    // `s3` (an S3-compatible bucket every instance shares). Credentials are never logged.
    STORAGE_DRIVER: z.enum(['local', 's3'], { error: 'use local ou s3' }).default('local'),
    S3_BUCKET: z
      .string()
      .trim()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'use um nome de bucket S3 (3 a 63 letras minúsculas, dígitos, pontos e hífens)')
      .optional(),
    S3_ENDPOINT: z
      .string()
      .trim()
      .refine((value) => /^https?:\/\/[^/]/i.test(value) && URL.canParse(value), 'use um endereço http(s)://, como http://minio:9000')
      .optional(),
    S3_REGION: z.string().trim().default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_FORCE_PATH_STYLE: z.stringbool({ error: 'use true ou false' }).optional(),
    S3_PREFIX: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9!_.*'()/-]*$/, "use só letras, dígitos e !_.*'()/- no prefixo")
      // 'arquivos' and '/arquivos/' are the same prefix: no leading slash, one trailing.
      .transform((value) => value.replace(/^\/+|\/+$/g, ''))
      .transform((value) => (value === '' ? '' : `${value}/`))
      .default(''),
    // The live worklist (issue 31, server/api/live-worklist.ts): open event streams allowed per user
    // (all their tabs share one per browser; past it the oldest ends) and per instance (beyond, 429),
    // and the heartbeat that keeps proxies from closing a quiet stream and checks the session again.
    LIVE_MAX_PER_USER: z.coerce.number({ error: 'use um número inteiro' }).int('use um número inteiro').min(1).max(100).default(5),
    LIVE_MAX_PER_INSTANCE: z.coerce
      .number({ error: 'use um número inteiro' })
      .int('use um número inteiro')
      .min(1)
      .max(100_000)
      .default(2000),
    LIVE_HEARTBEAT_SECONDS: z.coerce
      .number({ error: 'use um número de segundos' })
      .int('use um número de segundos')
      .min(1)
      .max(55)
      .default(25),
  })
  .refine((settings) => settings.STORAGE_DRIVER !== 's3' || settings.S3_BUCKET, {
    path: ['S3_BUCKET'],
    message: 'STORAGE_DRIVER=s3 precisa do nome do bucket em S3_BUCKET',
  })
  .refine((settings) => !settings.S3_ACCESS_KEY_ID === !settings.S3_SECRET_ACCESS_KEY, {
    path: ['S3_SECRET_ACCESS_KEY'],
    message: 'dê S3_ACCESS_KEY_ID e S3_SECRET_ACCESS_KEY juntos, ou nenhum dos dois (a cadeia padrão de credenciais do SDK)',
  })
  .refine((settings) => settings.PORTAL_ENV !== 'PRD' || settings.CLOCK_OFFSET_DAYS === 0, {
    path: ['CLOCK_OFFSET_DAYS'],
    message: 'o relógio só pode ser adiantado fora de produção (PORTAL_ENV diferente de PRD)',
  });

export type Config = z.infer<typeof schema>;

let cached: Config | undefined;

export function config(): Config {
  if (!cached) {
    // An empty variable is an unset one: compose files and unit files write `NAME=` for "not given".
    const given = Object.fromEntries(Object.entries(process.env).filter(([, value]) => value !== ''));
    const parsed = schema.safeParse(given);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      throw new Error(`Configuração inválida: ${problems}`);
    }
    cached = parsed.data;
    for (const warning of configurationWarnings(cached)) console.warn(`[config] ${warning}`);
  }
  return cached;
}

/** What an operator must hear at start-up (the first request reads the configuration: serve.mjs warms up). */
function configurationWarnings(settings: Config): string[] {
  const warnings: string[] = [];
  if (settings.PORTAL_ENV === 'PRD' && !settings.SMTP_URL) {
    warnings.push(
      'PORTAL_ENV=PRD sem SMTP_URL: os e-mails (redefinição de senha, códigos de primeiro acesso) NÃO são entregues; ' +
        'ficam na caixa postal /caixa-postal, que só administradores da seguradora leem. Configure SMTP_URL.',
    );
  }
  if (settings.PORTAL_ENV === 'PRD' && !settings.SECOND_FACTOR_KEY) {
    warnings.push(
      'PORTAL_ENV=PRD sem SECOND_FACTOR_KEY: os segredos dos aplicativos autenticadores são selados com a chave de ' +
        'desenvolvimento, conhecida de quem lê o código. Defina SECOND_FACTOR_KEY (a mesma em todas as instâncias).',
    );
  }
  return warnings;
}

export const isProduction = () => config().PORTAL_ENV === 'PRD';

/**
 * The demo mailbox shows the e-mails the portal wrote, to the provider's administrators only. It
 * exists outside production, and in production only while no SMTP server is configured — then no
 * mail can leave this server and the mailbox is its only delivery (docs/decisions/028-mailbox-and-secrets.md).
 */
export const mailboxEnabled = () => !isProduction() || !config().SMTP_URL;

/** The demo bank pays installments where no bank confirms them: outside production, or with no webhook secret. */
export const demoBankEnabled = () => !isProduction() || !config().PAYMENTS_WEBHOOK_SECRET;

/** The four API bases as the browser calls them (overridable to point at an external platform). */
export const apiBases = () => ({
  plataforma: config().API_PLATAFORMA_URL,
  bff: config().API_BFF_URL,
  gateway: config().API_GATEWAY_URL,
  auth: config().API_AUTH_URL,
});

/** Where the embedded issuance apps' bundles are served from (lib/embedded-apps.ts bundleAddress). */
export const embeddedAppsSource = () => ({ host: config().EMBEDDED_APPS_HOST, prefix: config().EMBEDDED_APPS_ENV_PREFIX });

/** External addresses the menus link to (lib/menus.ts `external` keys). */
export const externalLinks = () => ({
  bibliotecaParceiro: config().LINK_BIBLIOTECA_PARCEIRO,
  personalizadoFolder: config().LINK_PERSONALIZADO_FOLDER,
  personalizadoGifs: config().LINK_PERSONALIZADO_GIFS,
  conquistaPremiada: config().LINK_CONQUISTA_PREMIADA,
  relatorioTeste: config().LINK_RELATORIO_TESTE,
});

/**
 * Where the AFS redirect posts its key: AFS_REDIRECT_URL, else the built-in receiver — under
 * PUBLIC_URL when one is set, otherwise the same-origin path, so the form POST is same-origin
 * whatever host name the browser used.
 */
export function afsRedirectUrl(): string {
  const { AFS_REDIRECT_URL, PUBLIC_URL } = config();
  if (AFS_REDIRECT_URL) return AFS_REDIRECT_URL;
  return PUBLIC_URL ? `${PUBLIC_URL.replace(/\/+$/, '')}/afs/receptor` : '/afs/receptor';
}

/** What the footer and the chat menu show. */
export const contactNumbers = () => ({ centralAtendimento: config().CENTRAL_ATENDIMENTO, chatWhatsapp: config().CHAT_WHATSAPP });
