// What an operator reads of a running portal (issue 30, DESIGN §11): /healthz and /readyz for a proxy
// or an orchestrator, one JSON log line per request with its id (pino, to stdout) and Prometheus
// metrics at /metrics behind a token (prom-client). It lives on the server script's side, around
// Astro's handler, so it sees every answer — those the shared pages and the viewer memo give from
// memory too — and keeps the one metrics registry of the process. What only the bundle knows (the
// route's pattern and the signed-in user, the database, the queues, the jobs, TRUST_PROXY) reaches it
// through two well-known hooks: the request's record, an AsyncLocalStorage store the pipeline writes
// into (src/server/request-context.ts), and `portal.ops` (src/server/ops/hooks.ts), read on demand.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { hostname } from 'node:os';
import pino from 'pino';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

const REQUEST = Symbol.for('portal.request');
const OPS = Symbol.for('portal.ops');

/** One store for the process: the bundle reads the same instance, whoever created it first. */
globalThis[REQUEST] ??= new AsyncLocalStorage();
export const requests = globalThis[REQUEST];
const bundle = () => globalThis[OPS];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * LOG_LEVEL, LOG_REQUESTS and METRICS_TOKEN, read by the server script before the bundle loads (the
 * first request is already logged). src/server/config.ts declares the same three with the same rules,
 * so .env.example and the configuration's tests name them with the rest; a bad value stops the start.
 */
export function opsSettings(env = process.env) {
  const problems = [];
  const level = (env.LOG_LEVEL || 'info').toLowerCase();
  if (!LOG_LEVELS.includes(level)) problems.push(`LOG_LEVEL: use um de ${LOG_LEVELS.join(', ')}`);
  const requestsFlag = (env.LOG_REQUESTS || 'true').toLowerCase();
  if (!['true', 'false'].includes(requestsFlag)) problems.push('LOG_REQUESTS: use true ou false');
  const token = env.METRICS_TOKEN || undefined;
  if (token !== undefined && token.length < 32) problems.push('METRICS_TOKEN: use um segredo de ao menos 32 caracteres');
  if (problems.length > 0) throw new Error(`Configuração inválida: ${problems.join('; ')}`);
  return { logLevel: level, logRequests: requestsFlag === 'true', metricsToken: token };
}

/**
 * An incoming X-Request-Id is kept only when a trusted proxy (TRUST_PROXY, asked of the bundle) sent
 * it and it looks like an id — nginx's $request_id, a UUID, an AWS trace id; anything else is replaced.
 */
const WELL_FORMED_ID = /^[A-Za-z0-9._:=+-]{8,128}$/;

/** Labels of answers given before Astro runs: bounded, like the route patterns. */
export const LABELS = {
  healthz: '/healthz',
  readyz: '/readyz',
  metrics: '/metrics',
  sharedPage: 'pagina-compartilhada',
  viewerMemo: 'memo-do-usuario',
  badUrl: 'endereco-invalido',
  // Astro answered but no route was noted: a built file the adapter served before the pipeline runs.
  noRoute: 'arquivo-estatico',
};

/** The paths the operations layer answers itself, by the label they are logged with. */
const OWN_PATHS = new Map([
  ['/healthz', 'healthz'],
  ['/readyz', 'readyz'],
  ['/metrics', 'metrics'],
]);

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** How long /readyz waits for the bundle's probes, and a scrape for the queue counts. */
const READY_TIMEOUT_MS = 3_000;
const SCRAPE_TIMEOUT_MS = 2_000;

const within = (promise, ms, what) => {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, fail) => {
      timer = setTimeout(() => fail(new Error(`${what}: tempo esgotado (${ms} ms)`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
};

const sha256 = (text) => createHash('sha256').update(text).digest();

/** Bearer token compared in constant time: both sides hashed first, so their lengths never show. */
function bearerMatches(header, token) {
  const given = /^Bearer +(\S+)\s*$/i.exec(header ?? '')?.[1];
  return given !== undefined && timingSafeEqual(sha256(given), sha256(token));
}

function sendJson(req, res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
  });
  res.end(req.method === 'HEAD' ? undefined : text);
}

/** How many bytes of log lines are gathered before one write, and how long a line may wait at most. */
const LOG_BUFFER_BYTES = 4_096;
const LOG_FLUSH_MS = 1_000;

/**
 * Standard output, written a few kilobytes at a time (issue 42, item 14): a synchronous write per
 * request was a third of a cheap page's time. A quiet server's lines still appear within a second,
 * and pino writes what is left when the process exits (normally, by process.exit or by an uncaught
 * error); only a SIGKILL loses the last second.
 */
function bufferedStdout() {
  const stream = pino.destination({ fd: 1, sync: false, minLength: LOG_BUFFER_BYTES });
  setInterval(() => stream.flush(), LOG_FLUSH_MS).unref();
  return stream;
}

/**
 * The operations layer of one server: `track` wraps each request (id, record, log line, metrics),
 * `answer` serves /healthz, /readyz and /metrics, `stopping` turns readiness off for good.
 * `destination`: where log lines go (stdout by default; a test passes a stream).
 */
export function operations({ settings = opsSettings(), destination } = {}) {
  const logger = pino(
    {
      level: settings.logLevel,
      // Which instance wrote the line, when several write to one collector.
      base: { pid: process.pid, hostname: hostname() },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? bufferedStdout(),
  );
  let stopping = false;

  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requestsTotal = new Counter({
    name: 'http_requests_total',
    help: 'Requisições HTTP respondidas, por método, rota (o padrão da rota, não o endereço) e status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const requestSeconds = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Duração das requisições HTTP, por método e rota, em segundos.',
    labelNames: ['method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  // What the bundle counts (queues, pool, jobs) is read at scrape time, once per scrape for all the
  // metrics that need it: the collects of one scrape run together and share the answer.
  let scrape;
  const bundleSnapshot = () => {
    scrape ??= within(Promise.resolve(bundle()?.snapshot()), SCRAPE_TIMEOUT_MS, 'métricas do banco')
      .catch((error) => {
        logger.warn({ evento: 'metricas-falha', erro: error instanceof Error ? error.message : String(error) });
        return undefined;
      })
      .finally(() => setTimeout(() => (scrape = undefined), 0));
    return scrape;
  };
  new Gauge({
    name: 'portal_queue_depth',
    help: 'Trabalhos esperando na fila: e-mails não enviados, relatórios e importações por processar.',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const [queue, { depth }] of Object.entries((await bundleSnapshot())?.queues ?? {})) this.set({ queue }, depth);
    },
  });
  new Gauge({
    name: 'portal_queue_oldest_age_seconds',
    help: 'Idade, em segundos, do trabalho mais antigo esperando em cada fila (0 com a fila vazia).',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const [queue, { oldestSeconds }] of Object.entries((await bundleSnapshot())?.queues ?? {})) this.set({ queue }, oldestSeconds);
    },
  });
  new Gauge({
    name: 'portal_db_pool_connections',
    help: 'Conexões do pool do PostgreSQL (DATABASE_URL): total, ociosas e pedidos esperando uma.',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      this.reset();
      const pool = (await bundleSnapshot())?.pool;
      if (!pool) return; // PGlite: one connection in the process, no pool
      this.set({ state: 'total' }, pool.total);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
    },
  });
  const jobCounter = (name, help, field) =>
    new Counter({
      name,
      help,
      labelNames: ['job'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const [job, counts] of Object.entries((await bundleSnapshot())?.jobs ?? {})) this.inc({ job }, counts[field]);
      },
    });
  jobCounter('portal_job_runs_total', 'Voltas das tarefas periódicas (server/boot/jobs.ts) desde o início do processo.', 'runs');
  jobCounter('portal_job_failures_total', 'Voltas das tarefas periódicas que falharam desde o início do processo.', 'failures');

  function requestIdOf(req) {
    const incoming = req.headers['x-request-id'];
    return typeof incoming === 'string' && WELL_FORMED_ID.test(incoming) && fromTrustedProxy(req) ? incoming : randomUUID();
  }

  /** A configuration that does not parse makes no proxy trusted (and the pipeline says why on every page). */
  function fromTrustedProxy(req) {
    try {
      return bundle()?.trustsProxy(req.socket.remoteAddress ?? '') === true;
    } catch {
      return false;
    }
  }

  /** The log line and the metrics of a request once its answer is sent (or the client went away). */
  function finish(req, res, record, started, bytesBefore) {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const status = res.writableFinished ? res.statusCode : 499; // 499: the client closed the connection first
    const route = record.route ?? LABELS.noRoute;
    const method = METHODS.has(req.method) ? req.method : 'OTHER';
    requestsTotal.inc({ method, route, status: String(status) });
    requestSeconds.observe({ method, route }, seconds);
    if (!settings.logRequests) return;
    const line = {
      evento: 'requisicao',
      requisicao: record.id,
      metodo: method,
      rota: route,
      status,
      ms: Math.round(seconds * 10_000) / 10,
      usuario: record.userId,
      bytes: req.socket ? req.socket.bytesWritten - bytesBefore : undefined,
    };
    if (record.quiet) logger.debug(line);
    else if (status >= 500) logger.error(line);
    else logger.info(line);
  }

  return {
    logger,
    registry,
    /** Runs `next` inside the request's record; its id is on the answer before anything else writes. */
    track(req, res, next) {
      const record = { id: requestIdOf(req), route: undefined, userId: undefined, quiet: false };
      const started = process.hrtime.bigint();
      const bytesBefore = req.socket?.bytesWritten ?? 0;
      res.setHeader('x-request-id', record.id);
      res.once('close', () => {
        try {
          finish(req, res, record, started, bytesBefore);
        } catch (error) {
          // A log line or a metric never takes the process down (this runs outside any request's handler).
          console.error(JSON.stringify({ evento: 'registro-falha', erro: error instanceof Error ? error.message : String(error) }));
        }
      });
      requests.run(record, next);
    },
    /** Names the current request's route when it is answered before Astro (LABELS). */
    label(route, quiet = false) {
      const record = requests.getStore();
      if (record) Object.assign(record, { route, quiet });
    },
    /** Answers /healthz, /readyz and /metrics (when a token is configured); true when it did. */
    answer(req, res) {
      const route = OWN_PATHS.get((req.url ?? '/').split('?')[0]);
      // Without a token the metrics path is not the operations' but a page like any other (404).
      if (!route || (route === 'metrics' && !settings.metricsToken)) return false;
      // Probes and scrapes come every few seconds: their lines only at debug.
      this.label(LABELS[route], true);
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD', 'cache-control': 'no-store', 'content-length': 0 });
        res.end();
        return true;
      }
      if (route === 'healthz') sendJson(req, res, 200, { status: 'ok' });
      else if (route === 'readyz') void ready(req, res);
      else void metrics(req, res);
      return true;
    },
    /** From the shutdown signal on, /readyz answers 503: the proxy stops sending before the server goes. */
    stopping() {
      stopping = true;
    },
  };

  async function ready(req, res) {
    let result;
    if (stopping) result = { ready: false, checks: { shutdown: 'encerrando' } };
    else {
      const probes = bundle()?.ready;
      result = probes
        ? await within(probes(), READY_TIMEOUT_MS, 'prontidão').catch(() => ({ ready: false, checks: { probes: 'sem resposta' } }))
        : { ready: false, checks: { database: 'ainda não aberto' } };
    }
    sendJson(req, res, result.ready ? 200 : 503, { status: result.ready ? 'ok' : 'unavailable', checks: result.checks });
  }

  async function metrics(req, res) {
    if (!bearerMatches(req.headers.authorization, settings.metricsToken)) {
      res.writeHead(401, { 'www-authenticate': 'Bearer', 'cache-control': 'no-store', 'content-type': 'text/plain; charset=utf-8' });
      res.end(req.method === 'HEAD' ? undefined : 'Não autorizado.');
      return;
    }
    try {
      const text = await registry.metrics();
      res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : text);
    } catch (error) {
      logger.error({ evento: 'metricas-falha', erro: error instanceof Error ? error.message : String(error) });
      res.writeHead(500, { 'cache-control': 'no-store' });
      res.end();
    }
  }
}
