// GET /admin/v1/setup: what an installation lacks before a customer can buy. A database on
// DATABASE_URL starts empty (no demo data unless SEED_DEMO=true): every item is missing, each with
// its command, and each turns ready as the operator adds it, until a customer can create a server.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/config.ts';
import { connect } from '../../src/db/connection.ts';
import { dropDatabase, ensureDatabase } from '../../src/db/create-database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { buildApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/http/logger.ts';
import { createRateLimiter } from '../../src/http/rate-limit.ts';
import { servicesFor } from '../../src/runtime.ts';
import { banner } from '../../src/cli/start-up.ts';
import { adminCli } from '../helpers/admin-cli.ts';
import { adminCall, call, json, startApp } from '../helpers/app.ts';

const t = await startApp();
const TOKEN = 'setup-test-admin-token-0123456789';

interface Check { item: string; ready: boolean; detail: string; fix: string | null }
const states = (checks: Check[]) => Object.fromEntries(checks.map((c) => [c.item, c.ready]));

test('the seeded test database (the embedded default\'s demo data): only SMTP is missing', async () => {
  const res = await adminCall(t, 'GET', '/admin/v1/setup');
  assert.equal(res.statusCode, 200, res.body);
  const { data } = json(res);
  assert.equal(data.compute_driver, 'simulated');
  assert.deepEqual(states(data.checks), { locations: true, plans: true, os_images: true, nodes: true, ip_pools: true, invoice_settings: true, smtp: false });
  assert.equal(data.ready, false);
  assert.match(data.checks.find((c: Check) => c.item === 'smtp').fix, /SMTP_URL/);
  const withSmtp = await t.sibling({ smtpUrl: 'smtp://127.0.0.1:2525' });
  const ready = json(await call(withSmtp, 'GET', '/admin/v1/setup', { headers: { authorization: `Bearer ${t.adminToken}` } })).data;
  assert.equal(ready.ready, true);
  assert.ok(ready.checks.every((c: Check) => c.fix === null));
});

test('under COMPUTE_DRIVER=lxd the simulated demo nodes and OS versions without an image do not count', async () => {
  const lxd = await t.sibling({ computeDriver: 'lxd' });
  const { data } = json(await call(lxd, 'GET', '/admin/v1/setup', { headers: { authorization: `Bearer ${t.adminToken}` } }));
  assert.equal(data.compute_driver, 'lxd');
  const byItem = Object.fromEntries(data.checks.map((c: Check) => [c.item, c]));
  assert.equal(byItem.os_images.ready, false);
  assert.match(byItem.os_images.detail, /0 OS versions with an LXD image \(of 5 available\)/);
  assert.match(byItem.os_images.fix, /operating-systems update ID --image/);
  assert.equal(byItem.nodes.ready, false);
  assert.match(byItem.nodes.fix, /--endpoint/);
});

test('hostcloud admin setup: a table of the checks, then the commands for what is missing', async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  const r = await adminCli(t, `http://127.0.0.1:${port}`, ['setup']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^ITEM +READY +DETAIL\n/);
  assert.match(r.stdout, /\nlocations +yes +3 locations servers can be created in/);
  assert.match(r.stdout, /\nsmtp +NO +SMTP_URL is not set/);
  assert.match(r.stdout, /missing before a customer can buy:\n {2}smtp: set SMTP_URL/);
});

test('no token 401; a customer key 401', async () => {
  assert.equal((await call(t.app, 'GET', '/admin/v1/setup')).statusCode, 401);
  assert.equal((await call(t.app, 'GET', '/admin/v1/setup', { key: `hc_live_${'a'.repeat(40)}` })).statusCode, 401);
});

test('an empty database (DATABASE_URL without SEED_DEMO): everything missing, then ready item by item; the banner lists what is missing', async () => {
  const adminUrl = process.env.HC_TEST_ADMIN_URL!;
  const name = `${process.env.HC_TEST_PREFIX}_setup_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(adminUrl, name);
  after(() => dropDatabase(adminUrl, name));
  const fresh = connect(Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString());
  after(() => fresh.close());
  await migrateToLatest(fresh.db);
  const config = { ...loadConfig({}), publicUrl: 'http://api.test', worker: 'off' as const, ipCooldownS: 0 };
  const rateLimiter = createRateLimiter({ max: 10_000, windowS: 60 });
  const app = await buildApp({ config, db: fresh.db, rateLimiter, adminToken: TOKEN, logger: createLogger('silent'), services: servicesFor(config, fresh.db) });
  after(() => app.close());
  const admin = (method: 'GET' | 'POST', url: string, body?: unknown) => call(app, method, url, { headers: { authorization: `Bearer ${TOKEN}` }, body });
  const setup = async () => json(await admin('GET', '/admin/v1/setup')).data as { ready: boolean; checks: Check[] };

  const empty = await setup();
  assert.deepEqual(states(empty.checks), { locations: false, plans: false, os_images: false, nodes: false, ip_pools: false, invoice_settings: false, smtp: false });
  for (const c of empty.checks) assert.ok(c.fix, `${c.item} names its fix`);
  const text = banner({ config, port: 8080, clusterDir: null, token: null, generated: false, missing: empty.checks.map((c) => `${c.item}: ${c.detail} (${c.fix})`) });
  assert.match(text, /Before a customer can buy \(GET \/admin\/v1\/setup\), set up:\n {4}- locations: 0 locations/);
  assert.match(text, /- smtp: SMTP_URL is not set/);

  const made = async (method: 'POST', url: string, body: unknown) => {
    const res = await admin(method, url, body);
    assert.equal(res.statusCode, 201, `${url}: ${res.body}`);
    return json(res).data;
  };
  const location = await made('POST', '/admin/v1/locations', { name: 'Frankfurt', code: 'fra1', country: 'DE', provider: 'primary' });
  assert.equal(states((await setup()).checks).locations, true);
  await made('POST', '/admin/v1/plans', { name: 'Cloud S', cpu_cores: 1, ram_mb: 1024, storage_gb: 25, bandwidth_gb: 1000, price: '5.00' });
  assert.equal(states((await setup()).checks).plans, true);
  await made('POST', '/admin/v1/operating-systems', { family: 'Debian', version: '12', slug: 'debian-12' });
  assert.equal(states((await setup()).checks).os_images, true);
  await made('POST', '/admin/v1/nodes', { location_id: location.id, name: 'fra1-kvm1', cpu_vendor: 'intel', cpu_cores: 32, ram_mb: 131072, storage_gb: 2000 });
  assert.equal(states((await setup()).checks).nodes, true);
  await made('POST', '/admin/v1/ip-pools', { location_id: location.id, cidr: '10.77.0.0/24', gateway: '10.77.0.1' });
  assert.equal(states((await setup()).checks).ip_pools, true);
  const settings = await admin('POST', '/admin/v1/invoice-settings', { company_name: 'Example Hosting GmbH', address: '1 Example Street\nBerlin' });
  assert.equal(settings.statusCode, 200, settings.body);
  const last = await setup();
  assert.deepEqual(states(last.checks), { locations: true, plans: true, os_images: true, nodes: true, ip_pools: true, invoice_settings: true, smtp: false });
});
