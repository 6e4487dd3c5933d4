// Web-hosting fixtures: orders through the API, provisioned by the file's embedded worker
// (startApp({ worker: 'embedded' })), and the hosting panel's fault switch.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { type Customer, type TestApp, adminCall, call, json, waitForOperation } from './app.ts';
import type { Json } from './servers.ts';

/** Seeded hosting packages: Web Starter 3.99/39.90, Web Business 9.99/99.90, Web Agency 24.99/249.90; Web Classic is inactive. */
export const STARTER = 1;
export const BUSINESS = 2;
export const AGENCY = 3;
export const CLASSIC_INACTIVE = 4;

export const uniqueDomain = (prefix = 'site') => `${prefix}-${randomBytes(4).toString('hex')}.com`;

export function orderBody(overrides: Record<string, unknown> = {}) {
  return { domain: uniqueDomain(), package_id: STARTER, ...overrides };
}

/** POST /v2/web-hosting; asserts 201 and returns `data` (account + operation). */
export async function orderHosting(t: TestApp, c: Customer, overrides: Record<string, unknown> = {}): Promise<Json> {
  const res = await call(t.app, 'POST', '/v2/web-hosting', { key: c.key, body: orderBody(overrides) });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data;
}

/** An account the worker has provisioned (status active). */
export async function activeHosting(t: TestApp, c: Customer, overrides: Record<string, unknown> = {}): Promise<Json> {
  const created = await orderHosting(t, c, overrides);
  const op = await waitForOperation(t, c.key, created.operation.id);
  assert.equal(op.status, 'completed', `provisioning failed: ${op.detail}`);
  const res = await call(t.app, 'GET', `/v2/web-hosting/${created.id}`, { key: c.key });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(json(res).data.status, 'active');
  return json(res).data;
}

export async function setPanelFault(t: TestApp, fault: { mode: string; remaining?: number | null; calls?: string[] }): Promise<void> {
  const res = await adminCall(t, 'PUT', '/admin/v1/providers/hosting/fault', fault);
  assert.equal(res.statusCode, 200, res.body);
}

/** Runs `fn` while the panel fails `calls` with `mode`; the switch is cleared whatever happens. */
export async function withPanelFault<T>(t: TestApp, mode: string, calls: string[], fn: () => Promise<T>): Promise<T> {
  await setPanelFault(t, { mode, calls, remaining: null });
  try {
    return await fn();
  } finally {
    await setPanelFault(t, { mode: 'none' });
  }
}

/** Sets every panel server's capacity (0: the panel is full). */
export async function setPanelCapacity(t: TestApp, capacity: number): Promise<void> {
  await t.database.db.updateTable('sim_hosting_servers').set({ capacity }).execute();
}
