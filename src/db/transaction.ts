import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import type { DB } from './schema.ts';

// connection.ts's Db, spelled out: connection.ts installs this module's guard plugin.
type Db = Kysely<DB>;

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
 * without the core knowing. `written` tells whether a transaction took it. `target` is what the
 * write is about; a create that learns its new id names it (setCompanionTarget) before commit.
 */
export interface Companion {
  write(trx: Db): Promise<void>;
  written: boolean;
  target?: { type: string | null; id: string | null };
  /** What the work is (an admin route's action), for the guard's message. */
  label?: string;
  /** Told of a write statement that ran while the companion waited outside any transaction carrying it (see CompanionGuardPlugin). */
  stray?(statement: string): void;
}
const companions = new AsyncLocalStorage<Companion>();
/** Set while `fn` of the transaction that will write the companion runs. */
const carrying = new AsyncLocalStorage<Companion>();

/** Runs `fn` with `companion` to be written in the first transaction `fn` opens (inTransaction). */
export function withCompanion<T>(companion: Companion, fn: () => Promise<T>): Promise<T> {
  return companions.run(companion, fn);
}

/**
 * Runs `fn` apart from the companion of the work around it: for a write that is not that work's
 * own and commits whatever becomes of it (an installation secret made on first use).
 */
export function withoutCompanion<T>(fn: () => Promise<T>): Promise<T> {
  return companions.run(undefined as unknown as Companion, fn);
}

/**
 * Names the resource the work in progress made (a create's new id), for the companion the
 * current transaction will write. Called by the core where a create learns its id, before commit;
 * without a companion (no admin write around it) it does nothing.
 */
export function setCompanionTarget(type: string, id: string | number): void {
  const companion = companions.getStore();
  // The first create names the target: opening an account also makes its first API key.
  if (companion && !companion.written && !companion.target) companion.target = { type, id: String(id) };
}

/**
 * `refuse`: a write statement outside the transaction carrying a waiting companion fails before it
 * runs (tests: the route answers 500 and nothing is written). `report`: it runs and the
 * companion's `stray` hears of it (production: logged; the audit row follows the write alone).
 */
let strayPolicy: 'refuse' | 'report' = 'report';
export function setStrayWritePolicy(policy: 'refuse' | 'report'): void {
  strayPolicy = policy;
}

export class StrayWriteError extends Error {
  constructor(statement: string, label = 'an admin write') {
    super(`${label}: a write ran outside the transaction that carries its audit row (use inTransaction, or withoutCompanion for a write that is not the work's own): ${statement.slice(0, 200)}`);
    this.name = 'StrayWriteError';
  }
}

interface Node { kind: string; [k: string]: unknown }
const WRITE_NODES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);
const RAW_WRITE = /\b(insert\s+into|delete\s+from|update\s+[\w."]+\s+(?:\w+\s+)?set)\b/i;

/** The text of a write statement, or undefined for a read. */
function writeStatement(node: RootOperationNode): string | undefined {
  const n = node as unknown as Node;
  if (WRITE_NODES.has(n.kind)) return n.kind;
  if (n.kind === 'RawNode') {
    const text = (n.sqlFragments as readonly string[]).join('?');
    return RAW_WRITE.test(text) ? text : undefined;
  }
  return undefined;
}

/**
 * Every write statement of a process goes past this (connection.ts): one that runs while a
 * companion waits and no transaction carrying it is open would commit without it — a single
 * statement on the pool, or a transaction opened with `db.transaction()` rather than inTransaction.
 */
export class CompanionGuardPlugin implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const companion = companions.getStore();
    if (!companion || companion.written || carrying.getStore() === companion) return args.node;
    const statement = writeStatement(args.node);
    if (statement === undefined) return args.node;
    companion.stray?.(statement);
    if (strayPolicy === 'refuse') {
      const e = new StrayWriteError(statement, companion.label);
      // Said where a test run shows it: the route itself answers a bare 500.
      process.stderr.write(`${e.message}\n`);
      throw e;
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
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
    const result = take ? await carrying.run(take, () => fn(trx)) : await fn(trx);
    if (take && !take.written) {
      await carrying.run(take, () => take.write(trx));
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
