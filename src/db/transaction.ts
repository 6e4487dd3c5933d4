import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from './connection.ts';

// Events are attached to the root database handle of a process (attachEventSink). A transaction
// opened by inTransaction collects its events and hands them over only once it has committed;
// events of a transaction opened elsewhere (the sandbox's, always rolled back) are dropped.
// What an event says is the core's business (core/events.ts types them and is the one caller of
// carryToCommit and carriedEvents): this layer only carries them, so it needs no core import.
type Sink = (event: unknown) => void;
const sinks = new WeakMap<object, Sink>();
const pending = new WeakMap<object, unknown[]>();

export function attachEventSink<E>(db: Db, sink: (event: E) => void): void {
  sinks.set(db, sink as Sink);
}

function deliver(sink: Sink, events: readonly unknown[]): void {
  for (const e of events) {
    try {
      sink(e);
    } catch {
      // Reporting must never undo or fail the work it reports.
    }
  }
}

/** Reports `event` once the work it describes is committed (at once outside a transaction). */
export function carryToCommit(db: Db, event: unknown): void {
  const list = pending.get(db);
  if (list) list.push(event);
  else if (!db.isTransaction) {
    const sink = sinks.get(db);
    if (sink) deliver(sink, [event]);
  }
}

/** The events `trx` has collected so far (e.g. the refunds a compensation made). */
export function carriedEvents(trx: Db): readonly unknown[] {
  return pending.get(trx) ?? [];
}

/**
 * A write that must commit with the first transaction a piece of work opens (the audit row of an
 * admin write): carried through the async context, so the core's own transaction picks it up
 * without the core knowing. `written` tells whether a transaction took it.
 */
export interface Companion {
  write(trx: Db): Promise<void>;
  written: boolean;
}
const companions = new AsyncLocalStorage<Companion>();

/** Runs `fn` with `companion` to be written in the first transaction `fn` opens (inTransaction). */
export function withCompanion<T>(companion: Companion, fn: () => Promise<T>): Promise<T> {
  return companions.run(companion, fn);
}

/**
 * Runs `fn` in a transaction, or inside the one `db` already is (the sandbox hands the core a
 * transaction that is rolled back at the end, and nested work must join it).
 */
export async function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  const companion = companions.getStore();
  const take = companion && !companion.written ? companion : undefined;
  const run = async (trx: Db) => {
    const result = await fn(trx);
    if (take && !take.written) {
      await take.write(trx);
      take.written = true;
    }
    return result;
  };
  const sink = sinks.get(db);
  try {
    if (!sink) return await db.transaction().execute(run);
    const events: unknown[] = [];
    const result = await db.transaction().execute((trx) => {
      pending.set(trx, events);
      return run(trx);
    });
    deliver(sink, events);
    return result;
  } catch (e) {
    // Rolled back: the companion was not written after all.
    if (take) take.written = false;
    throw e;
  }
}
