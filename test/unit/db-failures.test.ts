// The one mapping of database errors to answers (src/db/failures.ts → toApiError): "the database
// is unavailable" is 503 SERVICE_UNAVAILABLE with Retry-After, never a 500; and the process
// guard that keeps serve/worker alive through such faults but exits on unknown ones.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import pg from 'pg';
import { faultHandler, isKnownFault } from '../../src/cli/process-guard.ts';
import { ApiError } from '../../src/core/errors.ts';
import { classifyDatabaseError, isDatabaseUnavailable, markConnectFailure } from '../../src/db/failures.ts';
import { createLogger } from '../../src/http/logger.ts';
import { toApiError } from '../../src/http/errors.ts';

/** An error as node-postgres raises it for a server message with this SQLSTATE. */
function pgError(code: string, message = `server said ${code}`): Error {
  const e = new pg.DatabaseError(message, 0, 'error');
  e.code = code;
  return e;
}

function socketError(code: string): Error {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });
}

function assert503(err: unknown, retryAfter = '2') {
  const api = toApiError(err);
  assert.ok(api instanceof ApiError, `${String((err as Error).message)} maps to an ApiError`);
  assert.equal(api.code, 'SERVICE_UNAVAILABLE', (err as Error).message);
  assert.equal(String(api.hints.retryAfterS), retryAfter);
  assert.equal(api.errors.length, 0);
  assert.ok(!/SQLSTATE|server said|127\.0\.0\.1/.test(api.message), 'no internals in the message');
}

test('connection exceptions, shutdowns and a full server are "unavailable": 503 with Retry-After: 2', () => {
  for (const code of ['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006', '08007', '08P01']) {
    assert.equal(classifyDatabaseError(pgError(code)), 'unavailable', code);
    assert503(pgError(code));
  }
});

test('socket errors and the driver\'s own messages are "unavailable"', () => {
  for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']) assert503(socketError(code));
  for (const message of [
    'timeout exceeded when trying to connect',
    'Connection terminated unexpectedly',
    'Connection terminated',
    'Connection terminated due to connection timeout',
    'Client has encountered a connection error and is not queryable',
    'Client was closed and is not queryable',
    'Query read timeout',
  ]) assert503(new Error(message));
});

test('at connect time, 55000 (not accepting connections), 3D000 (no such database) and 28P01 (bad password) are "unavailable"', () => {
  for (const code of ['55000', '3D000', '28P01', '28000', '57P03', '53300']) {
    assert503(markConnectFailure(pgError(code)));
  }
  assert503(markConnectFailure(new Error('self-signed certificate')), '2');
});

test('the same codes from a query (not a connect) are not an outage: a bug stays a 500', () => {
  for (const code of ['55000', '3D000', '28P01', '42P01', '23505', '42601']) {
    assert.equal(classifyDatabaseError(pgError(code)), null, code);
    assert.equal(toApiError(pgError(code)), null, code);
  }
  assert.equal(toApiError(new Error('something else')), null);
  assert.equal(toApiError(undefined), null);
  assert.equal(toApiError('a string'), null);
});

test('contention (statement/lock timeout, deadlock, serialization) is 503 with Retry-After: 1', () => {
  for (const code of ['57014', '55P03', '40P01', '40001']) {
    assert.equal(classifyDatabaseError(pgError(code)), 'contention', code);
    assert503(pgError(code), '1');
    assert.equal(isDatabaseUnavailable(pgError(code)), false, 'the worker does not pause for contention');
  }
});

test('text PostgreSQL cannot store is 422, not 500', () => {
  for (const code of ['22021', '22P05']) {
    const api = toApiError(pgError(code));
    assert.equal(api?.code, 'VALIDATION_FAILED');
  }
});

test('a failure wrapped in an AggregateError is judged by its parts', () => {
  assert503(new AggregateError([new Error('x'), socketError('ECONNREFUSED')], 'all failed'));
  assert.equal(toApiError(new AggregateError([new Error('x')], 'all failed')), null);
});

test('an ApiError passes through unchanged', () => {
  const e = new ApiError('STATE_CONFLICT', 'busy');
  assert.equal(toApiError(e), e);
});

test('process guard: a database or Redis fault is logged and the process carries on; anything else is logged and exits 1', () => {
  const lines: string[] = [];
  const logger = createLogger('info', new Writable({ write(chunk, _e, cb) { lines.push(String(chunk)); cb(); } }));
  const exits: number[] = [];
  const handle = faultHandler(logger, (code) => exits.push(code));

  handle('unhandledRejection', pgError('57P01', 'terminating connection due to administrator command'));
  handle('uncaughtException', new Error('Connection terminated unexpectedly'));
  handle('unhandledRejection', new Error('Connection is closed.'));
  assert.deepEqual(exits, [], 'known faults do not end the process');
  assert.equal(lines.length, 3, 'but each is logged');
  assert.match(lines[0]!, /"level":50/);
  assert.match(lines[0]!, /57P01/);

  handle('uncaughtException', new TypeError('Cannot read properties of undefined'));
  assert.deepEqual(exits, [1], 'an unknown failure ends the process with code 1');
  assert.match(lines[3]!, /"level":60/);
  assert.match(lines[3]!, /Cannot read properties of undefined/);
  handle('unhandledRejection', 'a bare string');
  assert.deepEqual(exits, [1, 1]);

  assert.equal(isKnownFault(socketError('ECONNREFUSED')), true);
  assert.equal(isKnownFault(new RangeError('x')), false);
});
