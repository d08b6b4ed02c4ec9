import type { DB } from '../db';
import { now } from '../clock';
import { acceptBySilence } from '../services/after-sale/acceptance';
import { deliverQueued, onMailQueued } from '../mail/outbox';
import { generateReports } from '../services/reporting/sales-reports';
import { processImports } from '../services/network/user-import-processing';
import { onBulkQueued, processBulkJobs } from '../services/network/user-bulk';
import { fileStore } from '../files';
import { config } from '../config';
import { purgeAccessLog } from '../services/identity/access-log';
import { applyScheduledCancellations } from '../services/after-sale/cancellation';
import { errorMessage, logError } from '../log';
import { sweepUploads } from '../services/after-sale/document-uploads';
import { queueDueReminders } from '../services/after-sale/insured-reminders';
import { sweepEndedGrants } from '../services/network/grant-ends';

/**
 * Work on deadlines that runs inside every server process (DESIGN §10). Each job claims its rows with
 * SELECT … FOR UPDATE SKIP LOCKED, so several instances over one PostgreSQL may run it at the same
 * moment and still do each piece once; a job that fails is logged and tried again at its next turn.
 */
export interface Job {
  name: string;
  everyMs: number;
  run(db: DB): Promise<unknown>;
  /** Lets the process ask for a turn now (the answer stops listening): a turn under way is followed by another. */
  wake?: (turn: () => void) => () => void;
}

export const JOBS: Job[] = [
  // Proposals whose 25 days ran out are accepted by silence (Lei 15.040/2024): within a minute.
  { name: 'aceite por decurso de prazo', everyMs: 60_000, run: (db) => acceptBySilence(db, now()) },
  // Cancellations scheduled for a day ahead (decision 055) are carried out on their day: within a minute.
  { name: 'cancelamentos agendados', everyMs: 60_000, run: (db) => applyScheduledCancellations(db, now()) },
  // Every e-mail is sent here (decision 028, issue 30): at once when this process wrote it, and
  // every 15 s for what a transaction queued, another instance left, or waits to be tried again.
  { name: 'entrega de e-mails', everyMs: 15_000, run: (db) => deliverQueued(db), wake: onMailQueued },
  // Reminders to the insured (issue 31): boleto before the due date, overdue with a 2ª via, end of
  // term — each queued once (a unique key per reminder, in the transaction of its e-mail): within a minute.
  { name: 'lembretes ao segurado', everyMs: 60_000, run: (db) => queueDueReminders(db, now()) },
  // Sales reports asked for on the pages (decision 042): a waiting one starts within two seconds.
  { name: 'relatórios de vendas', everyMs: 2_000, run: (db) => generateReports(db, fileStore()) },
  // Bulk user imports confirmed on the pages (decision 048): a batch at a time, within two seconds.
  { name: 'importação de usuários', everyMs: 2_000, run: processImports },
  // Bulk actions on users confirmed after their preview (decision 070): the jobs take turns, a batch each.
  { name: 'ações em lote de usuários', everyMs: 2_000, run: processBulkJobs, wake: onBulkQueued },
  // The access log keeps ACCESS_LOG_RETENTION_DAYS (decision 049): older rows go once an hour.
  { name: 'guarda do log de acesso', everyMs: 3_600_000, run: (db) => purgeAccessLog(db, config().ACCESS_LOG_RETENTION_DAYS) },
  // Uploads abandoned mid-way stop holding their place, and files no row points at go (decision 057).
  { name: 'limpeza de envios e arquivos órfãos', everyMs: 15 * 60_000, run: (db) => sweepUploads(db, fileStore(), now()) },
  // Grants past their end date (decision 071) stopped counting at their end; here they are removed and
  // logged ("acesso expirado"): within a minute.
  { name: 'acessos com data de fim', everyMs: 60_000, run: sweepEndedGrants },
];

/** Turns run and failed per job since the process started, for the metrics (scripts/ops.mjs). */
const counts = new Map<string, { runs: number; failures: number }>();

export const jobCounts = (): Record<string, { runs: number; failures: number }> => Object.fromEntries(counts);

/** The first turn waits this long, so a starting server answers its first pages first. */
const FIRST_TURN_MS = 5_000;

/** Starts the jobs; the answer stops them, waiting for a turn under way to end. */
export function startJobs(db: DB, jobs: Job[] = JOBS, firstTurnMs = FIRST_TURN_MS): () => Promise<void> {
  const running = new Set<Promise<void>>();
  let stopped = false;
  const timers = jobs.map((job) => {
    let busy = false;
    let again = false;
    const turn = (woken = false) => {
      if (busy) {
        // A slow turn is not doubled by the next tick; a wake-up is kept for after it (what woke it
        // may have been written after the turn under way looked).
        if (woken) again = true;
        return;
      }
      busy = true;
      again = false;
      const count = counts.get(job.name) ?? { runs: 0, failures: 0 };
      counts.set(job.name, count);
      count.runs += 1;
      const done = job
        .run(db)
        .then(() => undefined)
        .catch((error: unknown) => {
          count.failures += 1;
          logError('tarefa-falha', { tarefa: job.name, erro: errorMessage(error) });
        })
        .finally(() => {
          busy = false;
          running.delete(done);
          if (again && !stopped) turn();
        });
      running.add(done);
    };
    const first = setTimeout(() => turn(), firstTurnMs);
    const every = setInterval(() => turn(), job.everyMs);
    first.unref();
    every.unref();
    const unwake = job.wake?.(() => {
      if (!stopped) turn(true);
    });
    return [first, every, unwake] as const;
  });
  return async () => {
    stopped = true;
    for (const [first, every, unwake] of timers) {
      clearTimeout(first);
      clearInterval(every);
      unwake?.();
    }
    await Promise.all(running);
  };
}
