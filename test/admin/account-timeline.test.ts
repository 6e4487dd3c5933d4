// GET /admin/v1/accounts/{id}/timeline (events, ledger, tickets, audit rows about the account,
// newest first, paged; ledger rows only for roles reading billing) and the account search `q`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { createStaff } from '../helpers/staff.ts';

const t = await startApp();

test('the timeline merges events, ledger rows, tickets and audit rows, newest first, paged', async () => {
  const c = await createCustomer(t, { deposit: '50.00' });
  const opened = await call(t.app, 'POST', '/v2/tickets', { key: c.key, body: { subject: 'Help please', message: 'The first words of a long enough request for help' } });
  assert.equal(opened.statusCode, 201, opened.body);
  const ticketId = json(opened).data.id;
  assert.equal((await adminCall(t, 'POST', `/admin/v1/tickets/${ticketId}/replies`, { message: 'We are on it' })).statusCode, 201);
  assert.equal((await adminCall(t, 'POST', `/admin/v1/tickets/${ticketId}/notes`, { message: 'internal only' })).statusCode, 201);
  assert.equal((await adminCall(t, 'PATCH', `/admin/v1/accounts/${c.accountId}`, { name: 'Renamed Customer' })).statusCode, 200);

  const res = await adminCall(t, 'GET', `/admin/v1/accounts/${c.accountId}/timeline?per_page=100`);
  assert.equal(res.statusCode, 200, res.body);
  const rows = json(res).data as { kind: string; at: string; ref: string; title: string; data: Record<string, unknown> }[];
  const titles = rows.map((r) => `${r.kind}:${r.title}`);
  assert.ok(titles.includes('ledger:deposit'), titles.join());
  assert.ok(titles.includes('ticket:ticket.opened'), titles.join());
  assert.ok(titles.includes('ticket:ticket.staff_reply'), titles.join());
  assert.ok(!titles.includes('ticket:ticket.customer_reply'), 'the opening message is the opening, not a reply');
  assert.ok(!JSON.stringify(rows).includes('internal only'), 'internal notes stay out');
  assert.ok(titles.some((x) => x.startsWith('audit:')), titles.join());
  const audit = rows.find((r) => r.kind === 'audit' && (r.data.changes as { name?: string }).name === 'Renamed Customer');
  assert.ok(audit, 'the profile change is there');
  assert.ok(rows.some((r) => r.kind === 'event'), titles.join());
  for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1]!.at >= rows[i]!.at, 'newest first');
  const total = json(res).meta.pagination.total;
  assert.equal(total, rows.length);

  const p2 = await adminCall(t, 'GET', `/admin/v1/accounts/${c.accountId}/timeline?per_page=2&page=2`);
  assert.deepEqual(json(p2).data.map((r: { ref: string; kind: string }) => `${r.kind}${r.ref}`), rows.slice(2, 4).map((r) => `${r.kind}${r.ref}`));
  const past = await adminCall(t, 'GET', `/admin/v1/accounts/${c.accountId}/timeline?page=99`);
  assert.deepEqual(json(past).data, []);
  assert.equal(json(past).meta.pagination.total, total);

  const ledgerOnly = json(await adminCall(t, 'GET', `/admin/v1/accounts/${c.accountId}/timeline?kind=ledger`)).data;
  assert.ok(ledgerOnly.length >= 1 && ledgerOnly.every((r: { kind: string }) => r.kind === 'ledger'));
  assert.equal(ledgerOnly[0].data.amount_cents, 5000);

  // Support reads accounts but not billing: no ledger rows.
  const support = await createStaff(t, 'support');
  const s = await call(t.app, 'GET', `/admin/v1/accounts/${c.accountId}/timeline?per_page=100`, { key: support.token });
  assert.equal(s.statusCode, 200);
  assert.ok(json(s).data.length > 0);
  assert.ok(json(s).data.every((r: { kind: string }) => r.kind !== 'ledger'));
});

test('timeline: 404 for an unknown account, 422 for bad input, 401 without a token', async () => {
  const nf = await adminCall(t, 'GET', '/admin/v1/accounts/acc_nope/timeline');
  assert.equal(nf.statusCode, 404);
  assert.equal(json(nf).error.code, 'RESOURCE_NOT_FOUND');
  const c = await createCustomer(t);
  assert.equal((await adminCall(t, 'GET', `/admin/v1/accounts/${c.accountId}/timeline?kind=nope`)).statusCode, 422);
  assert.equal((await adminCall(t, 'GET', `/admin/v1/accounts/${c.accountId}/timeline?per_page=0`)).statusCode, 422);
  assert.equal((await adminCall(t, 'GET', `/admin/v1/accounts/${c.accountId}/timeline?x=1`)).statusCode, 422);
  assert.equal((await call(t.app, 'GET', `/admin/v1/accounts/${c.accountId}/timeline`)).statusCode, 401);
});

test('GET /admin/v1/accounts?q= finds by part of the email or name, or the id\'s beginning', async () => {
  const c = await createCustomer(t, { email: `findme-${Date.now()}@example.com` });
  await adminCall(t, 'PATCH', `/admin/v1/accounts/${c.accountId}`, { name: 'Zebediah Quux' });
  const ids = async (q: string) => json(await adminCall(t, 'GET', `/admin/v1/accounts?q=${encodeURIComponent(q)}`)).data.map((a: { id: string }) => a.id);
  assert.ok((await ids('FINDME-')).includes(c.accountId));
  assert.ok((await ids('zebediah')).includes(c.accountId));
  assert.ok((await ids(c.accountId.slice(0, c.accountId.length - 2))).includes(c.accountId));
  assert.deepEqual(await ids('%'), [], 'a wildcard is literal');
  assert.ok(!(await ids('no-such-customer-anywhere')).length);
});
