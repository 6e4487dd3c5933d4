// Counting what a process sends to PostgreSQL, for tests that hold a route to its round trips.
import pg from 'pg';

let sent: string[] | undefined;
let installed = false;

const listener = (c: pg.Client) => Boolean((c as unknown as { connectionParameters?: { application_name?: string } }).connectionParameters?.application_name);

/**
 * Wraps pg's Client.query so that statementsOf can record. Call it before the app's pools connect:
 * named statements (src/db/prepared.ts) bind a connection's query when it is made.
 */
export function countStatements(): void {
  if (installed) return;
  installed = true;
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const q = args[0];
    // The listen connections (src/db/notify-listener.ts, the only clients with an
    // application_name) probe every 5 s: on a busy machine a probe fell inside a counted window.
    if (!listener(this)) sent?.push(typeof q === 'string' ? q : String((q as { text?: string }).text));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
}

/** Every statement the process's pg clients send while `fn` runs. */
export async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
  sent = [];
  try {
    await fn();
    return sent;
  } finally {
    sent = undefined;
  }
}

/** The fewest statements of `runs` runs of `fn` (what else the process does meanwhile — a key's last_used_at — is not the route's). */
export async function fewestStatements(runs: number, fn: () => Promise<void>): Promise<string[]> {
  let least: string[] | undefined;
  for (let i = 0; i < runs; i++) {
    const one = await statementsOf(fn);
    if (!least || one.length < least.length) least = one;
  }
  return least!;
}
