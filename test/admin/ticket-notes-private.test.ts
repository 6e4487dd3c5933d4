// Internal notes never reach the customer, by any road: v2 (API key), v1, the panel (the signed-in
// customer's session on v2), the notification mail, the events and a webhook delivered by the
// worker. A staff reply does reach each of them (so each road is shown to work, not just empty).
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type TestApp, adminCall, call, json, startApp } from '../helpers/app.ts';
import { type PanelOwner, signedInOwner } from '../helpers/panel.ts';
import { type TestStaff, createStaff } from '../helpers/staff.ts';
import { v1 } from '../helpers/v1.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';
import { until } from '../helpers/worker-process.ts';

let t: TestApp;
let owner: PanelOwner;
let support: TestStaff;

const NOTE = 'INTERNAL-ONLY: customer is on the watch list, refund approved by Maria';
const REPLY = 'The boot order was wrong; it is fixed now, please try again.';

before(async () => {
  t = await startApp({ worker: 'embedded', webhookAllowHttp: true, webhookAllowPrivate: true, webhookRetryScheduleS: [0.2] });
  owner = await signedInOwner(t);
  support = await createStaff(t, 'support');
});

test('a note and a reply: the customer gets the reply everywhere and the note nowhere', async () => {
  const receiver = await startReceiver();
  const hook = await call(t.app, 'POST', '/v2/webhooks', { key: owner.key, body: { url: `${receiver.url}/hook`, events: ['ticket.*'] } });
  assert.equal(hook.statusCode, 201, hook.body);
  receiver.secrets.push(json(hook).data.secret);

  const opened = await call(t.app, 'POST', '/v2/tickets', { key: owner.key, body: { subject: 'Server down', message: 'My server does not boot since this morning, please help.' } });
  assert.equal(opened.statusCode, 201, opened.body);
  const id = json(opened).data.id as string;
  const staff = (method: 'POST' | 'PATCH', url: string, body: unknown) => call(t.app, method, url, { key: support.token, body });
  assert.equal((await staff('PATCH', `/admin/v1/tickets/${id}`, { assignee_id: support.id })).statusCode, 200);
  assert.equal((await staff('POST', `/admin/v1/tickets/${id}/notes`, { message: NOTE })).statusCode, 201);
  assert.equal((await staff('POST', `/admin/v1/tickets/${id}/replies`, { message: REPLY })).statusCode, 201);
  assert.equal((await staff('POST', `/admin/v1/tickets/${id}/notes`, { message: `${NOTE} (second)` })).statusCode, 201);

  // Staff see both.
  const staffView = json(await call(t.app, 'GET', `/admin/v1/tickets/${id}`, { key: support.token })).data;
  assert.deepEqual(staffView.messages.map((m: { internal: boolean }) => m.internal), [false, true, false, true]);

  const roads: [string, Promise<{ statusCode: number; body: string }>][] = [
    ['v2 ticket', call(t.app, 'GET', `/v2/tickets/${id}`, { key: owner.key })],
    ['v2 list', call(t.app, 'GET', '/v2/tickets', { key: owner.key })],
    ['v1 ticket', v1(t.app, 'GET', `/v1/tickets/${id}`, { key: owner.key })],
    ['v1 list', v1(t.app, 'GET', '/v1/tickets', { key: owner.key })],
    ['panel ticket', owner.client.request('GET', `/v2/tickets/${id}`)],
    ['panel list', owner.client.request('GET', '/v2/tickets')],
    ['v2 events', call(t.app, 'GET', '/v2/events?resource_type=ticket', { key: owner.key })],
  ];
  for (const [road, pending] of roads) {
    const res = await pending;
    assert.equal(res.statusCode, 200, `${road}: ${res.body}`);
    assert.ok(!res.body.includes('INTERNAL-ONLY'), `${road} carries the note`);
    assert.doesNotMatch(res.body, /"internal"|assignee|staff_id/, road);
    if (road.endsWith('ticket')) assert.ok(res.body.includes('The boot order was wrong'), `${road} carries the reply`);
  }
  const panel = json(await owner.client.request('GET', `/v2/tickets/${id}`)).data;
  assert.deepEqual(panel.messages.map((m: { author: string }) => m.author), ['customer', 'staff']);
  const v1Detail = json(await v1(t.app, 'GET', `/v1/tickets/${id}`, { key: owner.key }));
  assert.equal(JSON.stringify(v1Detail).match(/"author":"staff"/g)?.length, 1);

  // The mail: one notice, for the reply, without the note.
  const notices = json(await adminCall(t, 'GET', `/admin/v1/notifications?account_id=${owner.accountId}&per_page=100`)).data
    .filter((n: { subject: string; body: string }) => n.subject.includes(id) || n.body.includes(id));
  assert.equal(notices.length, 1, JSON.stringify(notices));
  assert.match(notices[0].body, /The boot order was wrong/);
  for (const n of notices) assert.ok(!JSON.stringify(n).includes('INTERNAL-ONLY'));

  // The webhooks: ticket.opened and ticket.answered, verified, neither with the note or the assignee.
  const got = await until('ticket.opened and ticket.answered delivered', 60_000, async () => {
    const types = receiver.received.map((r) => r.json.type);
    return types.includes('ticket.opened') && types.includes('ticket.answered') ? receiver.received : undefined;
  });
  for (const d of got) {
    assert.equal(d.verifiedWith.length, 1);
    assert.ok(!d.body.includes('INTERNAL-ONLY'), d.json.type);
    assert.doesNotMatch(d.body, /assignee|staff_id/, d.json.type);
    assert.ok(!d.body.includes(support.id), d.json.type);
  }
  // Notes are no events: only opened and answered were written.
  const types = json(await call(t.app, 'GET', '/v2/events?resource_type=ticket', { key: owner.key })).data.map((e: { type: string }) => e.type);
  assert.deepEqual(types, ['ticket.answered', 'ticket.opened']);
});

test('a note on a closed ticket reaches no one either, and reopens nothing', async () => {
  const opened = await owner.client.request('POST', '/v2/tickets', { subject: 'Billing question', message: 'Why was I charged twice this month for my server?' });
  assert.equal(opened.statusCode, 201, opened.body);
  const id = json(opened).data.id as string;
  assert.equal((await owner.client.request('POST', `/v2/tickets/${id}/close`)).statusCode, 200);
  assert.equal((await call(t.app, 'POST', `/admin/v1/tickets/${id}/notes`, { key: support.token, body: { message: NOTE } })).statusCode, 201);
  const seen = await owner.client.request('GET', `/v2/tickets/${id}`);
  assert.equal(json(seen).data.status, 'closed');
  assert.equal(json(seen).data.messages.length, 1);
  assert.ok(!seen.body.includes('INTERNAL-ONLY'));
});
