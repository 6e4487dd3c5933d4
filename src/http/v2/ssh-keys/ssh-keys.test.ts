// SSH keys: list, add (real keys of every accepted type; malformed ones refused naming
// public_key; the same key twice 409), delete (account only), another account's ids; and
// POST /v2/servers with ssh_key_ids — own, foreign and unknown — with the keys reaching the
// simulated platform's machine.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type Customer, type TestApp, call, createCustomer, json, startApp, waitForOperation } from '../../../../test/helpers/app.ts';
import { serverBody } from '../../../../test/helpers/servers.ts';
import { openSshKey } from '../../../../test/helpers/ssh-keys.ts';

let t: TestApp;
let c: Customer;
let other: Customer;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const fields = (res: Parameters<typeof json>[0]) => json(res).error.errors.map((e: { field: string }) => e.field);

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t, { deposit: '100.00' });
  other = await createCustomer(t, { deposit: '100.00' });
});

async function add(cust: Customer, publicKey: string, name = 'laptop') {
  const res = await call(t.app, 'POST', '/v2/ssh-keys', { key: cust.key, body: { name, public_key: publicKey } });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data as { id: number; public_key: string; fingerprint: string };
}

test('add: 201 with the key, its preview, fingerprint, type and size, field by field', async () => {
  const line = openSshKey('ed25519', 'ada@laptop');
  const res = await call(t.app, 'POST', '/v2/ssh-keys', { key: c.key, body: { name: ' Ada laptop ', public_key: `${line}\n` } });
  assert.equal(res.statusCode, 201, res.body);
  const k = json(res).data;
  assert.deepEqual(Object.keys(k).sort(), ['bits', 'created_at', 'fingerprint', 'id', 'name', 'public_key', 'public_key_preview', 'type']);
  assert.equal(typeof k.id, 'number');
  assert.equal(k.name, 'Ada laptop');
  assert.equal(k.public_key, line);
  const [type, blob] = line.split(' ');
  assert.equal(k.public_key_preview, `${type} ${blob!.slice(0, 8)}…${blob!.slice(-8)} ada@laptop`);
  assert.match(k.fingerprint, /^SHA256:[A-Za-z0-9+/]{43}$/);
  assert.equal(k.type, 'ssh-ed25519');
  assert.equal(k.bits, 256);
  assert.match(k.created_at, TIMESTAMP);
});

test('add: every accepted type', async () => {
  const cust = await createCustomer(t);
  for (const [kind, type, bits] of [['ecdsa-p256', 'ecdsa-sha2-nistp256', 256], ['ecdsa-p384', 'ecdsa-sha2-nistp384', 384],
    ['ecdsa-p521', 'ecdsa-sha2-nistp521', 521], ['rsa-2048', 'ssh-rsa', 2048]] as const) {
    const k = await add(cust, openSshKey(kind));
    assert.equal((k as unknown as { type: string }).type, type);
    assert.equal((k as unknown as { bits: number }).bits, bits);
  }
});

test('add: the same key twice in one account is 409 naming the existing one; another account may add it', async () => {
  const line = openSshKey('ed25519', 'dup@host');
  const first = await add(c, line, 'first');
  // The same key with another comment is the same key.
  const res = await call(t.app, 'POST', '/v2/ssh-keys', { key: c.key, body: { name: 'again', public_key: line.replace('dup@host', 'other comment') } });
  assert.equal(res.statusCode, 409);
  assert.equal(json(res).error.code, 'STATE_CONFLICT');
  assert.match(json(res).error.message, new RegExp(`as SSH key ${first.id} "first"`));
  await add(other, line);
  // Concurrent duplicates: exactly one is added.
  const fresh = openSshKey('ed25519', 'race');
  const results = await Promise.all(Array.from({ length: 6 }, () => call(t.app, 'POST', '/v2/ssh-keys', { key: c.key, body: { name: 'race', public_key: fresh } })));
  assert.deepEqual(results.map((r) => r.statusCode).sort(), [201, 409, 409, 409, 409, 409]);
});

test('add: malformed and refused keys are 422 naming public_key; bad names and bodies too', async () => {
  const ed = openSshKey('ed25519');
  const [type, blob] = ed.split(' ') as [string, string];
  const keyCases = [
    `${type} ${blob.slice(0, -4)}!!!!`,
    `ssh-rsa ${blob}`,
    `${type} ${Buffer.concat([Buffer.from(blob, 'base64'), Buffer.from('garbage')]).toString('base64')}`,
    'ssh-dss AAAAB3NzaC1kc3MAAACBAP',
    'not a key',
    '-----BEGIN OPENSSH PRIVATE KEY-----',
  ];
  for (const public_key of keyCases) {
    const res = await call(t.app, 'POST', '/v2/ssh-keys', { key: c.key, body: { name: 'bad', public_key } });
    assert.equal(res.statusCode, 422, public_key.slice(0, 40));
    assert.deepEqual(fields(res), ['public_key']);
  }
  const bodies: [unknown, string][] = [
    [{ name: 'x' }, 'public_key'],
    [{ public_key: ed }, 'name'],
    [{ name: '  ', public_key: ed }, 'name'],
    [{ name: 'x'.repeat(101), public_key: ed }, 'name'],
    [{ name: 5, public_key: ed }, 'name'],
    [{ name: 'x', public_key: ed, fingerprint: 'x' }, 'fingerprint'],
    [{ name: 'x', public_key: `${ed}\u0000` }, 'public_key'],
    [{ name: 'x', public_key: 'A'.repeat(16_385) }, 'public_key'],
  ];
  for (const [body, field] of bodies) {
    const res = await call(t.app, 'POST', '/v2/ssh-keys', { key: c.key, body });
    assert.equal(res.statusCode, 422, JSON.stringify(body).slice(0, 60));
    assert.ok(fields(res).includes(field), res.body);
  }
  // A bad key and a bad name: both reported at once.
  const both = await call(t.app, 'POST', '/v2/ssh-keys', { key: c.key, body: { name: ' ', public_key: 'nope' } });
  assert.deepEqual(fields(both).sort(), ['name', 'public_key']);
});

test('list: in the order added, paged; another account sees none of them', async () => {
  const cust = await createCustomer(t);
  const a = await add(cust, openSshKey('ed25519'), 'a');
  const b = await add(cust, openSshKey('ecdsa-p256'), 'b');
  const list = json(await call(t.app, 'GET', '/v2/ssh-keys', { key: cust.key }));
  assert.deepEqual(list.data.map((k: { id: number }) => k.id), [a.id, b.id]);
  assert.deepEqual(list.meta.pagination, { page: 1, per_page: 25, total: 2, total_pages: 1 });
  assert.equal(list.data[0].public_key, a.public_key);
  const p2 = json(await call(t.app, 'GET', '/v2/ssh-keys', { key: cust.key, query: { per_page: '1', page: '2' } }));
  assert.deepEqual(p2.data.map((k: { id: number }) => k.id), [b.id]);
  assert.equal((await call(t.app, 'GET', '/v2/ssh-keys', { key: cust.key, query: { per_page: '0' } })).statusCode, 422);
  const theirs = json(await call(t.app, 'GET', '/v2/ssh-keys', { key: other.key }));
  assert.ok(!theirs.data.some((k: { id: number }) => k.id === a.id || k.id === b.id));
});

test("delete: from the account only; another account's id and an unknown id are 404", async () => {
  const k = await add(c, openSshKey('ed25519'));
  const foreign = await call(t.app, 'DELETE', `/v2/ssh-keys/${k.id}`, { key: other.key });
  assert.equal(foreign.statusCode, 404);
  assert.equal(json(foreign).error.code, 'RESOURCE_NOT_FOUND');
  const res = await call(t.app, 'DELETE', `/v2/ssh-keys/${k.id}`, { key: c.key });
  assert.equal(res.statusCode, 200);
  assert.equal(json(res).data.id, k.id);
  assert.equal((await call(t.app, 'DELETE', `/v2/ssh-keys/${k.id}`, { key: c.key })).statusCode, 404);
  assert.equal((await call(t.app, 'DELETE', '/v2/ssh-keys/x', { key: c.key })).statusCode, 422);
  const list = json(await call(t.app, 'GET', '/v2/ssh-keys', { key: c.key, query: { per_page: '100' } })).data;
  assert.ok(!list.some((x: { id: number }) => x.id === k.id));
  // Deleted, it can be added again.
  await add(c, k.public_key);
});

test('server create with ssh_key_ids: the platform receives the public keys; deleting a key later leaves the server alone', async () => {
  const k1 = await add(c, openSshKey('ed25519', 'one'));
  const k2 = await add(c, openSshKey('rsa-2048', 'two'));
  const res = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ ssh_key_ids: [k2.id, k1.id] }) });
  assert.equal(res.statusCode, 201, res.body);
  const server = json(res).data;
  const op = await waitForOperation(t, c.key, server.operation.id);
  assert.equal(op.status, 'completed', op.detail);
  const row = await t.database.db.selectFrom('servers').select('provider_ref').where('id', '=', server.id).executeTakeFirstOrThrow();
  const vm = await t.database.db.selectFrom('sim_vms').select('ssh_keys').where('id', '=', row.provider_ref!).executeTakeFirstOrThrow();
  assert.deepEqual(vm.ssh_keys, [k2.public_key, k1.public_key]);
  assert.equal((await call(t.app, 'DELETE', `/v2/ssh-keys/${k1.id}`, { key: c.key })).statusCode, 200);
  const vmAfter = await t.database.db.selectFrom('sim_vms').select('ssh_keys').where('id', '=', row.provider_ref!).executeTakeFirstOrThrow();
  assert.equal(vmAfter.ssh_keys.length, 2, 'keys already installed stay');
  // Without keys, the machine has none.
  const plain = json(await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody() })).data;
  await waitForOperation(t, c.key, plain.operation.id);
  const plainRef = (await t.database.db.selectFrom('servers').select('provider_ref').where('id', '=', plain.id).executeTakeFirstOrThrow()).provider_ref!;
  assert.deepEqual((await t.database.db.selectFrom('sim_vms').select('ssh_keys').where('id', '=', plainRef).executeTakeFirstOrThrow()).ssh_keys, []);
});

test("server create: another account's key or an unknown id is 422 naming ssh_key_ids, and nothing is charged", async () => {
  const theirs = await add(other, openSshKey('ed25519'));
  const mine = await add(c, openSshKey('ed25519'));
  const before_ = json(await call(t.app, 'GET', '/v2/billing/balance', { key: c.key })).data.balance.amount;
  for (const ids of [[theirs.id], [mine.id, 2147483647]]) {
    const res = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ ssh_key_ids: ids }) });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(json(res).error.code, 'VALIDATION_FAILED');
    assert.deepEqual(fields(res), ['ssh_key_ids']);
    assert.ok(!res.body.includes(theirs.public_key), 'never the other account\'s data');
  }
  for (const ssh_key_ids of [['1'], [0], 'all', Array.from({ length: 21 }, (_, i) => i + 1)]) {
    const res = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ ssh_key_ids }) });
    assert.equal(res.statusCode, 422, JSON.stringify(ssh_key_ids));
    assert.ok(fields(res)[0].startsWith('ssh_key_ids'), res.body);
  }
  assert.equal(json(await call(t.app, 'GET', '/v2/billing/balance', { key: c.key })).data.balance.amount, before_);
});

test('sandbox: a test key adds a key for real (validation too), and nothing is kept', async () => {
  const sbx = await createCustomer(t, { isTest: true });
  const res = await call(t.app, 'POST', '/v2/ssh-keys', { key: sbx.key, body: { name: 'x', public_key: openSshKey('ed25519') } });
  assert.equal(res.statusCode, 201);
  assert.equal(json(res).meta.sandbox, true);
  assert.deepEqual(json(await call(t.app, 'GET', '/v2/ssh-keys', { key: sbx.key })).data, []);
  assert.equal((await call(t.app, 'POST', '/v2/ssh-keys', { key: sbx.key, body: { name: 'x', public_key: 'ssh-dss AAAA' } })).statusCode, 422);
});
