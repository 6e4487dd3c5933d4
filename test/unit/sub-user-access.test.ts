// The rule authentication applies to a sub-user's key (pure, so a cache of keys can reuse it),
// and the permission vocabulary.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type SubUserGrant, subUserAccess } from '../../src/core/sub-users/access.ts';
import { checkPermissions, patchProblems } from '../../src/core/sub-users/rules.ts';
import { ALL_SCOPES, type Scope } from '../../src/core/types.ts';

const grant = (status: SubUserGrant['status'], permissions: string[], deleted = false): SubUserGrant => ({ id: 7, status, permissions, deleted });

test("the account's own keys: their scopes as they are", () => {
  assert.deepEqual(subUserAccess(null, null), { allowed: true, scopes: null });
  assert.deepEqual(subUserAccess(['servers:read'], null), { allowed: true, scopes: ['servers:read'] });
});

test("a sub-user's key: the intersection of its scopes and the permissions, in scope order", () => {
  const perms = ['tickets:write', 'servers:read', 'servers:write'];
  assert.deepEqual(subUserAccess(null, grant('active', perms)), { allowed: true, scopes: ['servers:read', 'servers:write', 'tickets:write'] },
    'a key with every scope gets exactly the permissions');
  assert.deepEqual(subUserAccess(['servers:read', 'billing:read', 'tickets:write'], grant('active', perms)),
    { allowed: true, scopes: ['servers:read', 'tickets:write'] }, 'billing:read is the key\'s but not the sub-user\'s');
  assert.deepEqual(subUserAccess(['billing:read'], grant('active', perms)), { allowed: true, scopes: [] });
  assert.deepEqual(subUserAccess(null, grant('active', [])), { allowed: true, scopes: [] }, 'no permission, nothing allowed');
  assert.deepEqual(subUserAccess(null, grant('active', ['servers:read', 'nonsense:read'])), { allowed: true, scopes: ['servers:read'] },
    'an unknown name grants nothing');
  const all = subUserAccess(null, grant('active', ALL_SCOPES));
  assert.deepEqual(all, { allowed: true, scopes: ALL_SCOPES }, 'every permission: a list, never null');
});

test('a sub-user that is not active: nothing at all, whatever its permissions', () => {
  for (const status of ['pending', 'inactive'] as const) {
    const r = subUserAccess(null, grant(status, ALL_SCOPES as Scope[]));
    assert.deepEqual(r, { allowed: false, reason: `sub-user 7 is ${status}` });
  }
  assert.deepEqual(subUserAccess(null, grant('active', ALL_SCOPES, true)), { allowed: false, reason: 'sub-user 7 was deleted' });
});

test('permissions: scope names only, each unknown one named by its index; duplicates once, in scope order', () => {
  assert.deepEqual(checkPermissions(['tickets:write', 'servers:read', 'servers:read']), { permissions: ['servers:read', 'tickets:write'], errors: [] });
  assert.deepEqual(checkPermissions([]), { permissions: [], errors: [] });
  const bad = checkPermissions(['servers:read', 'servers:admin', 'SERVERS:READ', '']);
  assert.deepEqual(bad.errors.map((e) => e.field), ['permissions[1]', 'permissions[2]', 'permissions[3]']);
  assert.match(bad.errors[0]!.message, /"servers:admin" is not a permission/);
});

test('profile patch: names, phone, +digits country code, settable statuses', () => {
  assert.deepEqual(patchProblems({ first_name: 'Ада', last_name: 'Лавлейс', phone: '(020) 555-0142', phone_country_code: '+31', status: 'active' }), []);
  const errors = patchProblems({ first_name: '  ', last_name: 'x'.repeat(101), phone: 'call me', phone_country_code: '0031', status: 'pending' });
  assert.deepEqual(errors.map((e) => e.field), ['first_name', 'last_name', 'phone', 'phone_country_code', 'status']);
  assert.deepEqual(patchProblems({ phone: '---' }).map((e) => e.field), ['phone'], 'a phone number has a digit');
  assert.deepEqual(patchProblems({ phone_country_code: '+12345' }).map((e) => e.field), ['phone_country_code']);
});
