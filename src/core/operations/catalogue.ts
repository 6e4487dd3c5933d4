// The catalogue of operations: every kind of long-running work. An entry says what the operation
// acts on (`resource`, its `resource.type` in the API), which API area's scope reads it (GET
// /v2/operations/{id} needs `<area>:read`), and the runner the worker runs; the runner's type fixes
// the params that the start writes and the run reads (Runner<P>: startOperation takes exactly those
// P for that type), and `completed` names the event its completion writes about its resource
// (server.create → server.created). The entries live with their family (src/core/<family>/family.ts);
// src/core/families.ts lists the families, merges their entries into OPERATIONS, registers them here
// and adds their types to OperationRegistry — so this folder imports no family. Everything else is
// derived from the registered entries: the worker's runners and their claim-time reads (execute.ts),
// the scope check of an operation (service.ts), the events an operation's end writes
// (events.ts).
import type { EventType } from '../events/catalogue.ts';
import type { Area } from '../types.ts';
import type { Runner } from './runner.ts';

export interface CatalogueEntry {
  /** What it acts on (`resource.type` of an operation), one of its family's `operationResources`. */
  resource: string;
  /** The API area whose `<area>:read` scope reads the operation. */
  area: Area;
  /** Runner<never>: any runner; the table's literal type keeps each one's own params. */
  runner: Runner<never>;
  /**
   * The resource's own event, written with operation.completed at the commit that completes it
   * (migration 0041's hc_completion_event mirrors these; test/v2/events.test.ts checks it does).
   */
  completed?: EventType;
  /**
   * The operator may run it again once it failed (POST /admin/v1/operations/{id}/retry): it
   * charged nothing and its failure undid nothing that a second run would need back, and its
   * params hold no secret that its end erased — running it again is the same request.
   */
  retry?: true;
}

/**
 * Every operation type with its entry's type: src/core/families.ts adds the merged table of every
 * family (declaration merging), so the types of this folder know each family's params without
 * importing one.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface OperationRegistry {}

export type OperationType = keyof OperationRegistry & string;

/** The params an operation of type T carries: what its start writes and its runner reads. */
export type ParamsOf<T extends OperationType> = T extends OperationType ? (OperationRegistry[T] extends { runner: Runner<infer P> } ? P : never) : never;

/** The runner of each operation type (what the worker hands executeOperation). */
export type RunnerMap = ReadonlyMap<string, Runner<never>>;

const registered = new Map<string, CatalogueEntry>();

/**
 * Adds a table of entries (src/core/families.ts does, once, for every family as it loads). A type
 * registered twice with another entry is a programming error.
 */
export function registerOperations(table: Readonly<Record<string, CatalogueEntry>>): void {
  for (const [type, entry] of Object.entries(table)) {
    const had = registered.get(type);
    if (had && had !== entry) throw new Error(`operation type ${type} is declared by two families`);
    registered.set(type, entry);
  }
}

/** The catalogue's entry for a stored operation's type; undefined for a type it does not know. */
export function entryOf(type: string): CatalogueEntry | undefined {
  return registered.get(type);
}

/** The registered entry of a type the compiler knows; one missing means src/core/families.ts was never loaded. */
export function requireEntry(type: OperationType): CatalogueEntry {
  const entry = registered.get(type);
  if (!entry) throw new Error(`operation type ${type} is not registered: load src/core/families.ts first`);
  return entry;
}

/** The runner of a stored operation's type; a type missing here fails its operations with a readable detail. */
export function runnerFor(type: string): Runner<never> | undefined {
  return entryOf(type)?.runner;
}

/** Every registered operation type with its runner. */
export function registeredRunners(): RunnerMap {
  return new Map([...registered].map(([type, e]) => [type, e.runner]));
}

/** Every registered operation type with its runner, in registration order. */
export function runnerEntries(): [string, Runner<never>][] {
  return [...registered].map(([type, e]) => [type, e.runner]);
}

/** Every registered entry, in registration order. */
export function registeredEntries(): [string, CatalogueEntry][] {
  return [...registered];
}

/** Whether the operator may run a failed operation of this type again (CatalogueEntry.retry). */
export function retryable(type: string): boolean {
  return entryOf(type)?.retry === true;
}
