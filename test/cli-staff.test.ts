// `hostcloud admin staff …` against the app on a real port, in-process (runAdmin): every command,
// its refusals before anything is sent, the server's refusals in the command's words, and the
// audit rows its writes leave (the member's token as the actor, no secret in `changes`).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runAdmin } from '../src/cli/admin.ts';
import { adminCall, json, startApp } from './helpers/app.ts';
import { createStaff } from './helpers/staff.ts';

const t = await startApp();
await t.app.listen({ port: 0, host: '127.0.0.1' });
const { port } = t.app.server.address() as { port: number };
const url = `http://127.0.0.1:${port}`;

interface Run { code: number; stdout: string; stderr: string }

async function cli(args: string[], token = t.adminToken, to = url): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(['--url', to, '--token', token, ...args], { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; } });
  return { code, stdout, stderr };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const data = (r: Run): any => JSON.parse(r.stdout).data;

async function audit(query: string) {
  const res = await adminCall(t, 'GET', `/admin/v1/audit-log?${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data;
}

test('staff invite, list, get, update, reinvite, disable: tables and --json', async () => {
  const invited = await cli(['staff', 'invite', '--email', 'grace@hostcloud.test', '--name', 'Grace Hopper', '--role', 'support']);
  assert.equal(invited.code, 0, invited.stderr);
  assert.match(invited.stdout, /^Staff member stf_\w+ invited as support; the set-password link .* was queued to grace@hostcloud\.test:\n {2}http\S+\/admin\S*\n$/);
  const id = /stf_\w+/.exec(invited.stdout)![0];

  const listed = await cli(['staff', 'list', '--role', 'support']);
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /ID\s+EMAIL\s+NAME\s+ROLE\s+STATUS/);
  assert.ok(listed.stdout.includes(id));
  const asJson = await cli(['staff', 'list', '--status', 'active', '--json']);
  assert.ok(data(asJson).some((m: { id: string }) => m.id === id));

  const got = await cli(['staff', 'get', id, '--json']);
  assert.equal(data(got).email, 'grace@hostcloud.test');
  assert.equal(data(got).password_set, false);

  const updated = await cli(['staff', 'update', id, '--role', 'billing', '--name', 'Grace B. Hopper']);
  assert.equal(updated.code, 0, updated.stderr);
  assert.match(updated.stdout, new RegExp(`^Staff member ${id}: updated\n`));
  assert.equal(data(await cli(['staff', 'get', id, '--json'])).role, 'billing');

  const again = await cli(['staff', 'reinvite', id]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /A new set-password link for stf_\w+ .*\n {2}http/);

  const disabled = await cli(['staff', 'disable', id]);
  assert.equal(disabled.code, 0, disabled.stderr);
  assert.match(disabled.stdout, /disabled: its sessions ended and its tokens were revoked/);
  assert.equal(data(await cli(['staff', 'get', id, '--json'])).status, 'disabled');
});

test('staff tokens: create-token prints the secret once, tokens lists it without, the token works, revoke-token ends it', async () => {
  const member = await createStaff(t, 'support');
  const made = await cli(['staff', 'create-token', member.id, '--name', 'ci', '--ip', '127.0.0.1']);
  assert.equal(made.code, 0, made.stderr);
  const secret = /hc_staff_\w+/.exec(made.stdout)![0];
  const tokenId = /Token (stt_\w+)/.exec(made.stdout)![1]!;
  assert.match(made.stdout, /only from 127\.0\.0\.1/);

  const tokens = await cli(['staff', 'tokens', member.id]);
  assert.equal(tokens.code, 0, tokens.stderr);
  assert.ok(tokens.stdout.includes(tokenId));
  assert.ok(!tokens.stdout.includes(secret), 'the list never shows a secret');

  // The token acts as the member: support reads accounts, but may not manage staff.
  assert.equal((await cli(['accounts', 'list'], secret)).code, 0);
  const refused = await cli(['staff', 'list'], secret);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /403 AUTH_SCOPE_INSUFFICIENT/);
  // Its own tokens it may see (the self right).
  assert.equal((await cli(['staff', 'tokens', member.id], secret)).code, 0);

  const revoked = await cli(['staff', 'revoke-token', tokenId]);
  assert.equal(revoked.code, 0, revoked.stderr);
  assert.match(revoked.stdout, /revoked; using it now answers 401/);
  const after = await cli(['accounts', 'list'], secret);
  assert.equal(after.code, 2);
  assert.match(after.stderr, /401/);
});

test('staff sessions, revoke-session and reset-2fa', async () => {
  const member = await createStaff(t, 'readonly');
  const sessions = await cli(['staff', 'sessions', member.id, '--json']);
  assert.equal(sessions.code, 0, sessions.stderr);
  assert.deepEqual(data(sessions), []);
  const missing = await cli(['staff', 'revoke-session', member.id, 'ses_missing']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /404 RESOURCE_NOT_FOUND/);
  const reset = await cli(['staff', 'reset-2fa', member.id]);
  assert.equal(reset.code, 0, reset.stderr);
  assert.match(reset.stdout, /Two-factor of stf_\w+ cleared/);
});

test('bad input is refused before anything is sent; the server\'s refusals in the command\'s words', async () => {
  const offline = 'http://127.0.0.1:1';
  const cases: [string[], RegExp][] = [
    [['staff', 'invite', '--email', 'x@hostcloud.test'], /--name is required\n {2}--role is required/],
    [['staff', 'invite', '--email', 'x@hostcloud.test', '--name', 'X', '--role', 'god'], /--role must be one of owner, admin, support, billing, readonly/],
    [['staff', 'update', 'stf_x'], /give at least one of --name, --role, --status/],
    [['staff', 'update', 'stf_x', '--status', 'gone'], /--status must be one of active, disabled/],
    [['staff', 'list', '--role', 'nobody'], /--role must be one of/],
    [['staff', 'get'], /STAFF_ID is missing/],
    [['staff', 'revoke-session', 'stf_x'], /SESSION_ID is missing/],
    [['staff', 'create-token', 'stf_x'], /--name is required/],
    [['staff', 'get', 'stf_x', 'extra'], /unexpected argument "extra"/],
    [['staff', 'list', '--colour', 'red'], /unknown option --colour/],
  ];
  for (const [args, message] of cases) {
    const r = await cli(args, t.adminToken, offline);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, message, args.join(' '));
    assert.doesNotMatch(r.stderr, /cannot reach/, args.join(' '));
  }
  const bad = await cli(['staff', 'invite', '--email', 'not-an-email', '--name', 'X', '--role', 'support']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--email must be an email address/);
  const unknown = await cli(['staff', 'get', 'stf_missing']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /404 RESOURCE_NOT_FOUND/);
  const json = await cli(['staff', 'get', 'stf_missing', '--json']);
  assert.equal(JSON.parse(json.stderr).error.code, 'RESOURCE_NOT_FOUND');
});

test('the CLI\'s writes are audited with their actor (ADMIN_TOKEN, or the member whose token ran it) and no secret', async () => {
  const owner = await createStaff(t, 'owner');
  const invited = await cli(['staff', 'invite', '--email', 'audited@hostcloud.test', '--name', 'Audited', '--role', 'admin', '--json'], owner.token);
  assert.equal(invited.code, 0, invited.stderr);
  const id = data(invited).id;
  const token = await cli(['staff', 'create-token', id, '--name', 'ops', '--json'], owner.token);
  const tokenData = data(token);
  const byAdmin = await cli(['staff', 'update', id, '--role', 'support']);
  assert.equal(byAdmin.code, 0, byAdmin.stderr);

  const [invite] = await audit(`action=createStaffMember&target_id=${id}`);
  assert.deepEqual(invite.actor, { type: 'staff', id: owner.id, email: owner.email });
  assert.deepEqual(invite.target, { type: 'staff', id });
  assert.deepEqual(invite.changes, { email: 'audited@hostcloud.test', name: 'Audited', role: 'admin' });

  const [made] = await audit(`action=createStaffToken&target_id=${tokenData.id}`);
  assert.deepEqual(made.actor, { type: 'staff', id: owner.id, email: owner.email });
  assert.deepEqual(made.target, { type: 'staff_token', id: tokenData.id });
  assert.deepEqual(made.changes, { name: 'ops' });

  const [changed] = await audit(`action=updateStaffMember&target_id=${id}`);
  assert.deepEqual(changed.actor, { type: 'admin_token', id: null, email: null });
  assert.deepEqual(changed.changes, { role: 'support' });

  const everything = JSON.stringify(await audit('per_page=100'));
  assert.ok(!everything.includes(tokenData.token), 'no token secret in the audit log');
  assert.ok(!everything.includes('hc_staff_'), 'no staff token anywhere in the log');
  assert.ok(!everything.includes(data(invited).url), 'no set-password link in the audit log');
});
