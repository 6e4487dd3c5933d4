// Writes on one resource, one at a time in this process, queued in memory before they ask the pool
// for a connection. Each such write locks the resource's row first, so two of them cannot overlap
// anyway: without this queue, a burst on one server (50 parallel stops) had every request but one
// holding a pooled connection while it waited for the row lock, the pool was spent on a queue
// behind one row, and every other account's requests waited for a connection. Queued here, a
// burst on one resource uses one connection of the process at a time. Other processes still meet
// at the row lock (each with at most one connection waiting there).
import type { Ctx } from './context.ts';

const tails = new Map<string, Promise<void>>();

/** Runs `fn` once every earlier call with the same key has finished (fulfilled or not). */
export async function oneAtATime<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const before = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const tail = before.then(() => new Promise<void>((resolve) => { release = resolve; }));
  tails.set(key, tail);
  try {
    await before;
    return await fn();
  } finally {
    // `release` is set once `before` has settled, which the await above has seen.
    release();
    if (tails.get(key) === tail) tails.delete(key);
  }
}

/**
 * A write of the caller's on one of its resources (a server, a VDC VM), after the caller's earlier
 * writes on it in this process. Keyed by account, so another account naming the same id never
 * queues behind the owner (it is answered 404 on its own). Sandbox requests already hold their
 * transaction's connection: queueing them would not spare one, so they go straight on.
 */
export function resourceWrite<T>(ctx: Pick<Ctx, 'accountId' | 'sandbox'>, resource: string, id: string, fn: () => Promise<T>): Promise<T> {
  if (ctx.sandbox) return fn();
  return oneAtATime(`${ctx.accountId}/${resource}/${id}`, fn);
}
