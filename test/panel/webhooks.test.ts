// The panel's Webhooks page and the calls it makes: /v2/webhooks with the session cookie (as every
// resource page of the panel calls v2), so the API's rules hold there too — the SSRF check's
// message next to `url`, another account's ids 404, CSRF on every write, a sub-user's permissions.
// Without a worker nothing is delivered: no request leaves the machine.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EVENT_TYPES as CORE_EVENT_TYPES } from '../../src/core/events/catalogue.ts';
import { EVENT_TYPES as PANEL_EVENT_TYPES } from '../../panel/src/event-types.ts';
import { json, startApp } from '../helpers/app.ts';
import { type PanelOwner, signedInOwner, signedInSubUser } from '../helpers/panel.ts';

const t = await startApp();
const PUBLIC = 'https://93.184.216.34/hooks/panel';

async function endpoint(o: PanelOwner, body: Record<string, unknown> = { url: PUBLIC }) {
  const res = await o.client.request('POST', '/v2/webhooks', body);
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data as { id: string; url: string; events: string[]; enabled: boolean; secret: string; description: string | null };
}

test('the page is served at /panel/webhooks, and its event checkboxes are the server\'s catalogue', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/panel/webhooks' });
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /text\/html/);
  assert.deepEqual([...PANEL_EVENT_TYPES], CORE_EVENT_TYPES);
});

test('create (secret once), list (no secret), disable with the reason kept null, enable, edit, ping, deliveries, rotate, delete', async () => {
  const o = await signedInOwner(t);
  const made = await endpoint(o, { url: PUBLIC, events: ['server.created', 'billing.deposit'], description: 'CI' });
  assert.match(made.id, /^whk_/);
  assert.match(made.secret, /^whsec_[A-Za-z0-9+/=]+$/);
  assert.deepEqual(made.events, ['server.created', 'billing.deposit']);
  assert.equal(made.enabled, true);

  const list = await o.client.request('GET', '/v2/webhooks?per_page=100');
  assert.equal(list.statusCode, 200);
  assert.deepEqual(json(list).data.map((w: { id: string }) => w.id), [made.id]);
  assert.ok(!list.body.includes(made.secret), 'the list never shows the secret');
  assert.equal(json(list).data[0].disabled_reason, null);

  const off = await o.client.request('PATCH', `/v2/webhooks/${made.id}`, { enabled: false });
  assert.equal(off.statusCode, 200, off.body);
  assert.equal(json(off).data.enabled, false);
  const pingOff = await o.client.request('POST', `/v2/webhooks/${made.id}/ping`);
  assert.equal(pingOff.statusCode, 409, 'a disabled endpoint is not pinged');
  assert.equal(json(pingOff).error.code, 'STATE_CONFLICT');
  const on = await o.client.request('PATCH', `/v2/webhooks/${made.id}`, { enabled: true });
  assert.equal(json(on).data.enabled, true);
  const edited = await o.client.request('PATCH', `/v2/webhooks/${made.id}`, { url: `${PUBLIC}/v2`, events: ['*'], description: null });
  assert.equal(edited.statusCode, 200, edited.body);
  assert.deepEqual([json(edited).data.url, json(edited).data.events, json(edited).data.description], [`${PUBLIC}/v2`, ['*'], null]);

  const ping = await o.client.request('POST', `/v2/webhooks/${made.id}/ping`);
  assert.equal(ping.statusCode, 202, ping.body);
  assert.equal(json(ping).data.event_type, 'webhook.ping');
  assert.equal(json(ping).data.status, 'pending');
  const log = await o.client.request('GET', `/v2/webhooks/${made.id}/deliveries?per_page=50`);
  assert.equal(log.statusCode, 200);
  assert.deepEqual(json(log).data.map((d: { event_type: string; attempt: number }) => [d.event_type, d.attempt]), [['webhook.ping', 0]]);

  const rotated = await o.client.request('POST', `/v2/webhooks/${made.id}/rotate-secret`);
  assert.equal(rotated.statusCode, 200, rotated.body);
  assert.match(json(rotated).data.secret, /^whsec_/);
  assert.notEqual(json(rotated).data.secret, made.secret);

  const del = await o.client.request('DELETE', `/v2/webhooks/${made.id}`);
  assert.equal(del.statusCode, 200);
  assert.equal((await o.client.request('GET', `/v2/webhooks/${made.id}`)).statusCode, 404);
  assert.deepEqual(json(await o.client.request('GET', '/v2/webhooks')).data, []);
});

test('a URL the SSRF rules refuse, or bad events: 422 with the message on the field the page shows it next to', async () => {
  const o = await signedInOwner(t);
  const ssrf = await o.client.request('POST', '/v2/webhooks', { url: 'https://10.0.0.1/hook' });
  assert.equal(ssrf.statusCode, 422);
  assert.equal(json(ssrf).error.errors[0].field, 'url');
  assert.match(json(ssrf).error.errors[0].message, /private/);
  const http = await o.client.request('POST', '/v2/webhooks', { url: 'http://93.184.216.34/hook' });
  assert.equal(http.statusCode, 422);
  assert.equal(json(http).error.errors[0].field, 'url');
  const events = await o.client.request('POST', '/v2/webhooks', { url: PUBLIC, events: ['server.exploded'] });
  assert.equal(events.statusCode, 422);
  assert.equal(json(events).error.errors[0].field, 'events[0]');
  const made = await endpoint(o);
  const patch = await o.client.request('PATCH', `/v2/webhooks/${made.id}`, { url: 'https://169.254.169.254/latest/meta-data/' });
  assert.equal(patch.statusCode, 422);
  assert.equal(json(patch).error.errors[0].field, 'url');
});

test('another account\'s endpoint ids are 404 on every route; missing CSRF is 403 on every write', async () => {
  const o = await signedInOwner(t);
  const other = await signedInOwner(t);
  const theirs = await endpoint(other);
  const calls: [string, string, unknown?][] = [
    ['GET', `/v2/webhooks/${theirs.id}`],
    ['GET', `/v2/webhooks/${theirs.id}/deliveries`],
    ['PATCH', `/v2/webhooks/${theirs.id}`, { enabled: false }],
    ['POST', `/v2/webhooks/${theirs.id}/ping`, {}],
    ['POST', `/v2/webhooks/${theirs.id}/rotate-secret`, {}],
    ['DELETE', `/v2/webhooks/${theirs.id}`],
  ];
  for (const [method, url, body] of calls) {
    const res = await o.client.request(method as 'GET', url, body);
    assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
    assert.equal(json(res).error.code, 'RESOURCE_NOT_FOUND');
  }
  assert.equal(json(await other.client.request('GET', `/v2/webhooks/${theirs.id}`)).data.enabled, true, 'untouched');

  const mine = await endpoint(o);
  const writes: [string, string, unknown?][] = [
    ['POST', '/v2/webhooks', { url: PUBLIC }],
    ['PATCH', `/v2/webhooks/${mine.id}`, { enabled: false }],
    ['POST', `/v2/webhooks/${mine.id}/ping`, {}],
    ['POST', `/v2/webhooks/${mine.id}/rotate-secret`, {}],
    ['DELETE', `/v2/webhooks/${mine.id}`],
  ];
  for (const [method, url, body] of writes) {
    const res = await o.client.request(method as 'POST', url, body, { csrf: false });
    assert.equal(res.statusCode, 403, `${method} ${url}: ${res.body}`);
    assert.equal(json(res).error.code, 'CSRF_TOKEN_INVALID');
  }
  const list = json(await o.client.request('GET', '/v2/webhooks')).data;
  assert.deepEqual(list.map((w: { id: string; enabled: boolean }) => [w.id, w.enabled]), [[mine.id, true]], 'no write without the token happened');
});

test('a sub-user with webhooks:read lists and reads deliveries but every write is 403; without it even the list is 403', async () => {
  const o = await signedInOwner(t);
  const made = await endpoint(o);
  const reader = await signedInSubUser(o, ['webhooks:read']);
  const me = json(await reader.client.request('GET', '/panel/api/me')).data;
  assert.deepEqual(me.user.permissions, ['webhooks:read']);
  const list = await reader.client.request('GET', '/v2/webhooks');
  assert.equal(list.statusCode, 200);
  assert.deepEqual(json(list).data.map((w: { id: string }) => w.id), [made.id]);
  assert.equal((await reader.client.request('GET', `/v2/webhooks/${made.id}/deliveries`)).statusCode, 200);
  const writes: [string, string, unknown?][] = [
    ['POST', '/v2/webhooks', { url: PUBLIC }],
    ['PATCH', `/v2/webhooks/${made.id}`, { enabled: false }],
    ['POST', `/v2/webhooks/${made.id}/ping`, {}],
    ['POST', `/v2/webhooks/${made.id}/rotate-secret`, {}],
    ['DELETE', `/v2/webhooks/${made.id}`],
  ];
  for (const [method, url, body] of writes) {
    const res = await reader.client.request(method as 'POST', url, body);
    assert.equal(res.statusCode, 403, `${method} ${url}: ${res.body}`);
    assert.equal(json(res).error.code, 'AUTH_SCOPE_INSUFFICIENT');
  }

  const writer = await signedInSubUser(o, ['webhooks:read', 'webhooks:write']);
  const theirs = await writer.client.request('POST', '/v2/webhooks', { url: `${PUBLIC}/sub` });
  assert.equal(theirs.statusCode, 201, theirs.body);
  assert.equal((await writer.client.request('POST', `/v2/webhooks/${json(theirs).data.id}/ping`)).statusCode, 202);

  const none = await signedInSubUser(o, ['servers:read']);
  const refused = await none.client.request('GET', '/v2/webhooks');
  assert.equal(refused.statusCode, 403);
  assert.equal(json(refused).error.code, 'AUTH_SCOPE_INSUFFICIENT');
});
