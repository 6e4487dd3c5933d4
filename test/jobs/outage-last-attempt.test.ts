// A database outage that cuts off an operation's last attempt does not fail it: the outage is not
// the operation's fault (executeOperation rethrows, the worker waits for the database and runs it
// again), and the customer is neither refunded nor left with a cancelled server.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { executeOperation } from '../../src/core/operations/execute.ts';
import { noopPanel } from '../../src/providers/hosting/noop.ts';
import { computeFor } from '../../src/runtime.ts';
import { call, createCustomer, json, startApp } from '../helpers/app.ts';
import { serverBody } from '../helpers/servers.ts';

const t = await startApp();
const c = await createCustomer(t, { deposit: '100.00' });

test('an outage on the last attempt leaves the operation running; the next run completes it', async () => {
  const res = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody() });
  assert.equal(res.statusCode, 201, res.body);
  const { id: serverId } = json(res).data;
  const opId = json(res).data.operation.id as string;
  const real = computeFor(t.config, t.database.db);
  const cutOff = {
    ...real,
    create: async () => { throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }); },
  };
  await assert.rejects(executeOperation({ db: t.database.db, compute: cutOff, hosting: noopPanel }, opId, true), /terminating connection/);
  const op = await t.database.db.selectFrom('operations').select(['status']).where('id', '=', opId).executeTakeFirstOrThrow();
  assert.equal(op.status, 'running', 'not failed on its last attempt');
  const server = await t.database.db.selectFrom('servers').select(['status']).where('id', '=', serverId).executeTakeFirstOrThrow();
  assert.equal(server.status, 'pending', 'not cancelled, nothing refunded');

  await executeOperation({ db: t.database.db, compute: real, hosting: noopPanel }, opId, true);
  const done = json(await call(t.app, 'GET', `/v2/operations/${opId}`, { key: c.key })).data;
  assert.equal(done.status, 'completed');
  assert.equal(json(await call(t.app, 'GET', `/v2/servers/${serverId}`, { key: c.key })).data.status, 'active');
});
