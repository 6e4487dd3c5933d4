// The panel offers exactly the scopes and event types the server has: its lists are the server's
// (leaf modules of the core), and every scope it offers an owner is accepted by the server — for an
// API key and for a sub-user's permissions.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EVENT_TYPES as PANEL_EVENT_TYPES } from '../../panel/src/event-types.ts';
import { AREA_CHOICES, OFFERED_SCOPES } from '../../panel/src/scopes.ts';
import { EVENT_CATALOGUE } from '../../src/core/events/catalogue.ts';
import { ALL_SCOPES, AREAS } from '../../src/core/types.ts';
import { json, startApp } from '../helpers/app.ts';
import { signedInOwner } from '../helpers/panel.ts';

const t = await startApp();

test('the panel\'s scopes and areas are the server\'s, in its order; its event types are the catalogue\'s', () => {
  assert.deepEqual(OFFERED_SCOPES, ALL_SCOPES);
  assert.deepEqual(AREA_CHOICES.map((c) => c.area), [...AREAS]);
  assert.ok(!OFFERED_SCOPES.includes('events:write'), 'events are only read');
  assert.deepEqual([...PANEL_EVENT_TYPES], Object.keys(EVENT_CATALOGUE));
});

test('an owner gives a key, and a sub-user, every scope the panel offers: accepted', async () => {
  const o = await signedInOwner(t);
  const me = await o.client.me();
  assert.deepEqual(me.user.permissions, OFFERED_SCOPES, 'the owner holds what the panel offers');
  const key = await o.client.request('POST', '/panel/api/api-keys', { name: 'everything', ip_allowlist: ['127.0.0.1'], scopes: OFFERED_SCOPES });
  assert.equal(key.statusCode, 201, key.body);
  assert.deepEqual(json(key).data.scopes, OFFERED_SCOPES);
  const sub = await o.client.request('POST', '/panel/api/sub-users', { email: 'all-scopes@example.com', first_name: 'All', last_name: 'Scopes', permissions: OFFERED_SCOPES });
  assert.equal(sub.statusCode, 201, sub.body);
});
