// POST /v2/web-hosting: the order, its checks in order (input, package, state, room, balance), the
// money (first cycle charged with the row, refunded in full when provisioning finally fails),
// Idempotency-Key, and the races (a balance that covers some orders, two accounts and one domain).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { domainToASCII } from 'node:url';
import { before, describe, test } from 'node:test';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import {
  AGENCY, BUSINESS, CLASSIC_INACTIVE, STARTER, activeHosting, orderBody, orderHosting, setPanelCapacity, setPanelFault, uniqueDomain, withPanelFault,
} from '../helpers/hosting.ts';
import { assertError, assertInvalid, assertLedgerExact, balanceCents } from '../helpers/server-extras.ts';
import { eventually, logLines, metric } from '../telemetry/helpers.ts';

let t: TestApp;
let c: Customer;

before(async () => {
  // One retry a second after a retryable failure: a failing create gives up within a few seconds.
  t = await startApp({ worker: 'embedded', jobRetryLimit: 1 });
  c = await createCustomer(t, { deposit: '500.00' });
});

const post = (body: unknown, key = c.key, headers: Record<string, string> = {}) => call(t.app, 'POST', '/v2/web-hosting', { key, body, headers });
const hostingRows = (domain: string) => t.database.db.selectFrom('web_hosting').selectAll().where('domain', '=', domain).execute();
/** Waits for the provisioning of orders a test made, so no later test's fault switch reaches them. */
const settle = (...orders: { operation: { id: string } }[]) => Promise.all(orders.map((o) => waitForOperation(t, c.key, o.operation.id)));
const transactionsOf = async (cust: Customer) => json(await call(t.app, 'GET', '/v2/billing/transactions?per_page=100', { key: cust.key })).data;

describe('201: the order', () => {
  test('the account (pending) field by field, its operation, and the first monthly cycle charged with it', async () => {
    const before = await balanceCents(t, c);
    const domain = uniqueDomain('shape');
    const res = await post({ domain, package_id: STARTER });
    assert.equal(res.statusCode, 201, res.body);
    const { data, meta } = json(res);
    assert.deepEqual(Object.keys(data).sort(), ['billing', 'created_at', 'disk_usage', 'domain', 'id', 'operation', 'plan', 'server', 'status']);
    assert.match(data.id, /^wh_[0-9A-Za-z]{16}$/);
    assert.equal(data.domain, domain);
    assert.equal(data.status, 'pending');
    assert.deepEqual(data.plan, { id: STARTER, name: 'Web Starter' });
    assert.equal(data.server, null);
    assert.deepEqual(data.disk_usage, { used_mb: null, quota_mb: 10240 });
    assert.deepEqual(Object.keys(data.billing).sort(), ['amount', 'currency', 'cycle', 'next_billing_at']);
    assert.equal(data.billing.amount, '3.99');
    assert.equal(data.billing.currency, 'USD');
    assert.equal(data.billing.cycle, 'monthly');
    const created = Date.parse(data.created_at);
    assert.ok(Math.abs(created - Date.now()) < 60_000);
    const next = new Date(created);
    next.setUTCMonth(next.getUTCMonth() + 1);
    assert.ok(Math.abs(Date.parse(data.billing.next_billing_at) - next.getTime()) <= 4 * 86_400_000, 'one month on');
    assert.match(data.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(data.operation.type, 'hosting.create');
    assert.equal(data.operation.status, 'queued');
    assert.deepEqual(data.operation.resource, { type: 'web_hosting', id: data.id });
    assert.match(data.operation.id, /^op_/);
    assert.equal(meta.sandbox, undefined);
    assert.equal(await balanceCents(t, c), before - 399);
    const [charge] = await transactionsOf(c);
    assert.equal(charge.type, 'withdraw');
    assert.deepEqual(charge.amount, { amount: '3.99', currency: 'USD' });
    assert.match(charge.description, new RegExp(`^Web hosting ${domain.replace(/\./g, '\\.')} \\(${data.id}\\), Web Starter: first monthly cycle, 3\\.99 USD$`));

    // Provisioned: active, on a panel server, with live disk usage.
    const op = await waitForOperation(t, c.key, data.operation.id);
    assert.equal(op.status, 'completed', op.detail);
    assert.match(op.detail, /^The hosting account is active \([a-z][a-z0-9]{0,15} on web[12]\.[a-z0-9]+\.panel\.hostcloud\.example\)$/);
    const detail = json(await call(t.app, 'GET', `/v2/web-hosting/${data.id}`, { key: c.key })).data;
    assert.equal(detail.status, 'active');
    assert.match(detail.server.hostname, /^web[12]\.[a-z0-9]+\.panel\.hostcloud\.example$/);
    assert.equal(typeof detail.disk_usage.used_mb, 'number');
    assert.equal(detail.billing.next_billing_at, data.billing.next_billing_at);
    await assertLedgerExact(t, c);

    // Logs and metrics of the work: the charge and the operation name the account, panel calls are counted.
    const charged = logLines(t, 'billing charge').find((l) => l.resource === `web_hosting/${data.id}`);
    assert.equal(charged?.amount, '3.99');
    await eventually(() => logLines(t, 'operation completed').some((l) => l.operation_id === data.operation.id), 'the completed line');
    assert.equal(logLines(t, 'operation completed').find((l) => l.operation_id === data.operation.id)!.resource, `web_hosting/${data.id}`);
    assert.ok(await metric(t, 'hostcloud_provider_calls_total', { provider: 'hosting', method: 'createAccount' }) >= 1);
    assert.ok(await metric(t, 'hostcloud_provider_calls_total', { provider: 'hosting', method: 'listServers' }) >= 1);
  });

  test('yearly: the package\'s yearly price, next billing a year on; monthly is the default', async () => {
    const before = await balanceCents(t, c);
    const yearly = await orderHosting(t, c, { package_id: BUSINESS, billing_cycle: 'yearly' });
    assert.equal(yearly.billing.cycle, 'yearly');
    assert.equal(yearly.billing.amount, '99.90');
    const days = (Date.parse(yearly.billing.next_billing_at) - Date.parse(yearly.created_at)) / 86_400_000;
    assert.ok(days >= 365 && days <= 366, `${days} days`);
    const monthly = await orderHosting(t, c, { package_id: AGENCY, billing_cycle: 'monthly' });
    assert.equal(monthly.billing.amount, '24.99');
    assert.equal(await balanceCents(t, c), before - 9990 - 2499);
    const [last] = await transactionsOf(c);
    assert.match(last.description, /Web Agency: first monthly cycle, 24\.99 USD$/);
    assert.match((await transactionsOf(c))[1].description, /Web Business: first yearly cycle, 99\.90 USD$/);
    await settle(yearly, monthly);
  });

  test('the domain is normalised: case, a trailing dot, IDN as punycode; subdomains and any TLD are accepted', async () => {
    const idn = await orderHosting(t, c, { domain: 'Bücher-Shop.EXAMPLE.' });
    assert.equal(idn.domain, domainToASCII('bücher-shop.example'));
    assert.match(idn.domain, /^xn--bcher-shop-[a-z0-9]+\.example$/);
    const sub = await orderHosting(t, c, { domain: 'blog.my-site.co.uk' });
    assert.equal(sub.domain, 'blog.my-site.co.uk');
    const [op] = await settle(idn, sub);
    assert.match(op!.detail, /\(bchershop[a-z0-9]* on /);
  });
});

describe('errors, in order: input, package, state, room, balance', () => {
  const codeOf = async (body: unknown, key = c.key) => {
    const res = await post(body, key);
    return { status: res.statusCode, code: json(res).error?.code, fields: (json(res).error?.errors ?? []).map((e: { field: string }) => e.field) };
  };
  const invalid = (fields: string[]) => ({ status: 422, code: 'VALIDATION_FAILED', fields });

  test('VALIDATION_FAILED: missing, wrong-typed, unknown, oversize and NUL fields; nothing charged', async () => {
    const before = await balanceCents(t, c);
    assert.deepEqual((await codeOf({})).fields.sort(), ['domain', 'package_id']);
    assert.deepEqual(await codeOf(orderBody({ domain: 42 })), invalid(['domain']));
    assert.deepEqual(await codeOf(orderBody({ domain: '' })), invalid(['domain']));
    assert.deepEqual(await codeOf(orderBody({ domain: `${'a'.repeat(250)}.com` })), invalid(['domain']));
    assert.deepEqual(await codeOf(orderBody({ domain: 'exa\u0000mple.com' })), invalid(['domain']));
    assert.deepEqual(await codeOf(orderBody({ package_id: '1' })), invalid(['package_id']));
    assert.deepEqual(await codeOf(orderBody({ package_id: 0 })), invalid(['package_id']));
    assert.deepEqual(await codeOf(orderBody({ package_id: 1.5 })), invalid(['package_id']));
    assert.deepEqual(await codeOf(orderBody({ billing_cycle: 'weekly' })), invalid(['billing_cycle']));
    assert.deepEqual(await codeOf(orderBody({ billing_cycle: 12 })), invalid(['billing_cycle']));
    assert.deepEqual(await codeOf(orderBody({ billing_cycle: null })), invalid(['billing_cycle']));
    assert.deepEqual(await codeOf(orderBody({ colour: 'red' })), invalid(['colour']));
    assert.deepEqual(await codeOf([orderBody()]), invalid(['body']));
    assert.equal(await balanceCents(t, c), before);
  });

  test('VALIDATION_FAILED: a domain that is not a domain name, said why', async () => {
    const cases: [string, RegExp][] = [
      ['not a domain', /only letters, digits, hyphens and dots/],
      ['-bad.com', /starts or ends with a hyphen/],
      ['localhost', /a name and a TLD/],
      ['192.168.0.1', /numeric TLD/],
      ['a..com', /empty label/],
      [`${'x'.repeat(64)}.com`, /longer than 63/],
      ['http://example.com', /only letters, digits, hyphens and dots/],
    ];
    for (const [domain, why] of cases) {
      const res = await post(orderBody({ domain }));
      assertInvalid(res, ['domain']);
      assert.match(json(res).error.errors[0].message, why, domain);
    }
  });

  test('VALIDATION_FAILED: any spelling of an IP address (hex, octal, partial, one number), which the URL parser would turn into 127.0.0.1; nothing charged or stored', async () => {
    const before = await balanceCents(t, c);
    for (const domain of ['0x7f000001', '0177.0.0.1', '127.1', '2130706433', '１２７.０.０.１', '0x7f.1', '127.0.0.1']) {
      const res = await post(orderBody({ domain }));
      assertInvalid(res, ['domain']);
      assert.match(json(res).error.errors[0].message, /an IP address, in any spelling, is not a domain name/, domain);
    }
    assert.deepEqual(await hostingRows('127.0.0.1'), []);
    assert.equal(await balanceCents(t, c), before);
  });

  test('VALIDATION_FAILED: an unknown or inactive package, named', async () => {
    let res = await post(orderBody({ package_id: 999 }));
    assertInvalid(res, ['package_id']);
    assert.match(json(res).error.errors[0].message, /no such hosting package \(see GET \/web-hosting-packages\)/);
    res = await post(orderBody({ package_id: CLASSIC_INACTIVE }));
    assertInvalid(res, ['package_id']);
    assert.match(json(res).error.errors[0].message, /Web Classic is no longer sold/);
  });

  test('input and package come before the balance: a poor customer with a bad order is told what is wrong', async () => {
    const poor = await createCustomer(t, { deposit: '1.00' });
    assertInvalid(await post(orderBody({ package_id: 999 }), poor.key), ['package_id']);
    assertInvalid(await post(orderBody({ domain: 'no' }), poor.key), ['domain']);
    const res = await post(orderBody(), poor.key);
    assertError(res, 422, 'INSUFFICIENT_BALANCE');
    assert.match(json(res).error.message, /Balance 1\.00 USD is less than the 3\.99 USD this costs/);
    assert.equal(await balanceCents(t, poor), 100);
    assert.equal(json(await call(t.app, 'GET', '/v2/web-hosting', { key: poor.key })).meta.pagination.total, 0);
  });

  test('409 STATE_CONFLICT: the domain has a live account (the caller\'s is named, another customer\'s is not); after a cancel it is free', async () => {
    const other = await createCustomer(t, { deposit: '50.00' });
    const mine = await activeHosting(t, c);
    let res = await post(orderBody({ domain: mine.domain.toUpperCase() }));
    assertError(res, 409, 'STATE_CONFLICT');
    assert.match(json(res).error.message, new RegExp(`already has a web hosting account \\(${mine.id}\\)`));
    assert.deepEqual(json(res).error.errors.map((e: { field: string }) => e.field), ['domain']);
    res = await post(orderBody({ domain: mine.domain }), other.key);
    assertError(res, 409, 'STATE_CONFLICT');
    assert.ok(!json(res).error.message.includes(mine.id), 'another customer learns no id');
    assert.equal(await balanceCents(t, other), 5000);
    // A pending account holds its domain too.
    const pending = await orderHosting(t, c);
    assertError(await post(orderBody({ domain: pending.domain }), other.key), 409, 'STATE_CONFLICT');
    await waitForOperation(t, c.key, pending.operation.id);

    const cancel = await call(t.app, 'POST', `/v2/web-hosting/${mine.id}/cancel`, { key: c.key, body: {} });
    assert.equal(cancel.statusCode, 200, cancel.body);
    await waitForOperation(t, c.key, json(cancel).data.operation.id);
    const again = await orderHosting(t, other, { domain: mine.domain });
    assert.equal((await waitForOperation(t, other.key, again.operation.id)).status, 'completed');
  });

  test('503 SERVICE_UNAVAILABLE with Retry-After when every panel server is full, before anything is charged', async () => {
    const before = await balanceCents(t, c);
    const domain = uniqueDomain('full');
    await setPanelCapacity(t, 0);
    try {
      const res = await post(orderBody({ domain }));
      assertError(res, 503, 'SERVICE_UNAVAILABLE');
      assert.equal(res.headers['retry-after'], '300');
      assert.match(json(res).error.message, /No hosting server has room/);
      // Validation still comes first.
      assertInvalid(await post(orderBody({ domain: 'no' })), ['domain']);
    } finally {
      await setPanelCapacity(t, 250);
    }
    assert.equal(await balanceCents(t, c), before);
    assert.deepEqual(await hostingRows(domain), []);
  });

  test('502 UPSTREAM_ERROR when the panel cannot say whether it has room; nothing charged', async () => {
    const before = await balanceCents(t, c);
    const domain = uniqueDomain('down');
    await withPanelFault(t, 'upstream_error', ['listServers'], async () => {
      const res = await post(orderBody({ domain }));
      assertError(res, 502, 'UPSTREAM_ERROR');
      assert.match(json(res).error.message, /hosting panel failed/);
    });
    assert.equal(await balanceCents(t, c), before);
    assert.deepEqual(await hostingRows(domain), []);
  });

  test('403 for a key without hosting:write; 401 without a key', async () => {
    const reader = await createCustomer(t, { deposit: '10.00', scopes: ['hosting:read'] });
    assertError(await post(orderBody(), reader.key), 403, 'AUTH_SCOPE_INSUFFICIENT');
    assertError(await call(t.app, 'POST', '/v2/web-hosting', { body: orderBody() }), 401, 'AUTH_REQUIRED');
  });
});

describe('its operation, by scope', () => {
  test('a hosting-scoped key polls its hosting.create operation; a servers-only key of the same account is refused it', async () => {
    const scoped = await createCustomer(t, { deposit: '50.00', scopes: ['hosting:read', 'hosting:write'] });
    const created = await orderHosting(t, scoped);
    const polled = await call(t.app, 'GET', `/v2/operations/${created.operation.id}`, { key: scoped.key });
    assert.equal(polled.statusCode, 200, polled.body);
    assert.equal(json(polled).data.type, 'hosting.create');
    const k = await adminCall(t, 'POST', `/admin/v1/accounts/${scoped.accountId}/api-keys`, { name: 'servers', ip_allowlist: ['127.0.0.1'], scopes: ['servers:read'] });
    assert.equal(k.statusCode, 201, k.body);
    const res = await call(t.app, 'GET', `/v2/operations/${created.operation.id}`, { key: json(k).data.key });
    assertError(res, 403, 'AUTH_SCOPE_INSUFFICIENT');
    assert.match(json(res).error.message, /hosting:read/);
    await waitForOperation(t, scoped.key, created.operation.id);
  });
});

describe('Idempotency-Key', () => {
  test('a retry replays the first answer and charges once; another body with the key is 409; a bad key is 422', async () => {
    const key = randomUUID();
    const body = orderBody();
    const before = await balanceCents(t, c);
    const first = await post(body, c.key, { 'idempotency-key': key });
    assert.equal(first.statusCode, 201, first.body);
    const again = await post(body, c.key, { 'idempotency-key': key });
    assert.equal(again.statusCode, 201);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(json(again).data, json(first).data);
    assert.equal(await balanceCents(t, c), before - 399);
    assertError(await post(orderBody(), c.key, { 'idempotency-key': key }), 409, 'IDEMPOTENCY_KEY_CONFLICT');
    assertInvalid(await post(orderBody(), c.key, { 'idempotency-key': 'not-a-uuid' }), ['Idempotency-Key']);
    assert.equal((await hostingRows(body.domain)).length, 1);
    await settle(json(first).data);
  });

  test('parallel retries with one key: one account, one charge', async () => {
    const key = randomUUID();
    const body = orderBody();
    const before = await balanceCents(t, c);
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(body, c.key, { 'idempotency-key': key })));
    for (const a of answers) assert.equal(a.statusCode, 201, a.body);
    assert.equal(new Set(answers.map((a) => json(a).data.id)).size, 1);
    assert.equal(await balanceCents(t, c), before - 399);
    assert.equal((await hostingRows(body.domain)).length, 1);
    await settle(json(answers[0]!).data);
  });

  test('a retry after the first order made the domain live still replays (the domain check does not answer it)', async () => {
    const key = randomUUID();
    const body = orderBody();
    const first = await post(body, c.key, { 'idempotency-key': key });
    assert.equal(first.statusCode, 201, first.body);
    await settle(json(first).data);
    await setPanelCapacity(t, 0);
    try {
      const again = await post(body, c.key, { 'idempotency-key': key });
      assert.equal(again.statusCode, 201, again.body);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(json(again).data.id, json(first).data.id);
    } finally {
      await setPanelCapacity(t, 250);
    }
  });
});

describe('provisioning that fails', () => {
  test('a final panel failure (no capacity): the operation fails, the account is cancelled, the balance is where it started', async () => {
    const before = await balanceCents(t, c);
    const domain = uniqueDomain('fails');
    const created = await withPanelFault(t, 'capacity_unavailable', ['createAccount'], async () => {
      const h = await orderHosting(t, c, { domain });
      const op = await waitForOperation(t, c.key, h.operation.id);
      assert.equal(op.status, 'failed');
      assert.match(op.detail, /^No capacity: Simulated capacity shortage \(createAccount\)$/);
      return h;
    });
    const detail = json(await call(t.app, 'GET', `/v2/web-hosting/${created.id}`, { key: c.key })).data;
    assert.equal(detail.status, 'cancelled');
    assert.equal(detail.server, null);
    assert.equal(await balanceCents(t, c), before);
    const [refund, charge] = await transactionsOf(c);
    assert.equal(refund.type, 'refund');
    assert.deepEqual(refund.amount, { amount: '3.99', currency: 'USD' });
    assert.match(refund.description, new RegExp(`^Refund: web hosting ${domain.replace(/\./g, '\\.')} \\(${created.id}\\) could not be provisioned`));
    assert.equal(charge.type, 'withdraw');
    await assertLedgerExact(t, c);
    await eventually(() => logLines(t, 'operation compensated').some((l) => l.resource === `web_hosting/${created.id}`), 'the compensated line');
    assert.equal(logLines(t, 'operation compensated').find((l) => l.resource === `web_hosting/${created.id}`)!.refund, '3.99');
    // The domain is free again.
    const again = await orderHosting(t, c, { domain });
    assert.equal((await waitForOperation(t, c.key, again.operation.id)).status, 'completed');
  });

  test('a panel that stays down: retried, then failed and refunded in full', async () => {
    const before = await balanceCents(t, c);
    const created = await withPanelFault(t, 'upstream_error', ['createAccount'], async () => {
      const h = await orderHosting(t, c, { package_id: BUSINESS, billing_cycle: 'yearly' });
      const op = await waitForOperation(t, c.key, h.operation.id);
      assert.equal(op.status, 'failed');
      assert.match(op.detail, /^Gave up after 2 attempts|^The provider failed/);
      return h;
    });
    assert.equal(json(await call(t.app, 'GET', `/v2/web-hosting/${created.id}`, { key: c.key })).data.status, 'cancelled');
    assert.equal(await balanceCents(t, c), before);
    const row = await t.database.db.selectFrom('operations').select('attempts').where('id', '=', created.operation.id).executeTakeFirstOrThrow();
    assert.equal(row.attempts, 2, 'the first attempt and one retry');
    await assertLedgerExact(t, c);
  });

  test('room at order time, full by the time it is provisioned: a final failure, refunded', async () => {
    const before = await balanceCents(t, c);
    // Hold the create in its retry while the panel fills up.
    await setPanelFault(t, { mode: 'upstream_error', calls: ['createAccount'], remaining: null });
    let created;
    try {
      created = await orderHosting(t, c);
      const deadline = Date.now() + 10_000;
      while ((await t.database.db.selectFrom('operations').select('attempts').where('id', '=', created.operation.id).executeTakeFirstOrThrow()).attempts < 1) {
        assert.ok(Date.now() < deadline, 'the first attempt ran');
        await new Promise((r) => setTimeout(r, 50));
      }
      await setPanelCapacity(t, 0);
    } finally {
      await setPanelFault(t, { mode: 'none' });
    }
    try {
      const op = await waitForOperation(t, c.key, created.operation.id);
      assert.equal(op.status, 'failed');
      assert.match(op.detail, /^No capacity: Every hosting panel server is full$/);
    } finally {
      await setPanelCapacity(t, 250);
    }
    assert.equal(await balanceCents(t, c), before);
    assert.equal(json(await call(t.app, 'GET', `/v2/web-hosting/${created.id}`, { key: c.key })).data.status, 'cancelled');
  });
});

describe('races', () => {
  test('12 parallel orders against a balance for 3: exactly 3 charged, the rest INSUFFICIENT_BALANCE, ledger sum = balance', async () => {
    const buyer = await createCustomer(t, { deposit: '12.00' });
    const answers = await Promise.all(Array.from({ length: 12 }, () => post(orderBody(), buyer.key)));
    const created = answers.filter((a) => a.statusCode === 201);
    const refused = answers.filter((a) => a.statusCode !== 201);
    assert.equal(created.length, 3, answers.map((a) => a.statusCode).join(' '));
    for (const r of refused) assertError(r, 422, 'INSUFFICIENT_BALANCE');
    assert.equal(await balanceCents(t, buyer), 1200 - 3 * 399);
    await assertLedgerExact(t, buyer);
    const withdrawals = (await transactionsOf(buyer)).filter((x: { type: string }) => x.type === 'withdraw');
    assert.equal(withdrawals.length, 3);
    assert.equal(json(await call(t.app, 'GET', '/v2/web-hosting', { key: buyer.key })).meta.pagination.total, 3);
    for (const a of created) assert.equal((await waitForOperation(t, buyer.key, json(a).data.operation.id)).status, 'completed');
  });

  test('two accounts racing for one domain: exactly one order wins, the loser is never charged', async () => {
    const a = await createCustomer(t, { deposit: '20.00' });
    const b = await createCustomer(t, { deposit: '20.00' });
    const domain = uniqueDomain('contested');
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => post(orderBody({ domain }), i % 2 ? a.key : b.key)));
    const won = answers.filter((r) => r.statusCode === 201);
    assert.equal(won.length, 1, answers.map((r) => r.statusCode).join(' '));
    for (const r of answers.filter((x) => x.statusCode !== 201)) assertError(r, 409, 'STATE_CONFLICT');
    const spent = (2000 - await balanceCents(t, a)) + (2000 - await balanceCents(t, b));
    assert.equal(spent, 399, 'one first cycle in all');
    await assertLedgerExact(t, a);
    await assertLedgerExact(t, b);
    assert.equal((await hostingRows(domain)).length, 1);
  });
});
