// The operator's images: PATCH /admin/v1/operating-systems/{id} {image} (an LXD alias or
// fingerprint; null takes it off), and the CLI's `operating-systems update ID --image NAME`.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { runAdmin } from '../../src/cli/admin.ts';
import { type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';

let t: TestApp;
let url: string;

before(async () => {
  t = await startApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});

test('PATCH sets and clears an OS version\'s image; a malformed one is 422 naming image; customers never see it', async () => {
  const set = await adminCall(t, 'PATCH', '/admin/v1/operating-systems/1', { image: 'debian/12' });
  assert.equal(set.statusCode, 200, set.body);
  assert.equal(json(set).data.image, 'debian/12');
  const bad = await adminCall(t, 'PATCH', '/admin/v1/operating-systems/1', { image: 'no spaces allowed' });
  assert.equal(bad.statusCode, 422, bad.body);
  assert.equal(json(bad).error.errors[0].field, 'image');
  const c = await createCustomer(t);
  const list = json(await call(t.app, 'GET', '/v2/operating-systems', { key: c.key })).data as Record<string, unknown>[];
  assert.ok(list.every((o) => !('image' in o)));
  const clear = await adminCall(t, 'PATCH', '/admin/v1/operating-systems/1', { image: null });
  assert.equal(json(clear).data.image, null);
  assert.equal((await adminCall(t, 'PATCH', '/admin/v1/operating-systems/999', { image: 'x' })).statusCode, 404);
});

test('hostcloud admin operating-systems update ID --image NAME', async () => {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(['--url', url, '--token', t.adminToken, 'operating-systems', 'update', '2', '--image', 'ubuntu/24.04', '--json'], {
    stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; },
  });
  assert.equal(code, 0, stderr);
  assert.equal(JSON.parse(stdout).data.image, 'ubuntu/24.04');
});
