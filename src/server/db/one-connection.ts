import { AsyncLocalStorage } from 'node:async_hooks';
import {
  PGliteAdapter,
  PGliteDialect,
  type ConnectionBuilder,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type TransactionBuilder,
  type TransactionSettings,
} from 'kysely';

/*
 * PGlite is one connection in the process (docs/decisions/077-one-connection-held.md). A transaction
 * holds it from BEGIN to COMMIT; every other statement waits its turn. A statement on the outer handle
 * (`db`) issued from inside a transaction's own closure therefore waits for the transaction, which
 * waits for it: the request never answers, and every request after it waits behind them — the whole
 * portal down (the renewals hang of issue 42: "Renovar" read the offers through `db` inside its
 * transaction whenever the offer catalog was not cached). Here that misuse throws at once, naming the
 * caller, while a statement of any other request still waits its turn: an AsyncLocalStorage tells the
 * transaction's own async context (the closure and whatever it awaits) from everyone else's.
 */

/** A transaction (or a connection held by `connection().execute`) while its closure runs. */
interface Holder {
  holding: boolean;
  /** Where the transaction was opened; its stack is formatted only if the misuse happens. */
  readonly opened: Error;
}

const holders = new AsyncLocalStorage<Holder>();

/** A statement on the outer handle from inside a transaction that holds PGlite's only connection. */
export class OuterHandleInTransaction extends Error {
  override readonly name = 'OuterHandleInTransaction';
}

// Frames that are the machinery, not the caller: kysely, Node, and this guard with its hooks in db/index.ts.
const MACHINERY =
  /node_modules|node:internal|refuseInsideTransaction|refuseOuterHandle|OneConnectionDriver|markedTransaction|markedConnection|PortalDatabase\.|Proxy\./;

/** The first few frames of `stack` in the portal's own code, innermost first: who asked, and through what. */
function callersIn(stack: string | undefined, frames = 8): string {
  const own = (stack ?? '')
    .split('\n')
    .filter((line) => line.trimStart().startsWith('at ') && !MACHINERY.test(line))
    .slice(0, frames)
    .map((line) => line.trim().replace(/^at (async )?/, ''));
  return own.length ? own.join(' ← ') : 'desconhecido';
}

/** Throws when the current async context runs inside a transaction's closure that holds the connection. */
export function refuseInsideTransaction(what: string): void {
  const holder = holders.getStore();
  if (!holder?.holding) return;
  // Deep enough to reach the caller past kysely's frames (the misuse is rare; the cost is paid only then).
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  const caller = callersIn(new Error().stack);
  Error.stackTraceLimit = limit;
  throw new OuterHandleInTransaction(
    `${what} pelo executor de fora (db) dentro de uma transação que detém a única conexão do PGlite: ` +
      `ela esperaria a transação, que espera por ela — use o executor da transação (trx). ` +
      `Chamado em ${caller}; transação aberta em ${callersIn(holder.opened.stack, 2)}.`,
  );
}

/** Runs `work` (a transaction's or a held connection's closure) marked as holding the connection. */
function holding<T>(opened: Error, work: () => Promise<T>): Promise<T> {
  const holder: Holder = { holding: true, opened };
  return holders.run(holder, async () => {
    try {
      return await work();
    } finally {
      // What the closure started and left running (it did not await it) may query once the turn is over.
      holder.holding = false;
    }
  });
}

/** `db.transaction()` whose closure is marked as holding the connection. */
export function markedTransaction<DB>(builder: TransactionBuilder<DB>, opened = new Error('transação')): TransactionBuilder<DB> {
  return {
    setAccessMode: (mode) => markedTransaction(builder.setAccessMode(mode), opened),
    setIsolationLevel: (level) => markedTransaction(builder.setIsolationLevel(level), opened),
    execute: (callback) => builder.execute((trx) => holding(opened, () => callback(trx))),
  } as TransactionBuilder<DB>;
}

/** `db.connection()` whose closure is marked as holding the connection (migrations, advisory locks). */
export function markedConnection<DB>(builder: ConnectionBuilder<DB>): ConnectionBuilder<DB> {
  const opened = new Error('conexão');
  return {
    execute: (callback, options) => builder.execute((connection) => holding(opened, () => callback(connection)), options),
  } as ConnectionBuilder<DB>;
}

/**
 * Takes the one connection in turns (kysely's own mutex for single-connection dialects would make
 * the misuse wait before anything could tell it from a turn), refusing a turn asked from inside the
 * closure that holds it.
 */
class OneConnectionDriver implements Driver {
  #turn: Promise<void> = Promise.resolve();
  #endTurn: (() => void) | undefined;

  constructor(private readonly inner: Driver) {}

  init = () => this.inner.init();
  destroy = () => this.inner.destroy();

  async acquireConnection(): Promise<DatabaseConnection> {
    refuseInsideTransaction('Consulta');
    const previous = this.#turn;
    let endTurn!: () => void;
    this.#turn = new Promise((resolve) => {
      endTurn = resolve;
    });
    await previous;
    this.#endTurn = endTurn;
    try {
      return await this.inner.acquireConnection();
    } catch (error) {
      this.#release();
      throw error;
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    try {
      await this.inner.releaseConnection(connection);
    } finally {
      this.#release();
    }
  }

  #release(): void {
    const endTurn = this.#endTurn;
    this.#endTurn = undefined;
    endTurn?.();
  }

  beginTransaction = (connection: DatabaseConnection, settings: TransactionSettings) => this.inner.beginTransaction(connection, settings);
  commitTransaction = (connection: DatabaseConnection) => this.inner.commitTransaction(connection);
  rollbackTransaction = (connection: DatabaseConnection) => this.inner.rollbackTransaction(connection);
  savepoint = (connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) =>
    this.inner.savepoint!(connection, name, compile);
  rollbackToSavepoint = (connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) =>
    this.inner.rollbackToSavepoint!(connection, name, compile);
  releaseSavepoint = (connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) =>
    this.inner.releaseSavepoint!(connection, name, compile);
}

/** PGlite's adapter, but the driver takes the turns (so kysely adds no mutex of its own). */
class TurnTakingAdapter extends PGliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

/** kysely's PGlite dialect with the turns taken by OneConnectionDriver. */
export class OneConnectionDialect extends PGliteDialect {
  override createAdapter(): PGliteAdapter {
    return new TurnTakingAdapter();
  }

  override createDriver(): Driver {
    return new OneConnectionDriver(super.createDriver());
  }
}
