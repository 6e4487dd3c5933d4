// The database faults of a drill, done from a connection to ANOTHER database of the same server
// (the maintenance database `postgres` by default), so they never cut the drill's own connection:
// - terminate: pg_terminate_backend of every session of the target database (what a failover,
//   an administrator or idle_in_transaction_session_timeout does to a busy pool);
// - refuse: ALTER DATABASE … ALLOW_CONNECTIONS false, then terminate (new connections fail with
//   55000), until restore().
// Needs a role allowed to signal those sessions and to alter the database (a superuser, or the
// owner with pg_signal_backend).
import pg from 'pg';
import { guardPool } from '../../src/db/connection.ts';

export interface FaultConnection {
  /** Ends every session of `database`; how many there were. */
  terminate(database: string): Promise<number>;
  refuse(database: string): Promise<number>;
  restore(database: string): Promise<void>;
  close(): Promise<void>;
}

/** Quotes an identifier for SQL text (ALTER DATABASE takes no parameters). */
function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function faultConnection(adminUrl: string): FaultConnection {
  // A new connection is a forked, authenticated backend: on a machine at a load of 30 it took more
  // than 5 s, and the drill failed before its fault. The fault is the drill's, not its connection's.
  const pool = new pg.Pool({ connectionString: adminUrl, max: 1, connectionTimeoutMillis: 60_000 });
  guardPool(pool);
  const terminate = async (database: string) => {
    const res = await pool.query<{ n: number }>(
      'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    );
    return res.rows[0]!.n;
  };
  return {
    terminate,
    async refuse(database) {
      await pool.query(`ALTER DATABASE ${ident(database)} ALLOW_CONNECTIONS false`);
      return terminate(database);
    },
    async restore(database) {
      await pool.query(`ALTER DATABASE ${ident(database)} ALLOW_CONNECTIONS true`);
    },
    close: () => pool.end(),
  };
}

/** The database name of a connection URL. */
export function databaseOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}

/** The same server's maintenance database. */
export function maintenanceUrl(url: string, database = 'postgres'): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}
