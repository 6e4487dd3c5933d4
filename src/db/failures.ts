// What a database error means to a caller, decided in one place: the HTTP adapters (v2, admin,
// v1) map it to an answer through toApiError (src/http/errors.ts), and the worker pauses on the
// same "unavailable" verdict. No SQL here, only the error's code and shape.
import { isStalePlan } from './prepared.ts';

/**
 * The database cannot serve us right now — down, restarting, failing over, refusing connections,
 * out of connection slots, or the connection was cut. The client should retry, not report a bug.
 * - class 08: connection exceptions (08000, 08003, 08006, 08001, 08004, 08P01…);
 * - 57P01 admin_shutdown (pg_terminate_backend, a fast shutdown), 57P02 crash_shutdown,
 *   57P03 cannot_connect_now (starting up, or recovery);
 * - 53300 too_many_connections;
 * - 25006 read_only_sql_transaction: a write reached a standby — the old primary of a failover or
 *   switchover, or a proxy that still routes to it (the connection is dropped: see connection.ts);
 * - socket errors of the driver.
 */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300', '25006', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Errors the driver raises without a code when the connection is gone or cannot be had: the
 * pool's own connect timeout, a socket closed under a query (or under the ROLLBACK after it), a
 * client already broken by an earlier error, a query that got no answer within the read timeout.
 */
const UNAVAILABLE_MESSAGES = /timeout exceeded when trying to connect|Connection terminated|not queryable|Query read timeout|Connection ended unexpectedly/;

/**
 * Transient contention: the statement was cancelled by statement_timeout (57014), or the
 * transaction lost a deadlock (40P01), a serialization race (40001) or waited past lock_timeout
 * (55P03). The transaction was rolled back whole, so a retry is safe. A prepared statement that a
 * migration made stale inside a transaction counts too.
 */
const CONTENTION_CODES = new Set(['57014', '40P01', '40001', '55P03']);

/** Text PostgreSQL cannot store: NUL in text (22P05) or bytes invalid in the encoding (22021). */
const BAD_TEXT_CODES = new Set(['22021', '22P05']);

/** Marks an error raised while connecting (see markConnectFailure). */
const CONNECT_FAILURE = Symbol('hostcloud.connectFailure');

/**
 * Tags an error that came out of taking a connection from the pool. Anything that stops us from
 * connecting is "the database is unavailable" to a client, whatever the server said: 55000 (the
 * database does not allow connections now), 3D000 (it does not exist — dropped, or not yet
 * restored), 28P01 / 28000 (credentials rotated under us), 57P03, 53300, a refused socket.
 */
export function markConnectFailure(err: unknown): unknown {
  if (typeof err === 'object' && err !== null) (err as Record<symbol, boolean>)[CONNECT_FAILURE] = true;
  return err;
}

function codeOf(err: unknown): string | undefined {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

export type DatabaseFault = 'unavailable' | 'contention' | 'bad_text';

/** The meaning of a database error for a caller, or null for anything else (a bug, a rule). */
export function classifyDatabaseError(err: unknown): DatabaseFault | null {
  if (typeof err !== 'object' || err === null) return null;
  if ((err as Record<symbol, unknown>)[CONNECT_FAILURE] === true) return 'unavailable';
  // A failure inside Promise.all/any can arrive wrapped; its parts decide.
  if (err instanceof AggregateError) {
    for (const e of err.errors) {
      const inner = classifyDatabaseError(e);
      if (inner) return inner;
    }
  }
  const code = codeOf(err);
  // A prepared statement a concurrent migration made stale (prepared.ts): the next try is unnamed.
  if (isStalePlan(err)) return 'contention';
  if (code !== undefined) {
    if (UNAVAILABLE_CODES.has(code) || code.startsWith('08')) return 'unavailable';
    if (CONTENTION_CODES.has(code)) return 'contention';
    if (BAD_TEXT_CODES.has(code)) return 'bad_text';
  }
  if (err instanceof Error && UNAVAILABLE_MESSAGES.test(err.message)) return 'unavailable';
  return null;
}

export function isDatabaseUnavailable(err: unknown): boolean {
  return classifyDatabaseError(err) === 'unavailable';
}
