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
import { type TestApp, adminCall, call, json } from './app.ts';

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

export const STRIPE_SECRET = 'whsec_test_hostcloud_secret';

/**
 * A stand-in for Stripe's API on 127.0.0.1 (what STRIPE_API_URL points at): Checkout Sessions are
 * created, retrieved and completed here, refunds recorded. The `stripe` package talks to it as to
 * Stripe (form-encoded requests, JSON answers).
 */
export async function fakeStripe() {
  const { createServer } = await import('node:http');
  const sessions = new Map<string, Record<string, unknown>>();
  // Refunds as Stripe keeps them: one per idempotency key (a request repeated with its key gets the
  // first answer and refunds nothing more), and every request that reached the refund endpoint.
  const refunds: { payment_intent: string; amount: number; key: string | undefined }[] = [];
  const refundRequests: { payment_intent: string; amount: number; key: string | undefined }[] = [];
  const refundByKey = new Map<string, Record<string, unknown>>();
  const byKey = new Map<string, Record<string, unknown>>();
  /** How the next refund requests fail: 'error' (a 500, which the package retries), 'refused' (a final 400), or not. */
  const control: { refundFailure: 'error' | 'refused' | null } = { refundFailure: null };
  let n = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const send = (status: number, obj: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(obj));
      };
      const key = req.headers['idempotency-key'] as string | undefined;
      if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
        if (key && byKey.has(key)) return send(200, byKey.get(key));
        const id = `cs_test_${++n}_${Math.random().toString(36).slice(2, 10)}`;
        const s = {
          id, object: 'checkout.session', url: `https://checkout.stripe.test/c/pay/${id}`, status: 'open', payment_status: 'unpaid',
          amount_total: Number(form.get('line_items[0][price_data][unit_amount]')), currency: form.get('line_items[0][price_data][currency]'),
          client_reference_id: form.get('client_reference_id'), metadata: { payment_id: form.get('metadata[payment_id]') }, payment_intent: null,
          customer_email: form.get('customer_email'), success_url: form.get('success_url'), cancel_url: form.get('cancel_url'),
        };
        sessions.set(id, s);
        if (key) byKey.set(key, s);
        return send(200, s);
      }
      const m = /^\/v1\/checkout\/sessions\/([^/?]+)/.exec(req.url ?? '');
      if (req.method === 'GET' && m) {
        const s = sessions.get(decodeURIComponent(m[1]!));
        return s ? send(200, s) : send(404, { error: { type: 'invalid_request_error', message: 'No such checkout.session' } });
      }
      if (req.method === 'POST' && req.url === '/v1/refunds') {
        const r = { payment_intent: form.get('payment_intent')!, amount: Number(form.get('amount')), key };
        refundRequests.push(r);
        if (control.refundFailure === 'error') return send(500, { error: { type: 'api_error', message: 'Something went wrong on Stripe' } });
        if (control.refundFailure === 'refused') return send(400, { error: { type: 'invalid_request_error', message: 'Charge has already been refunded' } });
        if (key && refundByKey.has(key)) return send(200, refundByKey.get(key));
        refunds.push(r);
        const answer = { id: `re_${refunds.length}`, object: 'refund', status: 'succeeded' };
        if (key) refundByKey.set(key, answer);
        return send(200, answer);
      }
      send(404, { error: { type: 'invalid_request_error', message: `no route ${req.method} ${req.url}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    url: `http://127.0.0.1:${port}`,
    sessions,
    refunds,
    refundRequests,
    control,
    /** The customer paid: the session completes (what Stripe's checkout page does). */
    complete(id: string): Record<string, unknown> {
      const s = sessions.get(id)!;
      Object.assign(s, { status: 'complete', payment_status: 'paid', payment_intent: `pi_${id.slice(8)}` });
      return s;
    },
  };
}

/**
 * The operator's company details, which a real provider needs before it takes a top-up (a new
 * database names only the demo seller, which serves simulated payments).
 */
export async function setSeller(t: TestApp): Promise<void> {
  const res = await adminCall(t, 'POST', '/admin/v1/invoice-settings', { company_name: 'Example Hosting GmbH', address: 'Hauptstr. 1\n10115 Berlin' });
  if (res.statusCode !== 200) throw new Error(`invoice settings: ${res.statusCode} ${res.body}`);
}

/** The settings of an instance that takes payments through the fake Stripe. */
export function stripeConfig(apiUrl: string): Partial<Config> {
  return { payments: 'stripe', stripeSecretKey: 'sk_test_hostcloud', stripeWebhookSecret: STRIPE_SECRET, stripeApiUrl: apiUrl };
}

/** A Stripe event about a Checkout Session, as Stripe posts it. */
export function stripeEvent(type: string, session: Record<string, unknown>, id = `evt_${Math.random().toString(36).slice(2, 14)}`): string {
  return JSON.stringify({ id, object: 'event', type, api_version: '2025-01-01', created: Math.floor(Date.now() / 1000), livemode: false, data: { object: session } });
}
