// Server fixtures: a customer's server created through the API and, when asked, provisioned by
// the file's embedded worker (startApp({ worker: 'embedded' })).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { type Customer, type TestApp, call, json, waitForOperation } from './app.ts';

export const PASSWORD = 'Str0ng!Passw0rd';

/** Seeded catalog ids: Cloud S (5.00/month), Frankfurt (primary), Ubuntu 24.04; Singapore is partner-routed. */
export const CLOUD_S = 1;
export const FRA = 1;
export const SINGAPORE = 4;
export const UBUNTU = 1;

export function serverBody(overrides: Record<string, unknown> = {}) {
  return { name: `web-${randomBytes(4).toString('hex')}`, location_id: FRA, plan_id: CLOUD_S, os_version_id: UBUNTU, password: PASSWORD, ...overrides };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** POST /v2/servers; asserts 201 and returns `data` (server + operation). */
export async function createServer(t: TestApp, c: Customer, overrides: Record<string, unknown> = {}): Promise<Json> {
  const res = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody(overrides) });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data;
}

/** A server that the worker has provisioned (status active, power running). */
export async function activeServer(t: TestApp, c: Customer, overrides: Record<string, unknown> = {}): Promise<Json> {
  const created = await createServer(t, c, overrides);
  const op = await waitForOperation(t, c.key, created.operation.id);
  assert.equal(op.status, 'completed', `provisioning failed: ${op.detail}`);
  const res = await call(t.app, 'GET', `/v2/servers/${created.id}`, { key: c.key });
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data;
}
