// Who may call what, over EVERY route of the app: the table is the app's own route table
// (routesOf, filled by an onRoute hook as routes register), never a hand list, so a new route is
// covered the day it is added. For each route, by how it is reached (its config, as auth.ts reads it):
// - customer routes (v2: Authorization: Bearer; v1: X-API-Key): no key or an unknown one → 401 in
//   that API's envelope; a key lacking the route's scope → 403, and a key holding only that scope
//   gets past the check; another account's ids in the path → 404 (its own parent with another
//   account's child, too), with a body the route accepts so that nothing but ownership can refuse;
// - admin and metrics routes: no token, or a customer's key → 401;
// - public routes (no key at all) must be listed in PUBLIC with the reason: a new public route
//   fails this test until it is, and a listed one that no longer exists fails it too.
// Every path parameter of a customer route must be described in PARAMS (the account's resource it
// names, or the fixed value it takes and why it names none).
// The customer panel (/panel: its page and /panel/api, signed in by a session cookie with a CSRF
// token, not a key) is walked route by route the same way by test/panel/every-route.test.ts;
// here its routes are only counted.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { type RouteEntry, routesOf } from '../../src/http/app.ts';
import { componentNamed } from '../../src/http/schemas.ts';
import { PANEL_ONLY } from '../../src/http/v2/not-implemented.ts';
import { ALL_SCOPES, type Area } from '../../src/core/types.ts';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { activeDomain } from '../helpers/domains.ts';
import { activeHosting } from '../helpers/hosting.ts';
import { type Json, activeServer } from '../helpers/servers.ts';
import { openSshKey } from '../helpers/ssh-keys.ts';
import { BIG_POOL, activeVm, setPool } from '../helpers/vdc.ts';

/** Routes anyone may call, each with the reason; `probe`: a made-up secret in its path is refused. */
const PUBLIC: Record<string, { why: string; probe?: string; onlyWhen?: string }> = {
  'GET /healthz': { why: 'liveness probe of the load balancer' },
  'GET /readyz': { why: 'readiness probe of the load balancer' },
  'GET /v2/openapi.json': { why: 'the public API document' },
  'GET /v2/docs': { why: 'the public API reference' },
  'GET /v2/docs/redoc.standalone.js': { why: 'a script of the reference' },
  'GET /v2/docs/reference.js': { why: 'a script of the reference' },
  'GET /v2/docs/errors': { why: 'the public error catalogue' },
  'GET /v2/docs/automation': { why: 'the public page on the SDK and CLI' },
  'GET /v1/openapi.json': { why: 'the public v1 document' },
  'GET /v2/console-assets/xterm.js': { why: 'a script of the web console page (static, no data)' },
  'GET /v2/console-assets/xterm.css': { why: 'a style sheet of the web console page (static, no data)' },
  'GET /v2/console-assets/console.js': { why: 'a script of the web console page (static, no data)' },
  'GET /v2/console/:ticket': { why: 'a signed, single-use console link (the ticket is the credential)', probe: '/v2/console/cst_forged0000000000000000' },
  'GET /v2/web-hosting-login/:ticket': { why: 'a signed, single-use panel login link (the ticket is the credential)', probe: '/v2/web-hosting-login/hlt_forged0000000000000000' },
  'GET /admin': { why: 'the operator console\'s page (static, no data: it signs in through /admin/v1/session; /admin/* client routes are the same page)' },
  'GET /admin/assets/app.js': { why: 'the operator console\'s script (static, no data)' },
  'GET /admin/assets/app.css': { why: 'the operator console\'s style sheet (static, no data)' },
  'GET /payments/simulated/checkout/:id': { why: 'the simulated provider\'s checkout page (the session id is the credential)', probe: '/payments/simulated/checkout/cs_forged0000000000000000' },
  'POST /payments/simulated/checkout/:id': { why: 'the simulated checkout page\'s form', probe: '/payments/simulated/checkout/cs_forged0000000000000000' },
  'POST /payments/stripe/webhook': { why: 'Stripe\'s webhook, authenticated by its signature', onlyWhen: 'PAYMENTS=stripe' },
};

/** The resources of an account a path parameter can name, and the API area whose scope guards each. */
type Kind = 'server' | 'server_snapshot' | 'server_ip' | 'vm' | 'vm_snapshot' | 'domain' | 'hosting' | 'ticket' | 'sub_user' | 'ssh_key' | 'operation'
  | 'event' | 'webhook' | 'dns_zone' | 'dns_record';

/**
 * Every path parameter of a customer route, by the route's path up to it: the kind of resource it
 * names, or the value it takes when it names none of an account's (and why).
 */
const PARAMS: [RegExp, { kind: Kind } | { value: string; why: string }][] = [
  [/^\/v2\/servers\/:id$/, { kind: 'server' }],
  [/^\/v2\/servers\/:id\/snapshots\/:sid$/, { kind: 'server_snapshot' }],
  [/^\/v2\/servers\/:id\/ips\/:address$/, { kind: 'server_ip' }],
  [/^\/v2\/servers\/:id\/actions\/:verb$/, { value: 'reboot', why: 'an action name' }],
  [/^\/v2\/operations\/:id$/, { kind: 'operation' }],
  [/^\/v2\/vdc\/vms\/:id$/, { kind: 'vm' }],
  [/^\/v2\/vdc\/vms\/:id\/snapshots\/:sid$/, { kind: 'vm_snapshot' }],
  [/^\/v2\/vdc\/vms\/:id\/actions\/:verb$/, { value: 'reboot', why: 'an action name' }],
  [/^\/v2\/domains\/:id$/, { kind: 'domain' }],
  [/^\/v2\/domains\/bulk\/:action$/, { value: 'delete', why: 'a bulk action name (only the listed ones exist)' }],
  [/^\/v2\/web-hosting\/:id$/, { kind: 'hosting' }],
  [/^\/v2\/web-hosting\/:id\/databases\/:database$/, { value: 'someone_main', why: 'a database of the hosting account, found by name on its server (an unknown one is 404)' }],
  [/^\/v2\/tickets\/:id$/, { kind: 'ticket' }],
  [/^\/v2\/sub-users\/:id$/, { kind: 'sub_user' }],
  [/^\/v2\/ssh-keys\/:id$/, { kind: 'ssh_key' }],
  [/^\/v2\/events\/:id$/, { kind: 'event' }],
  [/^\/v2\/webhooks\/:id$/, { kind: 'webhook' }],
  [/^\/v2\/dns\/zones\/:id$/, { kind: 'dns_zone' }],
  [/^\/v2\/dns\/zones\/:id\/records\/:record_id$/, { kind: 'dns_record' }],
  [/^\/v2\/plans\/:id$/, { value: '1', why: 'the catalogue is the same for every account' }],
  [/^\/v1\/servers\/:server_id$/, { kind: 'server' }],
  [/^\/v1\/servers\/:server_id\/snapshots\/:snapshot_id$/, { kind: 'server_snapshot' }],
  [/^\/v1\/servers\/:server_id\/ips\/:ip_address$/, { kind: 'server_ip' }],
  [/^\/v1\/vms\/:vm_id$/, { kind: 'vm' }],
  [/^\/v1\/vms\/:vm_id\/snapshots\/:snapshot_id$/, { kind: 'vm_snapshot' }],
  [/^\/v1\/tickets\/:ticket_id$/, { kind: 'ticket' }],
  [/^\/v1\/sub-users\/:sub_user_id$/, { kind: 'sub_user' }],
];

/** Bodies the schema alone cannot describe (one field of two is required); every other body is sample()'s. */
const BODIES: Record<string, unknown> = {
  'POST /v1/servers/:server_id/upgrade': { new_package_id: 3 },
  'POST /v2/servers/:id/actions/upgrade': { package_id: 3 },
};

/** The area whose scope guards each kind (an operation's is that of its family: the last test). */
const KIND_AREA: Record<Exclude<Kind, 'operation'>, Area> = {
  server: 'servers', server_snapshot: 'servers', server_ip: 'servers', vm: 'vdc', vm_snapshot: 'vdc', domain: 'domains',
  hosting: 'hosting', ticket: 'tickets', sub_user: 'sub_users', ssh_key: 'ssh_keys', event: 'events', webhook: 'webhooks',
  dns_zone: 'dns', dns_record: 'dns',
};

/** The family area of each kind of operation this file makes (what reading it needs). */
const OPERATION_FAMILIES: Area[] = ['servers', 'vdc', 'domains', 'hosting'];

type Ids = Record<Kind, string>;

let t: TestApp;
let a: Customer;
let b: Customer;
/** A's resources, and B's parents (a server and a VM) for the nested routes. */
let ofA: Ids;
let ofB: Pick<Ids, 'server' | 'vm' | 'dns_zone'>;
/** A's operations by family area. */
const opsOfA = new Map<Area, string>();
let routes: RouteEntry[];
let panelRoutes: RouteEntry[];
/**
 * The customer panel's routes: session auth, covered by test/panel/every-route.test.ts; and the
 * console's sign-in steps (staff-open), covered by test/admin/staff.test.ts.
 */
const isPanel = (r: RouteEntry) => r.url === '/panel' || r.url.startsWith('/panel/') || r.config.auth === 'staff-open';

const panelOnly = new Set(PANEL_ONLY.flatMap((p) => [p.method].flat().map((m) => `${m} /v2${p.url}`)));
const name = (r: RouteEntry) => `${r.method} ${r.url}`;
const authOf = (r: RouteEntry) => r.config.auth ?? (r.config.area ? 'customer' : 'none');
const isV1 = (r: RouteEntry) => r.config.credential === 'x-api-key';
const accessOf = (r: RouteEntry) => r.config.access ?? (r.method === 'GET' ? 'read' : 'write');

/** Path parameters of a route, each with the path up to it. */
function paramsOf(url: string): { param: string; prefix: string }[] {
  return [...url.matchAll(/:(\w+)/g)].map((m) => ({ param: m[1]!, prefix: url.slice(0, m.index! + m[0].length) }));
}

function describeParam(prefix: string) {
  return PARAMS.find(([re]) => re.test(prefix))?.[1];
}

/** A route's family: its API and first segment (/v2/servers, /v2/vdc, /v1/vms). */
const familyOf = (url: string) => url.split('/').slice(0, 3).join('/');

/**
 * The area a customer route must need, known apart from its own config: that of the resources its
 * family's routes name (/v2/servers, /v2/servers/:id/traffic → servers). A family that names none
 * (the account, billing, the catalogue) is taken at its config's word.
 */
function expectedArea(r: RouteEntry): Area {
  for (const x of routes) {
    if (familyOf(x.url) !== familyOf(r.url) || authOf(x) !== 'customer') continue;
    const first = paramsOf(x.url)[0];
    const d = first && describeParam(first.prefix);
    if (d && 'kind' in d && d.kind !== 'operation') return KIND_AREA[d.kind];
  }
  return r.config.area!;
}

/** A value the route's body schema accepts: its examples, defaults, or the least its types allow. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function sample(schema: any): unknown {
  if (schema === undefined) return undefined;
  if (schema.$ref) return sample(componentNamed(String(schema.$ref).replace(/#.*$/, '')));
  const x = schema['x-examples'] as Record<string, { value: unknown }> | undefined;
  if (x) return Object.values(x)[0]!.value;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const alt = schema.anyOf ?? schema.oneOf;
  if (alt) return sample(alt.find((s: { type?: string }) => s.type !== 'null') ?? alt[0]);
  switch (schema.type) {
    case 'object': {
      const optional = Object.keys(schema.properties ?? {}).filter((k) => !schema.required?.includes(k));
      const fields = [...schema.required ?? [], ...optional.slice(0, Math.max(0, (schema.minProperties ?? 0) - (schema.required?.length ?? 0)))];
      return Object.fromEntries(fields.map((k: string) => [k, sample(schema.properties[k])]));
    }
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 0) }, () => sample(schema.items));
    case 'integer': case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'string':
      return schema.format === 'email' ? 'someone@example.com' : 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    default:
      return undefined;
  }
}

/** The route with ids put in its path (`x1` for any id `ids` lacks or PARAMS does not describe). */
function concrete(r: RouteEntry, ids: Partial<Ids>): string {
  let url = r.url;
  for (const { param, prefix } of paramsOf(r.url)) {
    const d = describeParam(prefix);
    url = url.replace(`:${param}`, encodeURIComponent(!d ? 'x1' : 'kind' in d ? ids[d.kind] ?? 'x1' : d.value));
  }
  return url;
}

/** The header that carries a key on this route: v1's X-API-Key, otherwise Authorization: Bearer. */
function credential(r: RouteEntry, key: string | undefined): Record<string, string> {
  if (!key) return {};
  return isV1(r) ? { 'x-api-key': key } : { authorization: `Bearer ${key}` };
}

function send(r: RouteEntry, url: string, key: string | undefined, withBody = true): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { 'idempotency-key': randomUUID(), ...credential(r, key) };
  const body = !withBody ? undefined : name(r) in BODIES ? BODIES[name(r)] : sample(r.bodySchema);
  const query = withBody ? Object.fromEntries(Object.entries((sample(r.querySchema) ?? {}) as object).map(([k, v]) => [k, String(v)])) : {};
  return call(t.app, r.method as 'GET', url, { headers, query, ...(body !== undefined ? { body } : {}) });
}

/** Asserts an error answer in the envelope of the route's API: v1's `{success:false, error}` or v2's `{error}`. */
function assertError(r: RouteEntry, what: string, res: LightMyRequestResponse, status: number, v2Code: string, v1Code: string): void {
  const where = `${name(r)} (${what}): ${res.body.slice(0, 300)}`;
  assert.equal(res.statusCode, status, where);
  const body = json(res);
  if (isV1(r)) {
    assert.equal(body.success, false, where);
    assert.equal(body.error.code, v1Code, where);
  } else {
    assert.equal(body.success, undefined, where);
    assert.equal(body.data, undefined, where);
    assert.equal(body.error.code, v2Code, where);
    assert.match(body.error.doc_url, new RegExp(`#${v2Code}$`), where);
  }
}

const keys = new Map<string, string>();
/** A key of A's account holding exactly `scopes` (made once per set). */
async function keyWith(scopes: string[]): Promise<string> {
  const id = [...scopes].sort().join(' ');
  let key = keys.get(id);
  if (!key) {
    const res = await adminCall(t, 'POST', `/admin/v1/accounts/${a.accountId}/api-keys`, { name: 'scoped', ip_allowlist: ['127.0.0.1'], scopes });
    assert.equal(res.statusCode, 201, res.body);
    key = json(res).data.key as string;
    keys.set(id, key);
  }
  return key;
}

async function post(c: Customer, url: string, body: unknown): Promise<Json> {
  const res = await call(t.app, 'POST', url, { key: c.key, body });
  assert.ok(res.statusCode === 200 || res.statusCode === 201 || res.statusCode === 202, `${url}: ${res.body}`);
  return json(res).data;
}

/** A snapshot of a machine, once its operation completed: the id its list shows. */
async function snapshotOf(c: Customer, base: string): Promise<string> {
  const made = await post(c, `${base}/snapshots`, { name: 'nightly' });
  const op = await waitForOperation(t, c.key, made.operation?.id ?? made.operation_id);
  assert.equal(op.status, 'completed', op.detail);
  const list = json(await call(t.app, 'GET', `${base}/snapshots`, { key: c.key })).data;
  return String(list[0].id);
}

before(async () => {
  t = await startApp({ worker: 'embedded' });
  const all = routesOf(t.app);
  panelRoutes = all.filter(isPanel);
  routes = all.filter((r) => !isPanel(r));
  [a, b] = await Promise.all([createCustomer(t, { deposit: '500.00' }), createCustomer(t, { deposit: '500.00' })]);
  await Promise.all([setPool(t, a.accountId, BIG_POOL), setPool(t, b.accountId, BIG_POOL)]);
  const [server, vm, domain, hosting, serverB, vmB] = await Promise.all([
    activeServer(t, a), activeVm(t, a), activeDomain(t, a), activeHosting(t, a), activeServer(t, b), activeVm(t, b),
  ]);
  const [serverSnapshot, vmSnapshot, ip] = await Promise.all([
    snapshotOf(a, `/v2/servers/${server.id}`),
    snapshotOf(a, `/v2/vdc/vms/${vm.id}`),
    (async () => {
      const made = await post(a, `/v2/servers/${server.id}/ips`, { version: 4 });
      if (made.operation) assert.equal((await waitForOperation(t, a.key, made.operation.id)).status, 'completed');
      const list = json(await call(t.app, 'GET', `/v2/servers/${server.id}/ips`, { key: a.key })).data as { address: string }[];
      return list[list.length - 1]!.address;
    })(),
  ]);
  const ticket = await post(a, '/v2/tickets', { subject: 'Help', message: 'Something is wrong with my server.' });
  const subUser = json(await adminCall(t, 'POST', `/admin/v1/accounts/${a.accountId}/sub-users`, { email: `su-${randomUUID()}@example.com`, first_name: 'Sub', last_name: 'User' })).data;
  const sshKey = await post(a, '/v2/ssh-keys', { name: 'laptop', public_key: openSshKey('ed25519') });
  // An endpoint on this machine's discard port (deliveries are refused at once, never leave it):
  // made through an app that admits such URLs, as an operator may allow.
  const local = await t.sibling({ webhookAllowHttp: true, webhookAllowPrivate: true, worker: 'off' });
  const webhook = json(await call(local, 'POST', '/v2/webhooks', { key: a.key, body: { url: 'http://127.0.0.1:9/hook' } })).data;
  const event = json(await call(t.app, 'GET', '/v2/events', { key: a.key })).data[0];
  assert.ok(webhook?.id && event?.id, 'A has a webhook and an event');
  opsOfA.set('servers', await latestOperation('server', server.id));
  opsOfA.set('vdc', await latestOperation('vdc_vm', vm.id));
  opsOfA.set('domains', await latestOperation('domain', domain.id));
  opsOfA.set('hosting', await latestOperation('web_hosting', hosting.id));
  ofA = {
    server: server.id, server_snapshot: serverSnapshot, server_ip: ip, vm: vm.id, vm_snapshot: vmSnapshot, domain: domain.id,
    hosting: hosting.id, ticket: String(ticket.id), sub_user: String(subUser.id), ssh_key: String(sshKey.id), operation: opsOfA.get('servers')!,
    event: event.id, webhook: webhook.id, dns_zone: '', dns_record: '',
  };
  const zone = await post(a, '/v2/dns/zones', { name: `a-${randomUUID().slice(0, 8)}.example.com` });
  const record = await post(a, `/v2/dns/zones/${zone.id}/records`, { name: 'www', type: 'A', content: '192.0.2.10' });
  const zoneB = await post(b, '/v2/dns/zones', { name: `b-${randomUUID().slice(0, 8)}.example.com` });
  ofA.dns_zone = zone.id;
  ofA.dns_record = record.id;
  ofB = { server: serverB.id, vm: vmB.id, dns_zone: zoneB.id };
});

/** The newest operation on a resource (the tests' own database: no route lists them). */
async function latestOperation(resourceType: string, resourceId: string): Promise<string> {
  const row = await t.database.db.selectFrom('operations').select('id').where('resource_type', '=', resourceType).where('resource_id', '=', resourceId)
    .orderBy('created_at', 'desc').executeTakeFirstOrThrow();
  return row.id;
}

test('every route is a customer, admin or metrics route, or a public one listed with its reason', () => {
  const byAuth = new Map<string, RouteEntry[]>();
  for (const r of routes) byAuth.set(authOf(r), [...byAuth.get(authOf(r)) ?? [], r]);
  const open = (byAuth.get('none') ?? []).map(name);
  const unlisted = open.filter((n) => !PUBLIC[n]);
  assert.deepEqual(unlisted, [], 'routes anyone may call must be listed in PUBLIC with the reason (or take a key: config.area / config.auth)');
  const gone = Object.entries(PUBLIC).filter(([n, p]) => !p.onlyWhen && !open.includes(n)).map(([n]) => n);
  assert.deepEqual(gone, [], 'PUBLIC lists routes that are no longer public routes of the app');
  assert.ok((byAuth.get('customer') ?? []).length >= 150, `customer routes: ${(byAuth.get('customer') ?? []).length}`);
  assert.ok((byAuth.get('admin') ?? []).length >= 80, `admin routes: ${(byAuth.get('admin') ?? []).length}`);
  assert.ok(panelRoutes.length >= 20, `panel routes: ${panelRoutes.length}`);
  for (const r of byAuth.get('customer') ?? []) {
    for (const { param, prefix } of paramsOf(r.url)) {
      if (panelOnly.has(name(r))) continue;
      assert.ok(describeParam(prefix), `${name(r)}: say in PARAMS what :${param} names (${prefix})`);
    }
  }
  process.stdout.write(`# route security: ${routes.length} routes: ${[...byAuth].map(([k, v]) => `${v.length} ${k}`).join(', ')}; ${panelRoutes.length} panel routes (test/panel/every-route.test.ts)\n`);
});

test('a public route with a secret in its path refuses a made-up one', async () => {
  for (const [n, p] of Object.entries(PUBLIC)) {
    if (!p.probe) continue;
    const res = await call(t.app, n.split(' ')[0] as 'GET', p.probe);
    assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${n}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  }
});

test('no key, or an unknown one → 401 in the API\'s envelope, on every route that needs one', async () => {
  const unknown = `hc_live_${'A'.repeat(40)}`;
  for (const r of routes) {
    const auth = authOf(r);
    if (auth === 'none') continue;
    const url = concrete(r, {});
    if (auth === 'customer') {
      assertError(r, 'no key', await send(r, url, undefined, false), 401, 'AUTH_REQUIRED', 'INVALID_API_KEY');
      assertError(r, 'unknown key', await send(r, url, unknown, false), 401, 'AUTH_INVALID', 'INVALID_API_KEY');
    } else {
      assertError(r, 'no token', await send(r, url, undefined, false), 401, 'AUTH_REQUIRED', '');
      assertError(r, 'a customer key', await send(r, url, a.key, false), 401, 'AUTH_INVALID', '');
    }
  }
});

test('a key lacking the scope of the route\'s family → 403; a key holding only that scope reaches the route — on every customer route', async () => {
  const failures: string[] = [];
  for (const r of routes.filter((x) => authOf(x) === 'customer')) {
    const areas = [expectedArea(r), ...(r.config.alsoAreas ?? [])];
    const needed = areas.map((area) => `${area}:${accessOf(r)}`);
    const url = concrete(r, ofA);
    const lacking = await keyWith(ALL_SCOPES.filter((s) => !needed.includes(s)));
    assertError(r, `a key without ${needed.join('/')}`, await send(r, url, lacking, false), 403, 'AUTH_SCOPE_INSUFFICIENT', 'FORBIDDEN');
    // A's own ids, and a query parameter no route knows: the answer is 422 once the key is
    // admitted, before any handler runs (nothing is done to A's resources).
    const res = await call(t.app, r.method as 'GET', `${url}?scope_probe=1`, { headers: credential(r, await keyWith([needed[0]!])) });
    if (res.statusCode !== 422) failures.push(`${name(r)} with only ${needed[0]}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  }
  assert.deepEqual(failures, []);
});

test('another account\'s ids → 404, on every customer route that takes one (its own parent with the other\'s child, too)', async () => {
  let checked = 0;
  const failures: string[] = [];
  const expect404 = (r: RouteEntry, what: string, res: LightMyRequestResponse) => {
    try {
      assertError(r, what, res, 404, 'RESOURCE_NOT_FOUND', 'NOT_FOUND');
    } catch (e) {
      failures.push((e as Error).message.split('\n')[0]!);
    }
  };
  for (const r of routes.filter((x) => authOf(x) === 'customer' && !panelOnly.has(name(x)))) {
    const kinds = paramsOf(r.url).map(({ prefix }) => describeParam(prefix)!).filter((d) => 'kind' in d).map((d) => (d as { kind: Kind }).kind);
    if (kinds.length === 0) continue;
    expect404(r, 'B\'s key, A\'s ids', await send(r, concrete(r, ofA), b.key));
    checked++;
    // A nested id: B's own server or VM with A's snapshot or address.
    if (kinds.length > 1) {
      const parent = kinds[0] === 'server' ? { server: ofB.server } : kinds[0] === 'vm' ? { vm: ofB.vm } : kinds[0] === 'dns_zone' ? { dns_zone: ofB.dns_zone } : undefined;
      assert.ok(parent, `${name(r)}: which of B's resources is the parent of ${kinds.join(', ')}?`);
      expect404(r, 'B\'s parent, A\'s child', await send(r, concrete(r, { ...ofA, ...parent }), b.key));
    }
  }
  assert.deepEqual(failures, []);
  assert.ok(checked >= 60, `routes with an account's id: ${checked}`);
});

test('a route serving several families (an operation) needs the scope of the family of what it finds', async () => {
  for (const r of routes.filter((x) => authOf(x) === 'customer' && x.config.alsoAreas?.length)) {
    const kinds = paramsOf(r.url).map(({ prefix }) => describeParam(prefix)!);
    assert.ok(kinds.length === 1 && 'kind' in kinds[0]! && kinds[0].kind === 'operation', `${name(r)}: describe how its families are told apart`);
    for (const family of OPERATION_FAMILIES) {
      const url = r.url.replace(/:\w+/, opsOfA.get(family)!);
      const own = await send(r, url, await keyWith([`${family}:read`]));
      assert.equal(own.statusCode, 200, `${name(r)}, a ${family} operation with only ${family}:read: ${own.body.slice(0, 300)}`);
      const others = await keyWith(ALL_SCOPES.filter((s) => s !== `${family}:read`));
      assertError(r, `a ${family} operation without ${family}:read`, await send(r, url, others), 403, 'AUTH_SCOPE_INSUFFICIENT', 'FORBIDDEN');
    }
  }
});
