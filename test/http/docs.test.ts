// The generated OpenAPI document (what a client generator needs from it), the reference page
// shell and the error catalog page. Linting, client generation and the browser: their own files.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import zlib from 'node:zlib';
import { validate } from '@readme/openapi-parser';
import { OPERATION_RESOURCE_TYPES } from '../../src/core/families.ts';
import { introduction } from '../../src/http/docs/introduction.ts';
import { ERROR_CODES } from '../../src/http/error-codes.ts';
import { type TestApp, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { serverBody } from '../helpers/servers.ts';

// Every error code of the Hosting Cloud API v2 with its status (the codes this service adds are below).
const API_ERRORS: Record<string, number> = {
  REQUEST_MALFORMED: 400, METHOD_NOT_ALLOWED: 405, ENDPOINT_NOT_FOUND: 404, UNSUPPORTED_MEDIA_TYPE: 415,
  AUTH_REQUIRED: 401, AUTH_INVALID: 401, AUTH_IP_NOT_ALLOWED: 403, ACCOUNT_INACTIVE: 403, AUTH_SCOPE_INSUFFICIENT: 403,
  RESOURCE_NOT_FOUND: 404, STATE_CONFLICT: 409, IDEMPOTENCY_KEY_CONFLICT: 409, VALIDATION_FAILED: 422,
  INSUFFICIENT_BALANCE: 422, QUOTA_EXCEEDED: 422, RATE_LIMITED: 429, LOCATION_INVALID: 422, OS_VERSION_INVALID: 422,
  INVALID_PASSWORD: 422, HOSTNAME_IN_USE: 409, PLAN_NOT_FOUND: 422, CAPACITY_UNAVAILABLE: 422,
  NODE_INCOMPATIBLE_LIVE_MIGRATE: 422, SOURCE_NOT_FOUND: 422, NOT_IMPLEMENTED: 501, INTERNAL_ERROR: 500,
  UPSTREAM_ERROR: 502, SERVICE_UNAVAILABLE: 503,
};

// Every operation: method, path (relative to the server URL) and operationId — stable names a
// generated client exposes, so a change here is a breaking change for clients.
const OPERATIONS: [string, string, string][] = [
  ['get', '/servers', 'listServers'], ['post', '/servers', 'createServer'], ['get', '/servers/{id}', 'getServer'],
  ['patch', '/servers/{id}', 'updateServer'], ['delete', '/servers/{id}', 'deleteServer'],
  ['post', '/servers/{id}/actions/{verb}', 'runServerAction'], ['post', '/servers/{id}/actions/upgrade', 'upgradeServer'],
  ['get', '/servers/{id}/snapshots', 'listServerSnapshots'], ['post', '/servers/{id}/snapshots', 'createServerSnapshot'],
  ['get', '/servers/{id}/ips', 'listServerIps'], ['post', '/servers/{id}/ips', 'addServerIp'],
  ['get', '/servers/{id}/console', 'getServerConsole'], ['get', '/console/{ticket}', 'openConsoleLink'],
  ['get', '/servers/{id}/firewall/rules', 'listServerFirewallRules'], ['get', '/servers/{id}/metrics', 'getServerMetrics'],
  ['get', '/servers/{id}/traffic', 'getServerTraffic'],
  ['get', '/servers/{id}/ips/{address}/rdns', 'getServerIpReverseDns'], ['put', '/servers/{id}/ips/{address}/rdns', 'updateServerIpReverseDns'],
  ['delete', '/servers/{id}/ips/{address}', 'deleteServerIp'], ['delete', '/servers/{id}/snapshots/{sid}', 'deleteServerSnapshot'],
  ['post', '/servers/{id}/snapshots/{sid}/restore', 'restoreServerSnapshot'], ['get', '/operations/{id}', 'getOperation'],
  ['get', '/events', 'listEvents'], ['get', '/events/{id}', 'getEvent'],
  ['get', '/webhooks', 'listWebhooks'], ['post', '/webhooks', 'createWebhook'], ['get', '/webhooks/{id}', 'getWebhook'],
  ['patch', '/webhooks/{id}', 'updateWebhook'], ['delete', '/webhooks/{id}', 'deleteWebhook'],
  ['post', '/webhooks/{id}/rotate-secret', 'rotateWebhookSecret'], ['post', '/webhooks/{id}/ping', 'pingWebhook'],
  ['get', '/webhooks/{id}/deliveries', 'listWebhookDeliveries'],
  ['get', '/dns/zones', 'listDnsZones'], ['post', '/dns/zones', 'createDnsZone'], ['get', '/dns/zones/{id}', 'getDnsZone'],
  ['delete', '/dns/zones/{id}', 'deleteDnsZone'], ['get', '/dns/zones/{id}/records', 'listDnsRecords'],
  ['post', '/dns/zones/{id}/records', 'createDnsRecord'], ['patch', '/dns/zones/{id}/records/{record_id}', 'updateDnsRecord'],
  ['delete', '/dns/zones/{id}/records/{record_id}', 'deleteDnsRecord'],
  ['get', '/plans', 'listPlans'], ['get', '/plans/{id}', 'getPlan'], ['get', '/packages', 'listPackages'],
  ['get', '/operating-systems', 'listOperatingSystems'], ['get', '/locations', 'listLocations'],
  ['get', '/web-hosting-packages', 'listWebHostingPackages'], ['get', '/departments', 'listDepartments'],
  ['get', '/billing/balance', 'getBalance'], ['get', '/billing/transactions', 'listTransactions'], ['get', '/billing/upcoming', 'listUpcomingCharges'],
  ['get', '/account', 'getAccount'], ['get', '/account/api-keys', 'listApiKeys'], ['get', '/account/ip-allowlist', 'listIpAllowlist'],
  ['get', '/vdc/resources', 'getVdcResources'], ['get', '/vdc/vms', 'listVdcVms'], ['post', '/vdc/vms', 'createVdcVm'],
  ['get', '/vdc/vms/{id}', 'getVdcVm'], ['delete', '/vdc/vms/{id}', 'deleteVdcVm'], ['get', '/vdc/vms/{id}/usage', 'getVdcVmUsage'],
  ['post', '/vdc/vms/{id}/actions/{verb}', 'runVdcVmAction'], ['get', '/vdc/vms/{id}/snapshots', 'listVdcVmSnapshots'],
  ['post', '/vdc/vms/{id}/snapshots', 'createVdcVmSnapshot'], ['delete', '/vdc/vms/{id}/snapshots/{sid}', 'deleteVdcVmSnapshot'],
  ['post', '/vdc/vms/{id}/snapshots/{sid}/restore', 'restoreVdcVmSnapshot'],
  ['get', '/tickets', 'listTickets'], ['get', '/tickets/{id}', 'getTicket'], ['post', '/tickets', 'createTicket'],
  ['post', '/tickets/{id}/replies', 'createTicketReply'], ['post', '/tickets/{id}/close', 'closeTicket'],
  ['get', '/sub-users', 'listSubUsers'], ['get', '/sub-users/{id}', 'getSubUser'], ['patch', '/sub-users/{id}', 'updateSubUser'],
  ['delete', '/sub-users/{id}', 'deleteSubUser'], ['get', '/sub-users/{id}/permissions', 'getSubUserPermissions'],
  ['put', '/sub-users/{id}/permissions', 'replaceSubUserPermissions'],
  ['get', '/ssh-keys', 'listSshKeys'], ['post', '/ssh-keys', 'createSshKey'], ['delete', '/ssh-keys/{id}', 'deleteSshKey'],
  ['get', '/reseller', 'getReseller'], ['get', '/reseller/tiers', 'getResellerTiers'],
  ['get', '/domains', 'listDomains'], ['post', '/domains', 'registerDomain'], ['get', '/domains/{id}', 'getDomain'],
  ['get', '/domains/check', 'checkDomain'], ['get', '/domains/pricing', 'listDomainPricing'],
  ['post', '/domains/transfer', 'transferDomain'], ['post', '/domains/{id}/renew', 'renewDomain'],
  ['post', '/domains/bulk/register', 'bulkRegisterDomains'], ['post', '/domains/bulk/transfer', 'bulkTransferDomains'],
  ['post', '/domains/bulk/renew', 'bulkRenewDomains'],
  ['get', '/domains/{id}/nameservers', 'getDomainNameservers'], ['put', '/domains/{id}/nameservers', 'updateDomainNameservers'],
  ['put', '/domains/{id}/lock', 'updateDomainLock'], ['put', '/domains/{id}/whois-privacy', 'updateDomainWhoisPrivacy'],
  ['get', '/domains/{id}/auth-code', 'getDomainAuthCode'], ['post', '/domains/{id}/auth-code', 'refreshDomainAuthCode'],
  ['get', '/web-hosting', 'listWebHosting'], ['post', '/web-hosting', 'createWebHosting'], ['get', '/web-hosting/{id}', 'getWebHosting'],
  ['post', '/web-hosting/{id}/renew', 'renewWebHosting'], ['post', '/web-hosting/{id}/cancel', 'cancelWebHosting'],
  ['get', '/web-hosting/{id}/login', 'getWebHostingLogin'], ['get', '/web-hosting-login/{ticket}', 'openWebHostingLoginLink'],
  ['get', '/web-hosting/{id}/site', 'getWebHostingSite'], ['post', '/web-hosting/{id}/sftp-password', 'resetWebHostingSftpPassword'],
  ['post', '/web-hosting/{id}/databases', 'createWebHostingDatabase'],
  ['post', '/web-hosting/{id}/databases/{database}/password', 'resetWebHostingDatabasePassword'],
  ['delete', '/web-hosting/{id}/databases/{database}', 'deleteWebHostingDatabase'],
];

const COMPONENTS = [
  'Server', 'ServerListItem', 'ServerCreated', 'ServerDeleteResult', 'ServerActionAccepted', 'UpgradeResult', 'Operation',
  'Snapshot', 'SnapshotCreated', 'ReverseDns', 'IpCancelled', 'SnapshotDeleteResult', 'SnapshotRestoreAccepted', 'IpAddress', 'FirewallRule', 'ConsoleSession', 'ConsoleOpened', 'Metrics', 'Traffic',
  'Plan', 'Package', 'OperatingSystem', 'Location', 'WebHostingPackage', 'Department', 'Balance', 'Transaction',
  'Account', 'ApiKey', 'IpAllowlistEntry', 'Money', 'Error', 'ErrorCode', 'FieldError', 'Meta', 'ListMeta', 'Pagination',
  'VdcResources', 'VdcBucket', 'VdcVm', 'VdcVmCreated', 'VdcVmActionAccepted', 'VdcVmDeleteResult', 'VdcVmUsage',
  'VdcSnapshot', 'VdcSnapshotCreated', 'VdcSnapshotDeleteResult',
  'Ticket', 'TicketDetail', 'TicketMessage', 'SubUser', 'SubUserDetail', 'SubUserPermissions', 'SubUserDeleteResult',
  'SshKey', 'ResellerStatus', 'ResellerTiers', 'ResellerTier',
  'Domain', 'DomainCreated', 'DomainAvailability', 'TldPrice', 'DomainNameservers', 'DomainAuthCode', 'BulkResult',
  'WebHosting', 'WebHostingCreated', 'WebHostingRenewed', 'WebHostingCancelled', 'HostingLogin', 'HostingLoginSandbox',
  'HostingSite', 'HostingSftpPassword', 'HostingDatabaseCredentials', 'HostingDatabaseDropped',
];

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestApp;
let doc: Json;
before(async () => {
  t = await startApp();
  const res = await call(t.app, 'GET', '/v2/openapi.json');
  assert.equal(res.statusCode, 200);
  doc = json(res);
});

const operations = () => Object.entries(doc.paths as Json).flatMap(([p, item]) => Object.entries(item as Json).map(([m, op]) => ({ path: p, method: m, op: op as Json })));
const op = (method: string, p: string) => doc.paths[p][method] as Json;
/** `error.code` values an operation declares for a status. */
const codesOf = (o: Json, status: string): string[] => o.responses[status]?.content['application/json'].schema.allOf[1].properties.error.properties.code.enum ?? [];

test('a valid OpenAPI 3.1 document, paths relative to the server URL <PUBLIC_URL>/v2, public', async () => {
  assert.equal(doc.openapi, '3.1.0');
  assert.equal(doc.info.version, '2.0.0');
  const result = await validate(structuredClone(doc) as Parameters<typeof validate>[0]);
  assert.equal(result.valid, true, JSON.stringify(result));
  assert.deepEqual(doc.servers, [{ url: 'http://api.test/v2', description: 'This service' }]);
  assert.deepEqual(doc.info.license, { name: 'MIT', identifier: 'MIT' });
  assert.equal(doc.info.contact.url, 'http://api.test/v2/docs');
  const paths = Object.keys(doc.paths);
  assert.ok(!paths.some((p) => p.startsWith('/v2') || p.startsWith('/admin')), `paths are relative, admin is elsewhere: ${paths.join(' ')}`);
  assert.ok(!paths.some((p) => p.includes('openapi') || p.includes('/docs')), 'docs routes are hidden');
  assert.deepEqual(doc.components.securitySchemes.bearer, { type: 'http', scheme: 'bearer', description: doc.components.securitySchemes.bearer.description });
  assert.deepEqual(doc.security, [{ bearer: [] }]);
});

test('every operation has its stable operationId, a short summary, a description and a declared tag', () => {
  const found = operations().map(({ method, path: p, op: o }) => [method, p, o.operationId]);
  assert.deepEqual(found.sort(), [...OPERATIONS].sort());
  const tags = new Set((doc.tags as Json[]).map((x) => x.name));
  for (const { method, path: p, op: o } of operations()) {
    const what = `${method} ${p}`;
    assert.match(o.operationId, /^[a-z][A-Za-z]+$/, what);
    assert.ok(o.summary.length <= 50, `${what}: summary "${o.summary}" is short; details go in the description`);
    assert.ok(o.description.length > 20, `${what}: description`);
    assert.equal(o.tags.length, 1, what);
    assert.ok(tags.has(o.tags[0]), `${what}: tag ${o.tags[0]} is declared`);
  }
  for (const tag of doc.tags as Json[]) assert.ok(tag.description, `tag ${tag.name} is described`);
});

test('panel-only endpoints are listed in the introduction, not as operations that can only fail', () => {
  for (const p of ['/sub-users', '/billing/deposits', '/billing/invoices', '/account/api-keys/{id}', '/account/ip-allowlist/{entry}']) {
    assert.ok(doc.info.description.includes(`${p}\``), `${p} is listed as panel-only`);
  }
  // GET /sub-users is an operation; inviting (POST) is panel-only.
  assert.equal(doc.paths['/sub-users'].post, undefined);
  assert.ok(doc.paths['/sub-users'].get);
  assert.equal(doc.paths['/account'].patch, undefined);
  assert.equal(doc.paths['/account/api-keys'].post, undefined);
});

test('resources are named components, referenced from every success response', () => {
  for (const name of COMPONENTS) assert.ok(doc.components.schemas[name], `components.schemas.${name}`);
  for (const { method, path: p, op: o } of operations()) {
    const success = Object.keys(o.responses).filter((s) => s.startsWith('2'));
    assert.equal(success.length, 1, `${method} ${p}: one success status`);
    const schema = o.responses[success[0]!].content['application/json'].schema;
    // GET /domains/pricing answers a page of TLDs, or one TLD when `tld` is given (one endpoint for both).
    for (const envelope of schema.anyOf ?? [schema]) {
      const data = envelope.properties.data;
      assert.match(data.$ref ?? data.items?.$ref, /^#\/components\/schemas\/\w+$/, `${method} ${p}: data is a $ref`);
      assert.match(envelope.properties.meta.$ref, /^#\/components\/schemas\/(Meta|ListMeta)$/);
    }
    assert.ok(!o.responses[success[0]!].description.startsWith('Default'), `${method} ${p}: the success response is described`);
  }
  // Nested resources are references too, never copies.
  assert.deepEqual(doc.components.schemas.ServerCreated.allOf[0], { $ref: '#/components/schemas/Server' });
  assert.deepEqual(doc.components.schemas.ServerActionAccepted.properties.operation, { $ref: '#/components/schemas/Operation' });
  assert.deepEqual(doc.components.schemas.Account.properties.balance, { $ref: '#/components/schemas/Money' });
  assert.deepEqual(doc.components.schemas.Error.properties.error.properties.code, { $ref: '#/components/schemas/ErrorCode' });
  assert.deepEqual(new Set(doc.components.schemas.ErrorCode.enum), new Set(Object.keys(ERROR_CODES)));
});

test('each operation declares its error codes per status; codes and statuses come from error-codes.ts', () => {
  for (const { method, path: p, op: o } of operations()) {
    for (const [status, response] of Object.entries(o.responses as Json)) {
      // Successes, and the redirect of a link that opens a panel.
      if (status.startsWith('2') || status.startsWith('3')) continue;
      const codes = codesOf(o, status);
      assert.ok(codes.length > 0, `${method} ${p} ${status}`);
      for (const code of codes) {
        assert.equal(String(ERROR_CODES[code as keyof typeof ERROR_CODES].status), status, `${method} ${p}: ${code} under ${status}`);
        assert.ok((response as Json).description.includes(`\`${code}\``), `${method} ${p} ${status}: the description explains ${code}`);
      }
      assert.deepEqual((response as Json).content['application/json'].schema.allOf[0], { $ref: '#/components/schemas/Error' });
    }
    // What every operation can answer.
    assert.deepEqual(codesOf(o, '400'), ['REQUEST_MALFORMED'], `${method} ${p}`);
    assert.ok(codesOf(o, '422').includes('VALIDATION_FAILED'), `${method} ${p}`);
    assert.deepEqual(codesOf(o, '429'), ['RATE_LIMITED'], `${method} ${p}`);
    assert.deepEqual(codesOf(o, '500'), ['INTERNAL_ERROR'], `${method} ${p}`);
    assert.deepEqual(codesOf(o, '503'), ['SERVICE_UNAVAILABLE'], `${method} ${p}`);
    const authenticated = o.security === undefined;
    assert.deepEqual(codesOf(o, '401'), authenticated ? ['AUTH_INVALID', 'AUTH_REQUIRED'] : [], `${method} ${p}`);
    const body = method !== 'get';
    // A write may also come from a customer panel session, which must carry its CSRF token.
    const forbidden = ['ACCOUNT_INACTIVE', 'AUTH_IP_NOT_ALLOWED', 'AUTH_SCOPE_INSUFFICIENT', ...(body ? ['CSRF_TOKEN_INVALID'] : [])];
    assert.deepEqual(codesOf(o, '403'), authenticated ? forbidden : [], `${method} ${p}`);
    assert.deepEqual(codesOf(o, '413'), body ? ['PAYLOAD_TOO_LARGE'] : [], `${method} ${p}`);
    assert.deepEqual(codesOf(o, '415'), body ? ['UNSUPPORTED_MEDIA_TYPE'] : [], `${method} ${p}`);
  }
  // Each operation's codes: what the core raises for it, and no more.
  const create = op('post', '/servers');
  assert.deepEqual(codesOf(create, '409'), ['HOSTNAME_IN_USE', 'IDEMPOTENCY_KEY_CONFLICT']);
  assert.deepEqual(codesOf(create, '422'), ['CAPACITY_UNAVAILABLE', 'INSUFFICIENT_BALANCE', 'INVALID_PASSWORD', 'LOCATION_INVALID', 'OS_VERSION_INVALID', 'PLAN_NOT_FOUND', 'SOURCE_NOT_FOUND', 'VALIDATION_FAILED']);
  assert.deepEqual(codesOf(create, '502'), ['UPSTREAM_ERROR']);
  assert.deepEqual(codesOf(create, '404'), []);
  assert.deepEqual(codesOf(op('get', '/servers/{id}'), '404'), ['RESOURCE_NOT_FOUND']);
  assert.deepEqual(codesOf(op('delete', '/servers/{id}'), '409'), ['STATE_CONFLICT']);
  assert.deepEqual(codesOf(op('post', '/servers/{id}/actions/{verb}'), '422'), ['CAPACITY_UNAVAILABLE', 'INSUFFICIENT_BALANCE', 'INVALID_PASSWORD', 'LOCATION_INVALID', 'NODE_INCOMPATIBLE_LIVE_MIGRATE', 'OS_VERSION_INVALID', 'VALIDATION_FAILED']);
  assert.deepEqual(codesOf(op('post', '/servers/{id}/ips'), '422'), ['CAPACITY_UNAVAILABLE', 'INSUFFICIENT_BALANCE', 'QUOTA_EXCEEDED', 'VALIDATION_FAILED']);
  assert.deepEqual(codesOf(op('get', '/plans'), '404'), []);
  assert.deepEqual(codesOf(op('get', '/plans/{id}'), '404'), ['RESOURCE_NOT_FOUND']);
});

test('the migrate verb: an addition, marked as such, with its body fields and codes', () => {
  const action = op('post', '/servers/{id}/actions/{verb}');
  assert.match(action.description, /\*\*Addition to the Hosting Cloud API v2\*\*: the verb `migrate`/);
  assert.ok(action.parameters.find((x: Json) => x.name === 'verb').schema.enum.includes('migrate'));
  const body = action.requestBody.content['application/json'].schema;
  assert.deepEqual(body.properties.mode.enum, ['live', 'cold']);
  assert.equal(body.properties.location_id.type, 'integer');
  assert.ok(!JSON.stringify(doc).includes('node_id'), 'nodes are never shown to customers');
});

test('VDC: the v2 additions are marked as such, delete takes confirm_name, each declares what the core raises', () => {
  const additions = ['createVdcVm', 'deleteVdcVm', 'createVdcVmSnapshot', 'deleteVdcVmSnapshot', 'restoreVdcVmSnapshot'];
  for (const { op: o } of operations().filter((x) => x.op.tags[0] === 'VDC')) {
    assert.equal(o.description.includes('**Addition to the Hosting Cloud API v2**'), additions.includes(o.operationId), o.operationId);
  }
  assert.deepEqual(codesOf(op('post', '/vdc/vms'), '422'), ['CAPACITY_UNAVAILABLE', 'INVALID_PASSWORD', 'LOCATION_INVALID', 'OS_VERSION_INVALID', 'QUOTA_EXCEEDED', 'VALIDATION_FAILED']);
  assert.deepEqual(codesOf(op('post', '/vdc/vms'), '409'), ['IDEMPOTENCY_KEY_CONFLICT']);
  assert.deepEqual(codesOf(op('post', '/vdc/vms/{id}/actions/{verb}'), '422'), ['CAPACITY_UNAVAILABLE', 'INVALID_PASSWORD', 'OS_VERSION_INVALID', 'QUOTA_EXCEEDED', 'VALIDATION_FAILED']);
  assert.deepEqual(codesOf(op('get', '/vdc/vms/{id}/usage'), '502'), ['UPSTREAM_ERROR']);
  assert.deepEqual(codesOf(op('get', '/vdc/resources'), '404'), []);
  const confirm = op('delete', '/vdc/vms/{id}').parameters.find((x: Json) => x.name === 'confirm_name');
  assert.deepEqual({ in: confirm.in, required: confirm.required }, { in: 'query', required: true });
  assert.match(op('delete', '/vdc/vms/{id}')['x-codeSamples'][0].source, /\/vdc\/vms\/vm_7Rk2pQ9sLm4Xw1Zt\?confirm_name=db-1\.example\.com"/);
  assert.deepEqual(doc.components.schemas.VdcVmCreated.allOf[0], { $ref: '#/components/schemas/VdcVm' });
  assert.deepEqual(Object.keys(doc.components.schemas.VdcVm.properties).sort(),
    ['created_at', 'id', 'name', 'os', 'power_state', 'primary_ip', 'primary_ipv6', 'specs', 'status'], 'a VM\'s published fields, exactly');
  assert.deepEqual(Object.keys(doc.components.schemas.VdcResources.properties).sort(),
    ['bandwidth_mbit', 'cpu', 'has_pool', 'ipv4', 'ipv6', 'ram_mb', 'storage_gb'], 'the pool\'s published fields, exactly');
});

test('response headers: X-Request-Id and RateLimit-* on every response, Retry-After on 429 and 503, Idempotent-Replayed where Idempotency-Key is accepted, Location on 201 and redirects', () => {
  for (const name of ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'Idempotent-Replayed']) {
    assert.ok(doc.components.headers[name]?.description, name);
  }
  const idempotent = new Set(['createServer', 'createServerSnapshot', 'addServerIp', 'createVdcVm', 'registerDomain', 'transferDomain', 'renewDomain', 'bulkRegisterDomains', 'bulkTransferDomains', 'bulkRenewDomains', 'createWebHosting', 'renewWebHosting']);
  for (const { method, path: p, op: o } of operations()) {
    for (const [status, response] of Object.entries(o.responses as Json)) {
      const names = Object.keys((response as Json).headers);
      const expected = ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
      if (status === '429' || status === '503') expected.push('Retry-After');
      if (status.startsWith('2') && idempotent.has(o.operationId)) expected.push('Idempotent-Replayed');
      if (status.startsWith('3') || status === '201') expected.push('Location');
      assert.deepEqual(names.sort(), expected.sort(), `${method} ${p} ${status}`);
      for (const h of Object.values((response as Json).headers)) assert.match((h as Json).$ref, /^#\/components\/headers\//);
    }
    const key = (o.parameters ?? []).find((x: Json) => x.in === 'header' && x.name.toLowerCase() === 'idempotency-key');
    assert.equal(Boolean(key), idempotent.has(o.operationId), `${method} ${p}: Idempotency-Key`);
    if (key) {
      assert.equal(key.name, 'Idempotency-Key');
      assert.equal(key.schema.format, 'uuid');
      assert.notEqual(key.required, true);
    }
  }
});

test('defaulted parameters are optional, action bodies too; server-create modes are described with an example each', () => {
  for (const { method, path: p, op: o } of operations()) {
    for (const param of o.parameters ?? []) {
      if (param.schema.default !== undefined) assert.notEqual(param.required, true, `${method} ${p} ${param.name}`);
    }
    if (o.requestBody) {
      const required = o.requestBody.content['application/json'].schema.required ?? [];
      assert.equal(o.requestBody.required, required.length > 0, `${method} ${p}: body required iff it has required fields`);
    }
  }
  const perPage = op('get', '/billing/transactions').parameters.find((x: Json) => x.name === 'per_page');
  assert.deepEqual({ max: perPage.schema.maximum, def: perPage.schema.default, required: perPage.required }, { max: 100, def: 25, required: undefined });
  assert.equal(op('post', '/servers/{id}/actions/{verb}').requestBody.required, false);
  assert.equal(op('post', '/servers').requestBody.required, true);
  const create = op('post', '/servers').requestBody.content['application/json'];
  assert.deepEqual(Object.keys(create.examples), ['package', 'custom', 'source']);
  assert.match(create.schema.description, /\| package \| `plan_id`/);
  assert.match(create.schema.description, /\| custom \| `cpu_cores` \+ `ram_mb` \+ `storage_gb`/);
  assert.match(create.schema.description, /\| from source \| `source`/);
  assert.deepEqual(create.examples.source.value.source, { snapshot_id: 42 });
});

test('curl samples per operation; Markdown descriptions; no null anywhere but in sample answers', () => {
  for (const { method, path: p, op: o } of operations()) {
    const [sample] = o['x-codeSamples'];
    assert.equal(sample.lang, 'Shell');
    assert.ok(sample.source.startsWith(`curl -X ${method.toUpperCase()} "http://api.test/v2`), `${method} ${p}: ${sample.source}`);
    assert.equal(sample.source.includes('Authorization: Bearer $API_KEY'), o.security === undefined, `${method} ${p}`);
  }
  assert.match(op('post', '/servers')['x-codeSamples'][0].source, /Idempotency-Key: \$\(uuidgen\)[\s\S]*-d '\{"name":"web-1\.example\.com"/);
  assert.match(op('get', '/servers/{id}')['x-codeSamples'][0].source, /\/v2\/servers\/srv_8fJ2kLmN4pQ7rS1t"/);
  // The walkthrough, in CommonMark: headings the reference shows in its sidebar, fenced curl blocks.
  assert.match(doc.info.description, /^# First server in five minutes$/m);
  for (const step of ['/locations', '/plans', '/operating-systems', 'Idempotency-Key: $IDEMPOTENCY_KEY', '/operations/$OP', '/servers/$SERVER']) {
    assert.ok(doc.info.description.includes(step), step);
  }
  assert.match(doc.info.description, /```sh\nexport HC=http:\/\/api\.test\/v2\n/);
  assert.ok(doc.info.description.includes('Billable POSTs and creates (`createServer`, `createServerSnapshot`, `addServerIp`, `createVdcVm`, `registerDomain`, `transferDomain`, `renewDomain`, `bulkRegisterDomains`, `bulkTransferDomains`, `bulkRenewDomains`, `createWebHosting`, `renewWebHosting`) accept `Idempotency-Key: <uuid>`'), 'the introduction lists the idempotent operations');
  const nulls: string[] = [];
  const walk = (v: unknown, at: string) => {
    if (v === null) nulls.push(at);
    // A sample answer holds null where the answer does (a server's address before it is provisioned).
    else if (typeof v === 'object') for (const [k, x] of Object.entries(v as object)) if (k !== 'examples') walk(x, `${at}/${k}`);
  };
  walk(doc, '#');
  assert.deepEqual(nulls, []);
});

test('no wildcard paths in the OpenAPI document; every path parameter is declared', () => {
  for (const [p, ops] of Object.entries(doc.paths as Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>)) {
    assert.ok(!p.includes('*'), `wildcard path ${p}`);
    const names = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    for (const o of Object.values(ops)) {
      const declared = (o.parameters ?? []).filter((x) => x.in === 'path').map((x) => x.name);
      assert.deepEqual(declared.sort(), [...names].sort(), `${p} path parameters`);
    }
  }
});

test('each v2 route file is named after its operationId', async () => {
  const dir = path.resolve('src/http/v2');
  const files = (await fs.readdir(dir, { recursive: true })).filter((f) => f.endsWith('.ts'));
  const named = new Map<string, string>();
  for (const f of files) {
    const ids = [...(await fs.readFile(path.join(dir, f), 'utf8')).matchAll(/operationId: '(\w+)'/g)].map((m) => m[1]!);
    for (const id of ids) named.set(id, path.basename(f, '.ts'));
  }
  for (const [, , id] of OPERATIONS) {
    assert.equal(named.get(id), id.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), `${id} lives in its own file`);
  }
});

test('/v2/docs loads the reference renderer from this service only', async () => {
  const res = await call(t.app, 'GET', '/v2/docs');
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  const csp = String(res.headers['content-security-policy']);
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.match(csp, /img-src 'self' data:/);
  const scripts = [...res.body.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(scripts, ['docs/redoc.standalone.js', 'docs/reference.js']);
  assert.ok(!/https?:\/\//.test(res.body), 'no absolute URL in the page');
  const bundle = await call(t.app, 'GET', '/v2/docs/redoc.standalone.js');
  assert.equal(bundle.statusCode, 200);
  assert.match(String(bundle.headers['content-type']), /^text\/javascript/);
  assert.ok(bundle.body.length > 500_000, 'the Redoc standalone bundle');
  const init = await call(t.app, 'GET', '/v2/docs/reference.js');
  assert.match(init.body, /Redoc\.init\('openapi\.json'/);
});

test('/v2/docs/errors lists every code with its status and an anchor, its Markdown rendered and escaped', async () => {
  const res = await call(t.app, 'GET', '/v2/docs/errors');
  assert.equal(res.statusCode, 200);
  assert.equal(Object.keys(ERROR_CODES).length, Object.keys(API_ERRORS).length + 2, 'the API\'s codes, PAYLOAD_TOO_LARGE and CSRF_TOKEN_INVALID');
  for (const [code, status] of Object.entries({ ...API_ERRORS, PAYLOAD_TOO_LARGE: 413, CSRF_TOKEN_INVALID: 403 })) {
    const row = new RegExp(`<tr id="${code}"><td><a href="#${code}"><code>${code}</code></a></td><td>${status}</td><td>(.+?)</td></tr>`);
    const m = row.exec(res.body);
    assert.ok(m, `${code} (${status}) missing or wrong`);
    assert.ok(!m[1]!.includes('`'), `${code}: backticks are rendered`);
  }
  // Markdown rendered: code spans; `<API_KEY>` inside one is text, not a tag.
  assert.ok(res.body.includes('<code>Authorization: Bearer &lt;API_KEY&gt;</code>'), 'AUTH_REQUIRED meaning rendered');
  assert.ok(res.body.includes('<code>Retry-After</code>'));
  assert.match(res.body, /<pre><code class="language-json">\{&quot;error&quot;/);
  assert.ok(!res.body.includes('<API_KEY>'));
  assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
});

test('doc_url of an error points at its anchor on the errors page', async () => {
  const err = json(await call(t.app, 'GET', '/v2/account')).error;
  assert.equal(err.doc_url, 'http://api.test/v2/docs/errors#AUTH_REQUIRED');
  const page = (await call(t.app, 'GET', '/v2/docs/errors')).body;
  assert.ok(page.includes(`id="${err.doc_url.split('#')[1]}"`));
});

/** The shape of a value: its keys, recursively (an array by its first item), with null kept as null. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? [shape(v[0])] : [];
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, shape(x)]));
  return v === null ? null : typeof v;
}

test('the createServer 201 sample is the answer as it is: pending, provisioning, a queued operation, no address yet', async () => {
  const sample = doc.components.schemas.ServerCreated.examples[0];
  const cust = await createCustomer(t, { deposit: '50.00' });
  const res = await call(t.app, 'POST', '/v2/servers', { key: cust.key, body: serverBody() });
  assert.equal(res.statusCode, 201, res.body);
  const real = json(res).data;
  assert.deepEqual(shape(sample), shape(real), 'the same fields, nested alike');
  for (const s of [sample, real]) {
    assert.equal(s.status, 'pending');
    assert.equal(s.power_state, 'provisioning');
    assert.deepEqual(s.network, { ipv4: null, ipv6: null, extra_ips: [] });
    assert.equal(s.operation.status, 'queued');
    assert.equal(s.operation.progress_pct, undefined, 'no progress while queued');
    assert.equal(s.operation.detail, 'Queued for provisioning');
  }
  assert.deepEqual(shape(doc.components.schemas.Operation.examples[0]), shape(real.operation));
});

test('samples show a live key\'s answer: meta without sandbox, which is documented as a test key\'s alone', () => {
  const { Meta, ListMeta } = doc.components.schemas;
  assert.deepEqual(Meta.examples, [{ request_id: 'req_7Hq2sLk9Xw3Zp5Nb8Vt1', version: '2.0.0' }]);
  assert.deepEqual(Object.keys(ListMeta.examples[0]).sort(), ['pagination', 'request_id', 'version']);
  assert.match(Meta.properties.sandbox.description, /Only on answers to a test key.*Absent on answers to a live key/);
  assert.deepEqual(Meta.required.sort(), ['request_id', 'version']);
  // No example anywhere in the document shows a sandbox answer's meta.
  const examples: unknown[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'examples' || k === 'example') examples.push(x);
        else walk(x);
      }
    }
  };
  walk(doc);
  assert.ok(examples.length > 100);
  assert.ok(!JSON.stringify(examples).includes('"sandbox":true'), 'no sample is a sandbox answer');
  assert.match(doc.info.description, /its answers \(and only\s+its answers\) carry `meta.sandbox: true`/);
});

test('Operation.resource.type lists every kind of resource an operation is started on', () => {
  const type = doc.components.schemas.Operation.properties.resource.properties.type;
  assert.deepEqual(type.enum, ['server', 'server_ip', 'vdc_vm', 'domain', 'web_hosting']);
  assert.deepEqual(type.enum, [...OPERATION_RESOURCE_TYPES]);
  for (const kind of type.enum) assert.ok(type.description.includes(`\`${kind}\``), kind);
});

test('the overview names every family, and says JSON over HTTP or HTTPS as the base URL is', () => {
  const overview = doc.info.description.split('\n\n')[0] as string;
  for (const family of ['servers', 'virtual data center', 'domain names', 'web hosting', 'SSH keys', 'support tickets', 'sub-users', 'catalog', 'balance', 'account', 'reseller']) {
    assert.ok(overview.includes(family), `the overview names ${family}: ${overview}`);
  }
  assert.match(overview, /JSON over HTTP \(/);
  assert.doesNotMatch(overview, /HTTPS/, 'http://api.test is not HTTPS');
  assert.match(introduction('https://api.example.net').split('\n\n')[0]!, /JSON over HTTPS\./);
});

describe('the OpenAPI documents and the reference scripts: validators, caching and compression', () => {
  const ASSETS: [string, RegExp, number][] = [
    ['/v2/openapi.json', /^application\/json/, 500_000],
    ['/v1/openapi.json', /^application\/json/, 100_000],
    ['/v2/docs/redoc.standalone.js', /^text\/javascript/, 500_000],
    ['/v2/docs/reference.js', /^text\/javascript/, 100],
  ];
  for (const [url, type, size] of ASSETS) {
    test(url, async () => {
      const plain = await call(t.app, 'GET', url);
      assert.equal(plain.statusCode, 200);
      assert.match(String(plain.headers['content-type']), type);
      assert.ok(plain.rawPayload.length > size, `${plain.rawPayload.length} bytes`);
      assert.equal(plain.headers['content-encoding'], undefined);
      const etag = String(plain.headers.etag);
      assert.match(etag, /^W\/"[\w-]{20,}"$/);
      assert.match(String(plain.headers['cache-control']), /^public, (no-cache|max-age=\d+)$/);
      assert.match(String(plain.headers.vary), /Accept-Encoding/i);

      // The same tag every time; a client holding it gets 304 and no body, whatever it accepts.
      for (const accept of [undefined, 'gzip', 'br']) {
        const again = await call(t.app, 'GET', url, { headers: { 'if-none-match': etag, ...(accept ? { 'accept-encoding': accept } : {}) } });
        assert.equal(again.statusCode, 304, `${accept}`);
        assert.equal(again.rawPayload.length, 0);
        assert.equal(again.headers.etag, etag);
      }
      assert.equal((await call(t.app, 'GET', url, { headers: { 'if-none-match': `W/"other", ${etag}` } })).statusCode, 304);
      assert.equal((await call(t.app, 'GET', url, { headers: { 'if-none-match': 'W/"other"' } })).statusCode, 200);

      // Compressed as the client accepts, decompressing to the very same bytes.
      const decoders: Record<string, (b: Buffer) => Buffer> = { gzip: zlib.gunzipSync, br: zlib.brotliDecompressSync };
      for (const [accept, want] of [['gzip', 'gzip'], ['gzip, deflate, br', 'br'], ['br;q=0, gzip', 'gzip'], ['br;q=0.5, gzip;q=1', 'gzip'], ['identity', undefined], ['deflate', undefined]] as const) {
        const res = await call(t.app, 'GET', url, { headers: { 'accept-encoding': accept } });
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['content-encoding'], want, accept);
        assert.equal(res.headers.etag, etag);
        const body = want ? decoders[want]!(res.rawPayload) : res.rawPayload;
        assert.ok(body.equals(plain.rawPayload), `${accept}: the same document`);
        if (want && size > 10_000) assert.ok(res.rawPayload.length < plain.rawPayload.length / 3, `${want}: ${res.rawPayload.length} of ${plain.rawPayload.length} bytes`);
      }
    });
  }
});

test('the commands the docs give run as written: `node bin/hostcloud.js …` from the checkout, never `npx hostcloud`', async () => {
  assert.match(doc.info.description, /\nnode bin\/hostcloud\.js admin accounts create --email you@example\.com .*--ip 127\.0\.0\.1\/32\n/);
  assert.doesNotMatch(doc.info.description, /npx hostcloud/);
  const docs = ['README.md', ...(await fs.readdir('docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const pages = await Promise.all(docs.map((f) => fs.readFile(path.resolve(f), 'utf8')));
  // The one mention of npx hostcloud is the warning not to use it (docs/operations.md, "The `hostcloud` command").
  assert.deepEqual(pages.flatMap((p) => p.match(/npx hostcloud[^\n]*/g) ?? []), ['npx hostcloud` outside the checkout would download whatever public package bears that name:']);
  // README and the operator's guide say `node bin/hostcloud.js …` in full; the guide says once what `hostcloud …` stands for.
  for (const [i, page] of pages.entries()) {
    if (!['README.md', 'docs/operations.md'].includes(docs[i]!)) continue;
    const code = page.split(/^```.*$/m).filter((_, j) => j % 2 === 1).join('\n');
    assert.deepEqual(code.split('\n').filter((l) => /^(\$ )?hostcloud (serve|worker|migrate|admin)( |$)/.test(l.trim())), [], `no bare \`hostcloud\` command in a code block of ${docs[i]}`);
  }
  assert.match(pages[docs.indexOf('docs/operations.md')]!, /`npm link`/);
});
