import { sql } from 'kysely';
import { withDeadline } from '../../lib/deadline';
import { databaseOpenFailed, openedDatabase } from '../boot/database';
import { fileStore } from '../files';
import { errorMessage, logWarning } from '../log';

/**
 * Whether this instance may be sent requests (GET /readyz, scripts/ops.mjs): a table of named probes,
 * each cheap, each given a short time. A probe throws `NotReady` with what an operator may read; any
 * other failure answers a fixed text, and its message goes to the log only (a driver's message may
 * name a host or a user).
 */
export class NotReady extends Error {}

export interface Probe {
  name: string;
  check(): Promise<void>;
}

export const PROBES: readonly Probe[] = [
  {
    name: 'database',
    async check() {
      // Open means migrated (and seeded): boot/database.ts publishes the handle only after both.
      const db = openedDatabase();
      if (!db)
        throw new NotReady(
          databaseOpenFailed() ? 'falhou ao abrir (o log do servidor diz por quê)' : 'ainda não aberto (abrindo ou aplicando migrações)',
        );
      await sql`select 1`.execute(db);
    },
  },
  {
    name: 'storage',
    // The local folder writable, or the bucket answering (HeadBucket): server/files.ts.
    check: () => fileStore().check(),
  },
];

const PROBE_TIMEOUT_MS = 2_000;

export interface Readiness {
  ready: boolean;
  /** Each probe's outcome by name: 'ok', or why not (pt-BR, no detail from a driver). */
  checks: Record<string, string>;
}

/** Runs every probe at once; ready when all pass within `timeoutMs`. */
export async function readiness(probes: readonly Probe[] = PROBES, timeoutMs = PROBE_TIMEOUT_MS): Promise<Readiness> {
  const outcomes = await Promise.all(
    probes.map(async ({ name, check }) => {
      try {
        await withDeadline(check(), timeoutMs, () => new NotReady(`sem resposta em ${timeoutMs} ms`));
        return [name, 'ok'] as const;
      } catch (error) {
        if (error instanceof NotReady) return [name, error.message] as const;
        logWarning('prontidao-falha', { verificacao: name, erro: errorMessage(error) });
        return [name, 'falhou'] as const;
      }
    }),
  );
  return { ready: outcomes.every(([, outcome]) => outcome === 'ok'), checks: Object.fromEntries(outcomes) };
}
