import type { DB } from '../db';
import { now } from '../clock';
import { acceptBySilence } from '../services/after-sale/acceptance';
import { deliverQueued } from '../mail/outbox';
import { generateReports } from '../services/reporting/sales-reports';
import { processImports } from '../services/network/user-import-processing';
import { fileStore } from '../files';
import { config } from '../config';
import { purgeAccessLog } from '../services/identity/access-log';
import { applyScheduledCancellations } from '../services/after-sale/cancellation';
import { errorMessage, logError } from '../log';
import { sweepUploads } from '../services/after-sale/document-uploads';

/**
 * Work on deadlines that runs inside every server process (DESIGN §10). Each job claims its rows with
 * SELECT … FOR UPDATE SKIP LOCKED, so several instances over one PostgreSQL may run it at the same
 * moment and still do each piece once; a job that fails is logged and tried again at its next turn.
 */
export interface Job {
  name: string;
  everyMs: number;
  run(db: DB): Promise<unknown>;
}

export const JOBS: Job[] = [
  // Proposals whose 25 days ran out are accepted by silence (Lei 15.040/2024): within a minute.
  { name: 'aceite por decurso de prazo', everyMs: 60_000, run: (db) => acceptBySilence(db, now()) },
  // Cancellations scheduled for a day ahead (decision 055) are carried out on their day: within a minute.
  { name: 'cancelamentos agendados', everyMs: 60_000, run: (db) => applyScheduledCancellations(db, now()) },
  // E-mails written inside a transaction (a policy's notices) are sent once it has committed.
  { name: 'entrega de e-mails', everyMs: 15_000, run: deliverQueued },
  // Sales reports asked for on the pages (decision 042): a waiting one starts within two seconds.
  { name: 'relatórios de vendas', everyMs: 2_000, run: (db) => generateReports(db, fileStore()) },
  // Bulk user imports confirmed on the pages (decision 048): a batch at a time, within two seconds.
  { name: 'importação de usuários', everyMs: 2_000, run: processImports },
  // The access log keeps ACCESS_LOG_RETENTION_DAYS (decision 049): older rows go once an hour.
  { name: 'guarda do log de acesso', everyMs: 3_600_000, run: (db) => purgeAccessLog(db, config().ACCESS_LOG_RETENTION_DAYS) },
  // Uploads abandoned mid-way stop holding their place, and files no row points at go (decision 057).
  { name: 'limpeza de envios e arquivos órfãos', everyMs: 15 * 60_000, run: (db) => sweepUploads(db, fileStore(), now()) },
];

/** The first turn waits this long, so a starting server answers its first pages first. */
const FIRST_TURN_MS = 5_000;

/** Starts the jobs; the answer stops them, waiting for a turn under way to end. */
export function startJobs(db: DB, jobs: Job[] = JOBS, firstTurnMs = FIRST_TURN_MS): () => Promise<void> {
  const running = new Set<Promise<void>>();
  const timers = jobs.map((job) => {
    let busy = false;
    const turn = () => {
      if (busy) return; // a slow turn is not doubled by the next tick
      busy = true;
      const done = job
        .run(db)
        .then(() => undefined)
        .catch((error: unknown) => logError('tarefa-falha', { tarefa: job.name, erro: errorMessage(error) }))
        .finally(() => {
          busy = false;
          running.delete(done);
        });
      running.add(done);
    };
    const first = setTimeout(turn, firstTurnMs);
    const every = setInterval(turn, job.everyMs);
    first.unref();
    every.unref();
    return [first, every] as const;
  });
  return async () => {
    for (const [first, every] of timers) {
      clearTimeout(first);
      clearInterval(every);
    }
    await Promise.all(running);
  };
}
