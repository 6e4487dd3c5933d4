// The simulated registrar's registry as the operator manages it: POST/GET /admin/v1/registrar/domains
// and `hostcloud admin registrar add-domain | list`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runAdmin } from '../../src/cli/admin.ts';
import { adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { assertError, freshName } from '../helpers/domains.ts';

const t = await startApp();

test('POST adds a name held at another registrar; customers see it taken; GET lists it', async () => {
  const name = freshName('net');
  const res = await adminCall(t, 'POST', '/admin/v1/registrar/domains', { domain: name.toUpperCase(), auth_code: 'Secret-Auth-1', expires_at: '2030-05-01T00:00:00Z' });
  assert.equal(res.statusCode, 201, res.body);
  const row = json(res).data;
  assert.deepEqual(row, {
    domain: name, registrar: 'Other Registrar Inc.', auth_code: 'Secret-Auth-1',
    nameservers: ['ns1.other-registrar.example', 'ns2.other-registrar.example'], transfer_lock: false,
    expires_at: '2030-05-01T00:00:00Z', created_at: row.created_at,
  });
  const c = await createCustomer(t);
  assert.equal(json(await call(t.app, 'GET', '/v2/domains/check', { key: c.key, query: { domain: name } })).data.available, false);
  const list = json(await adminCall(t, 'GET', '/admin/v1/registrar/domains?registrar=other&per_page=100'));
  assert.ok(list.data.some((d: { domain: string }) => d.domain === name));
  assert.ok(list.data.some((d: { domain: string; registrar: string }) => d.domain === 'transfer-demo.com' && d.registrar === 'Other Registrar Inc.'), 'the demo name is seeded');
  assert.equal(json(await adminCall(t, 'GET', '/admin/v1/registrar/domains?registrar=us')).meta.pagination.total, 0);
});

test('IDN and defaults: punycode, a year from now, the registrar and nameservers given', async () => {
  const res = await adminCall(t, 'POST', '/admin/v1/registrar/domains', {
    domain: 'bücher-laden.de', auth_code: 'Another-Code', registrar: 'Example Registrar GmbH', nameservers: ['NS1.Example.DE', 'ns2.example.de'],
  });
  assert.equal(res.statusCode, 201, res.body);
  const row = json(res).data;
  assert.equal(row.domain, 'xn--bcher-laden-thb.de');
  assert.equal(row.registrar, 'Example Registrar GmbH');
  assert.deepEqual(row.nameservers, ['ns1.example.de', 'ns2.example.de']);
  const days = (new Date(row.expires_at).getTime() - Date.now()) / 86_400_000;
  assert.ok(days > 364 && days < 366, String(days));
});

test('errors: a name already in the registry is 409; bad fields are 422 naming them', async () => {
  assertError(await adminCall(t, 'POST', '/admin/v1/registrar/domains', { domain: 'example.com', auth_code: 'Secret-Auth-1' }), 409, 'STATE_CONFLICT');
  assertError(await adminCall(t, 'POST', '/admin/v1/registrar/domains', { domain: 'example.zz', auth_code: 'Secret-Auth-1' }), 422, 'VALIDATION_FAILED', ['domain']);
  assertError(await adminCall(t, 'POST', '/admin/v1/registrar/domains', { domain: freshName(), auth_code: 'a b c d e' }), 422, 'VALIDATION_FAILED', ['auth_code']);
  assertError(await adminCall(t, 'POST', '/admin/v1/registrar/domains', { domain: freshName(), auth_code: 'Secret-Auth-1', expires_at: '2001-01-01T00:00:00Z' }), 422, 'VALIDATION_FAILED', ['expires_at']);
  assertError(await adminCall(t, 'POST', '/admin/v1/registrar/domains', { domain: freshName(), auth_code: 'Secret-Auth-1', expires_at: 'soon' }), 422, 'VALIDATION_FAILED', ['expires_at']);
  assertError(await adminCall(t, 'POST', '/admin/v1/registrar/domains', { domain: freshName(), auth_code: 'Secret-Auth-1', registrar: 'us' }), 422, 'VALIDATION_FAILED', ['registrar']);
  assertError(await adminCall(t, 'POST', '/admin/v1/registrar/domains', { domain: freshName(), auth_code: 'Secret-Auth-1', colour: 'red' }), 422, 'VALIDATION_FAILED', ['colour']);
  assertError(await adminCall(t, 'POST', '/admin/v1/registrar/domains', { auth_code: 'Secret-Auth-1' }), 422, 'VALIDATION_FAILED', ['domain']);
  assertError(await adminCall(t, 'GET', '/admin/v1/registrar/domains?registrar=mine'), 422, 'VALIDATION_FAILED', ['registrar']);
  assertError(await call(t.app, 'GET', '/admin/v1/registrar/domains'), 401, 'AUTH_REQUIRED');
});

test('hostcloud admin registrar add-domain / list', async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  const cli = async (args: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runAdmin(['--url', `http://127.0.0.1:${port}`, '--token', t.adminToken, ...args], {
      stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; },
    });
    return { code, stdout, stderr };
  };
  const name = freshName('org');
  const added = await cli(['registrar', 'add-domain', name, '--auth-code', 'Cli-Code-99', '--expires', '2031-01-01T00:00:00Z', '--nameserver', 'ns1.a.example', '--nameserver', 'ns2.a.example']);
  assert.equal(added.code, 0, added.stderr);
  assert.match(added.stdout, new RegExp(`${name.replace(/\./g, '\\.')}: added to the registry`));
  assert.match(added.stdout, /auth_code +Cli-Code-99/);
  assert.match(added.stdout, /nameservers +ns1\.a\.example, ns2\.a\.example/);
  const listed = await cli(['registrar', 'list', '--registrar', 'other', '--json']);
  assert.equal(listed.code, 0, listed.stderr);
  assert.ok(JSON.parse(listed.stdout).data.some((d: { domain: string }) => d.domain === name));
  const table = await cli(['registrar', 'list']);
  assert.match(table.stdout, /^DOMAIN +REGISTRAR +AUTH_CODE +EXPIRES_AT +NAMESERVERS/m);

  const again = await cli(['registrar', 'add-domain', name, '--auth-code', 'Cli-Code-99']);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /409 STATE_CONFLICT: .* is already in the registry/);
  const missing = await cli(['registrar', 'add-domain', freshName()]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /--auth-code is required/);
  const badDate = await cli(['registrar', 'add-domain', freshName(), '--auth-code', 'Cli-Code-99', '--expires', 'tomorrow']);
  assert.equal(badDate.code, 2);
  assert.match(badDate.stderr, /--expires must be a time like 2027-01-15T00:00:00Z/);
  const noName = await cli(['registrar', 'add-domain', '--auth-code', 'x']);
  assert.match(noName.stderr, /DOMAIN is missing/);
  const help = await cli(['help']);
  assert.match(help.stdout, /registrar add-domain DOMAIN --auth-code CODE/);
});
