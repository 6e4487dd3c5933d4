// Under COMPUTE_DRIVER=lxd an OS version is installable only with an image: one without is listed
// `available: false` in v2 (left out of v1, which shows no availability), so neither customers nor
// the panel are offered what a create then refuses. The simulated platform needs no images.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { v1 } from '../helpers/v1.ts';

const t = await startApp();
// The same database, as an installation with COMPUTE_DRIVER=lxd (no worker: nothing is built here).
const lxd = await t.sibling({ computeDriver: 'lxd' });
const c = await createCustomer(t, { deposit: '100.00' });

interface Os { id: number; slug: string; available: boolean }
const listed = async (app: typeof lxd) => json(await call(app, 'GET', '/v2/operating-systems', { key: c.key })).data as Os[];

test('v2 /operating-systems: on the simulated platform every version on sale is available', async () => {
  const oses = await listed(t.app);
  assert.equal(oses.length, 5);
  assert.ok(oses.every((o) => o.available === true), JSON.stringify(oses));
});

test('v2 under lxd: versions without an image are available: false; giving one an image makes it available', async () => {
  const before = await listed(lxd);
  assert.deepEqual(before.map((o) => o.available), [false, false, false, false, false]);
  const debian = before.find((o) => o.slug === 'debian-12')!;
  const create = await call(lxd, 'POST', '/v2/servers', {
    key: c.key, body: { name: 'web-1.example.com', location_id: 1, plan_id: 1, os_version_id: debian.id, password: 'c0rrect-Horse-battery' },
  });
  assert.equal(create.statusCode, 422, create.body);
  assert.equal(json(create).error.code, 'OS_VERSION_INVALID');
  assert.equal(json(create).error.errors[0].field, 'os_version_id');

  const patched = await adminCall(t, 'PATCH', `/admin/v1/operating-systems/${debian.id}`, { image: 'debian/12' });
  assert.equal(patched.statusCode, 200, patched.body);
  try {
    const after = await listed(lxd);
    assert.deepEqual(after.filter((o) => o.available).map((o) => o.slug), ['debian-12']);
    // v1 has no availability to show: only installable versions are listed.
    const families = json(await v1(lxd, 'GET', '/v1/operating-systems', { key: c.key })).data as { name: string; versions: { id: number; name: string }[] }[];
    assert.deepEqual(families.map((f) => [f.name, f.versions.map((v) => v.name)]), [['Debian', ['12']]]);
    const simulatedV1 = json(await v1(t.app, 'GET', '/v1/operating-systems', { key: c.key })).data as unknown[];
    assert.equal(simulatedV1.length, 4, 'the simulated platform lists every family');
  } finally {
    await adminCall(t, 'PATCH', `/admin/v1/operating-systems/${debian.id}`, { image: null });
  }
});
