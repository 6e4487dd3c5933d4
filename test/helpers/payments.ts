// Apps for payment tests: a second instance on the file's database with a pool of its own (as a
// second API process would have), the customer billing routes mounted at /panel/api/billing with a
// stand-in for the panel's session (headers name the account and, for a sub-user, its
// permissions), and helpers to walk the simulated checkout.
import { after } from 'node:test';
import { ApiError } from '../../src/core/errors.ts';
import type { BillingActor } from '../../src/core/payments/access.ts';
import type { Scope } from '../../src/core/types.ts';
import type { Config } from '../../src/config.ts';
import { connect } from '../../src/db/connection.ts';
import { type App, buildApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/http/logger.ts';
import { rateLimiterFor, servicesFor } from '../../src/runtime.ts';
import { createTelemetry } from '../../src/telemetry/index.ts';
import { type TestApp, call, json } from './app.ts';

export const PANEL = '/panel/api/billing';

// Registered at import time (the file's root context): from inside a `before` hook it would run at once.
const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
});

/** The stand-in session: `x-test-account`, and `x-test-permissions` (comma-separated) for a sub-user. */
export async function headerActor(request: { headers: Record<string, string | string[] | undefined> }): Promise<BillingActor> {
  const account = request.headers['x-test-account'];
  if (typeof account !== 'string') throw new ApiError('AUTH_REQUIRED', 'Sign in to the panel');
  const perms = request.headers['x-test-permissions'];
  return typeof perms === 'string'
    ? { accountId: account, subUserId: 1, permissions: perms.split(',').filter(Boolean) as Scope[] }
    : { accountId: account, subUserId: null, permissions: null };
}

/** Another app on the test file's database, with its own pool and the panel's billing routes. */
export async function instance(t: TestApp, overrides: Partial<Config> = {}): Promise<App> {
  const config: Config = { ...t.config, ...overrides };
  const database = connect(t.databaseUrl);
  const rateLimiter = rateLimiterFor(config);
  const telemetry = createTelemetry(createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'));
  const app = await buildApp({
    config, db: database.db, rateLimiter, adminToken: t.adminToken, telemetry, services: servicesFor(config, database.db),
    panelBilling: { prefix: PANEL, actorOf: headerActor },
  });
  closers.push(async () => {
    await app.close();
    await rateLimiter.close();
    await database.close();
  });
  return app;
}

export function customerCall(app: App, accountId: string, method: 'GET' | 'POST', path: string, body?: unknown, permissions?: string) {
  return call(app, method, `${PANEL}${path}`, { headers: { 'x-test-account': accountId, ...(permissions !== undefined ? { 'x-test-permissions': permissions } : {}) }, body });
}

/** Starts a top-up through the panel routes; answers the payment (with checkout_url). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function startTopUp(app: App, accountId: string, amount: string): Promise<any> {
  const res = await customerCall(app, accountId, 'POST', '/top-ups', { amount });
  if (res.statusCode !== 201) throw new Error(`top-up: ${res.statusCode} ${res.body}`);
  return json(res).data;
}

/** The checkout session id of a simulated checkout URL. */
export function sessionOf(checkoutUrl: string): string {
  return decodeURIComponent(new URL(checkoutUrl).pathname.split('/').pop()!);
}

/** Clicks a button of the simulated checkout page (a form POST). */
export function clickCheckout(app: App, session: string, action: 'pay' | 'decline', confirmation: 'now' | 'twice' | 'late' = 'now') {
  return app.inject({
    method: 'POST', url: `/payments/simulated/checkout/${encodeURIComponent(session)}`, remoteAddress: '127.0.0.1',
    headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `action=${action}&confirmation=${confirmation}`,
  });
}
