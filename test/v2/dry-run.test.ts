// `Dry-Run: true` on a write that charges or refunds: the request runs as it would and is undone.
// The answer is the live one's with meta.dry_run naming what it would charge, refund and leave —
// and that amount is exactly what the same request then charges for real. Nothing is kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { orderBody } from '../helpers/hosting.ts';
import { balanceCents } from '../helpers/server-actions.ts';
import { serverBody } from '../helpers/servers.ts';

const t = await startApp({ worker: 'embedded', simDelayMs: 5 });
const DRY = { 'dry-run': 'true' };

const cents = (m: { amount: string }) => Math.round(Number(m.amount) * 100);

/** Sends the request dry, then live; returns both answers and what the live one charged (negative: refunded). */
async function dryThenLive(c: { key: string; accountId: string }, method: 'POST' | 'DELETE', url: string, body?: unknown) {
  const before = await balanceCents(t, c.accountId);
  const dry = await call(t.app, method, url, { key: c.key, headers: DRY, ...(body === undefined ? {} : { body }) });
  assert.equal(await balanceCents(t, c.accountId), before, `${url}: a dry run changed the balance`);
  const live = await call(t.app, method, url, { key: c.key, ...(body === undefined ? {} : { body }) });
  const charged = before - await balanceCents(t, c.accountId);
  return { dry, live, charged, before };
}

function assertMatches(r: Awaited<ReturnType<typeof dryThenLive>>, label: string) {
  assert.equal(r.dry.statusCode, r.live.statusCode, `${label}: ${r.dry.body}`);
  const d = json(r.dry).meta.dry_run;
  assert.ok(d, `${label}: no meta.dry_run in ${r.dry.body}`);
  assert.equal(cents(d.charged) - cents(d.refunded), r.charged, `${label}: dry run said ${d.charged.amount} charged, ${d.refunded.amount} refunded; live moved ${r.charged}`);
  assert.equal(cents(d.balance_after), r.before - r.charged, label);
  assert.equal(json(r.live).meta.dry_run, undefined);
}

test('server create, snapshot, extra address, resize, upgrade and delete: the dry run names what the live request then charges or refunds', async () => {
  const c = await createCustomer(t, { deposit: '200.00' });
  const create = await dryThenLive(c, 'POST', '/v2/servers', serverBody({ name: 'dry-1.example.com' }));
  assertMatches(create, 'create');
  assert.equal(cents(json(create.dry).meta.dry_run.charged), 500);
  // The dry run stored nothing: one server, the live one.
  const list = json(await call(t.app, 'GET', '/v2/servers', { key: c.key }));
  assert.deepEqual(list.data.map((s: { name: string }) => s.name), ['dry-1.example.com']);
  const id = json(create.live).data.id as string;
  assert.equal((await waitForOperation(t, c.key, json(create.live).data.operation.id)).status, 'completed');

  const snapshot = await dryThenLive(c, 'POST', `/v2/servers/${id}/snapshots`, { name: 'before' });
  assertMatches(snapshot, 'snapshot');
  await settle(c.key, snapshot.live);
  const ip = await dryThenLive(c, 'POST', `/v2/servers/${id}/ips`, { version: 4 });
  assertMatches(ip, 'extra address');
  await settle(c.key, ip.live);
  const resize = await dryThenLive(c, 'POST', `/v2/servers/${id}/actions/resize`, { ram_gb: 2, disk_gb: 40 });
  assertMatches(resize, 'resize');
  assert.ok(resize.charged > 0);
  await settle(c.key, resize.live);
  const other = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ name: 'dry-2.example.com' }) });
  const otherId = json(other).data.id as string;
  await settle(c.key, other);
  const upgrade = await dryThenLive(c, 'POST', `/v2/servers/${otherId}/actions/upgrade`, { package_id: 2 });
  assertMatches(upgrade, 'upgrade');
  await settle(c.key, upgrade.live);
  const del = await dryThenLive(c, 'DELETE', `/v2/servers/${otherId}`);
  assertMatches(del, 'delete');
  assert.ok(cents(json(del.dry).meta.dry_run.refunded) > 0, del.dry.body);
});

test('domain registration and renewal, a hosting order: the dry run names the price the live request then charges', async () => {
  const c = await createCustomer(t, { deposit: '200.00' });
  const reg = await dryThenLive(c, 'POST', '/v2/domains', { domain: 'dry-run-example.com', years: 2 });
  assertMatches(reg, 'register');
  assert.equal(json(await call(t.app, 'GET', '/v2/domains', { key: c.key })).meta.pagination.total, 1);
  const domainId = json(reg.live).data.id;
  await waitForOperation(t, c.key, json(reg.live).data.operation.id);
  assertMatches(await dryThenLive(c, 'POST', `/v2/domains/${domainId}/renew`, { years: 1 }), 'renew');
  assertMatches(await dryThenLive(c, 'POST', '/v2/web-hosting', orderBody({ domain: 'dry-site.example.com' })), 'hosting order');
});

test('a dry run answers the errors the live request would: unaffordable 402-style refusal, bad input 422, another account 404, a bad header value 422', async () => {
  const poor = await createCustomer(t, { deposit: '1.00' });
  const dry = await call(t.app, 'POST', '/v2/servers', { key: poor.key, headers: DRY, body: serverBody() });
  const live = await call(t.app, 'POST', '/v2/servers', { key: poor.key, body: serverBody() });
  assert.equal(dry.statusCode, live.statusCode);
  assert.equal(json(dry).error.code, json(live).error.code);
  assert.equal(json(dry).error.code, 'INSUFFICIENT_BALANCE');

  const bad = await call(t.app, 'POST', '/v2/servers', { key: poor.key, headers: DRY, body: serverBody({ plan_id: 'x' }) });
  assert.equal(bad.statusCode, 422);

  const owner = await createCustomer(t, { deposit: '50.00' });
  const s = json(await call(t.app, 'POST', '/v2/servers', { key: owner.key, body: serverBody() })).data;
  const stranger = await call(t.app, 'POST', `/v2/servers/${s.id}/snapshots`, { key: poor.key, headers: DRY, body: { name: 'x' } });
  assert.equal(stranger.statusCode, 404);
  assert.equal(json(stranger).error.code, 'RESOURCE_NOT_FOUND');

  const maybe = await call(t.app, 'POST', '/v2/servers', { key: owner.key, headers: { 'dry-run': 'maybe' }, body: serverBody() });
  assert.equal(maybe.statusCode, 422);
  assert.match(maybe.body, /Dry-Run/);
});

test('a dry run keeps no Idempotency-Key: the live request with the same key then runs and charges', async () => {
  const c = await createCustomer(t, { deposit: '50.00' });
  const key = '0e5a4c1e-0d0a-4b8e-9a57-6f1d2c3b4a59';
  const body = serverBody();
  const dry = await call(t.app, 'POST', '/v2/servers', { key: c.key, headers: { ...DRY, 'idempotency-key': key }, body });
  assert.equal(dry.statusCode, 201, dry.body);
  const before = await balanceCents(t, c.accountId);
  const live = await call(t.app, 'POST', '/v2/servers', { key: c.key, headers: { 'idempotency-key': key }, body });
  assert.equal(live.statusCode, 201);
  assert.equal(live.headers['idempotent-replayed'], undefined);
  assert.equal(before - await balanceCents(t, c.accountId), 500);
});

/** Waits for the operation a live answer started, if it started one (anything found in its data). */
async function settle(key: string, res: { body: string }) {
  const data = JSON.parse(res.body).data ?? {};
  const op = data.operation?.id ?? data.server?.operation?.id;
  if (op) await waitForOperation(t, key, op);
}
