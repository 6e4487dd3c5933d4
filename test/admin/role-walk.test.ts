// Every admin route (from the app's route table) with every staff role: a route the role may call
// never answers 403; one it may not answers 403 AUTH_SCOPE_INSUFFICIENT and changes nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { routesOf } from '../../src/http/app.ts';
import { type AdminPermission, ROLE_PERMISSIONS, STAFF_ROLES } from '../../src/core/staff/roles.ts';
import { call, json, startApp } from '../helpers/app.ts';
import { type TestStaff, createStaff } from '../helpers/staff.ts';

const t = await startApp();
const staff = new Map<string, TestStaff>();
for (const role of STAFF_ROLES) staff.set(role, await createStaff(t, role));

const adminRoutes = routesOf(t.app).filter((r) => r.url.startsWith('/admin/v1/') && r.config.auth === 'admin');

function urlFor(url: string, member: TestStaff): string {
  return url
    .replace(/^\/admin\/v1\/staff\/:id\//, `/admin/v1/staff/${member.id}/`)
    .replace(/:country/g, 'ZZ')
    .replace(/:provider/g, 'compute')
    .replace(/:[a-z_]+/g, 'zz_missing');
}

function permissionOf(r: (typeof adminRoutes)[number]) {
  const access = r.config.access ?? (r.method === 'GET' ? 'read' : 'write');
  return `${(r.config as { right?: string }).right}:${access}` as AdminPermission;
}

/** Every row of every table (but the columns a read touches), as one digest. */
async function fingerprint(): Promise<string> {
  const tables = await sql<{ table_name: string }>`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(t.database.db);
  const parts: string[] = [];
  for (const { table_name: name } of tables.rows) {
    if (name === 'panel_sign_in_limits' || name.startsWith('kysely_')) continue;
    const r = await sql<{ d: string | null }>`SELECT md5(string_agg((to_jsonb(x) - 'last_used_at' - 'last_seen_at')::text, ',' ORDER BY (to_jsonb(x) - 'last_used_at' - 'last_seen_at')::text)) AS d FROM ${sql.table(name)} x`.execute(t.database.db);
    parts.push(`${name}:${r.rows[0]?.d ?? ''}`);
  }
  return parts.join('\n');
}

test('every admin route names a right', () => {
  assert.ok(adminRoutes.length > 100, `${adminRoutes.length} admin routes`);
  for (const r of adminRoutes) assert.ok((r.config as { right?: string }).right, `${r.method} ${r.url}`);
});

test('a role without the right → 403 AUTH_SCOPE_INSUFFICIENT, and nothing changed', async () => {
  const before = await fingerprint();
  let refused = 0;
  for (const role of STAFF_ROLES) {
    const member = staff.get(role)!;
    for (const r of adminRoutes) {
      if (ROLE_PERMISSIONS[role].has(permissionOf(r))) continue;
      const res = await call(t.app, r.method as 'GET', urlFor(r.url, member), { key: member.token, body: r.method === 'GET' || r.method === 'DELETE' ? undefined : {} });
      assert.equal(res.statusCode, 403, `${role} ${r.method} ${r.url}: ${res.body}`);
      assert.equal(json(res).error.code, 'AUTH_SCOPE_INSUFFICIENT');
      refused += 1;
    }
  }
  assert.ok(refused > 100, `${refused} refusals`);
  assert.equal(await fingerprint(), before);
});

test('a role with the right is never refused for its role', async () => {
  for (const role of STAFF_ROLES) {
    const member = staff.get(role)!;
    for (const r of adminRoutes) {
      if (!ROLE_PERMISSIONS[role].has(permissionOf(r))) continue;
      // Writes a test of its own covers (they would change what other rows of this walk read).
      if (r.method === 'DELETE' && r.url === '/admin/v1/staff-tokens/:id') continue;
      const res = await call(t.app, r.method as 'GET', urlFor(r.url, member), { key: member.token, body: r.method === 'GET' || r.method === 'DELETE' ? undefined : {} });
      assert.notEqual(res.statusCode, 403, `${role} ${r.method} ${r.url}: ${res.body}`);
      assert.ok(res.statusCode !== 401, `${role} ${r.method} ${r.url}: ${res.body}`);
    }
  }
});

test('the role table, in words: what each role may and may not do', async () => {
  const cases: [string, 'GET' | 'POST' | 'PATCH', string, boolean][] = [
    ['support', 'POST', '/admin/v1/accounts/zz_missing/deposits', false],
    ['support', 'POST', '/admin/v1/deposits/1/refunds', false],
    ['support', 'POST', '/admin/v1/tickets/zz_missing/replies', true],
    ['billing', 'POST', '/admin/v1/accounts/zz_missing/deposits', true],
    ['billing', 'POST', '/admin/v1/deposits/1/refunds', true],
    ['billing', 'POST', '/admin/v1/tickets/zz_missing/replies', false],
    ['readonly', 'GET', '/admin/v1/accounts', true],
    ['readonly', 'PATCH', '/admin/v1/accounts/zz_missing', false],
    ['admin', 'POST', '/admin/v1/plans', true],
    ['admin', 'GET', '/admin/v1/staff', false],
    ['admin', 'POST', '/admin/v1/staff', false],
    ['owner', 'GET', '/admin/v1/staff', true],
  ];
  for (const [role, method, url, allowed] of cases) {
    const res = await call(t.app, method, url, { key: staff.get(role)!.token, body: method === 'GET' ? undefined : {} });
    if (allowed) assert.notEqual(res.statusCode, 403, `${role} ${method} ${url}: ${res.body}`);
    else assert.equal(res.statusCode, 403, `${role} ${method} ${url}: ${res.body}`);
  }
});
