// `hostcloud admin tickets|sub-users|accounts reseller|keys create --sub-user`, in-process against
// the app on a real port: tables and --json, and input checked before anything is sent.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { runAdmin } from '../src/cli/admin.ts';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp } from './helpers/app.ts';
import { createStaff } from './helpers/staff.ts';

let t: TestApp;
let url: string;
let c: Customer;

interface Run { code: number; stdout: string; stderr: string }

async function cli(args: string[], opts: { url?: string } = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(['--url', opts.url ?? url, '--token', t.adminToken, ...args], {
    stdout: (text) => { stdout += text; },
    stderr: (text) => { stderr += text; },
  });
  return { code, stdout, stderr };
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const printed = (r: Run): any => JSON.parse(r.stdout);
/** Nothing listens there: a command that reaches the network fails with "cannot reach". */
const NOWHERE = 'http://127.0.0.1:9';

const MESSAGE = 'My server web-1 does not boot since the reinstall this morning.';

before(async () => {
  t = await startApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  c = await createCustomer(t);
});

async function openTicket(subject = 'Server down'): Promise<string> {
  const res = await call(t.app, 'POST', '/v2/tickets', { key: c.key, body: { subject, message: MESSAGE, department_id: 1, priority: 'high' } });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data.id;
}

test('tickets list: a table of every account\'s tickets with filters, or JSON', async () => {
  const id = await openTicket('Disk full');
  const r = await cli(['tickets', 'list', '--account', c.accountId]);
  assert.equal(r.code, 0, r.stderr);
  const [header, ...rows] = r.stdout.trim().split('\n');
  assert.match(header!, /^ID +ACCOUNT_ID +STATUS +PRIORITY +DEPARTMENT +ASSIGNEE +SUBJECT +CREATED_AT$/);
  assert.ok(rows.some((l) => l.startsWith(id) && /open +high +Technical Support +- +Disk full/.test(l)), r.stdout);
  assert.match(r.stdout, /page 1 of 1 \(\d+ tickets?\)\n$/);
  const j = await cli(['tickets', 'list', '--status', 'open', '--priority', 'high', '--department', '1', '--json']);
  assert.equal(j.code, 0, j.stderr);
  assert.ok(printed(j).data.some((x: { id: string }) => x.id === id));
  const bad = await cli(['tickets', 'list', '--status', 'waiting', '--priority', 'critical', '--department', 'x'], { url: NOWHERE });
  assert.equal(bad.code, 2);
  assert.equal(bad.stdout, '');
  assert.match(bad.stderr, /--status must be one of open, answered, customer_reply, in_progress, pending, closed/);
  assert.match(bad.stderr, /--priority must be one of low, medium, high, urgent/);
  assert.match(bad.stderr, /--department must be a department id/);
  assert.doesNotMatch(bad.stderr, /cannot reach/, 'refused before anything was sent');
});

test('tickets reply, note, show: the customer is answered and notified; the note stays internal', async () => {
  const id = await openTicket();
  const reply = await cli(['tickets', 'reply', id, 'We moved your server to a healthy host.']);
  assert.equal(reply.code, 0, reply.stderr);
  assert.equal(reply.stdout, `Replied to ticket ${id}; it is now answered, and the customer was notified\n`);
  const note = await cli(['tickets', 'note', id, 'Host fra1-n3 had a failing disk.']);
  assert.equal(note.code, 0, note.stderr);
  assert.equal(note.stdout, `Internal note added to ticket ${id} (status stays answered)\n`);
  const show = await cli(['tickets', 'show', id]);
  assert.equal(show.code, 0, show.stderr);
  assert.match(show.stdout, new RegExp(`^Ticket ${id} "Server down"\\n`));
  assert.match(show.stdout, /\n {2}status +answered\n/);
  assert.match(show.stdout, /\n {2}department\.name +Technical Support\n/);
  assert.match(show.stdout, /Thread \(3\):\n {2}\S+ {2}customer\n {4}My server web-1/);
  assert.match(show.stdout, / {2}staff\n {4}We moved your server/);
  assert.match(show.stdout, / {2}staff \(internal note\)\n {4}Host fra1-n3 had a failing disk\./);
  const notices = json(await adminCall(t, 'GET', `/admin/v1/notifications?account_id=${c.accountId}&kind=ticket.answered`)).data;
  assert.ok(notices.some((n: { subject: string }) => n.subject.startsWith(`Ticket #${id} answered`)));
  const customer = await call(t.app, 'GET', `/v2/tickets/${id}`, { key: c.key });
  assert.ok(!customer.body.includes('fra1-n3'));
  const asJson = await cli(['tickets', 'show', id, '--json']);
  assert.equal(printed(asJson).data.messages.length, 3);
});

test('tickets reply/note/status/delete check their arguments first, and report the server\'s refusals', async () => {
  const cases: [string[], RegExp][] = [
    [['tickets', 'reply'], /TICKET is missing\nusage: hostcloud admin tickets reply TICKET MESSAGE/],
    [['tickets', 'reply', '123456'], /MESSAGE is missing/],
    [['tickets', 'note', '123456', '   '], /MESSAGE must not be blank/],
    [['tickets', 'status', '123456', 'answered'], /STATUS must be one of open, in_progress, pending, closed/],
    [['tickets', 'show'], /TICKET is missing/],
    [['tickets', 'delete', '1', '2'], /unexpected argument "2"/],
  ];
  for (const [args, message] of cases) {
    const r = await cli(args, { url: NOWHERE });
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, message, args.join(' '));
    assert.doesNotMatch(r.stderr, /cannot reach/);
  }
  const id = await openTicket();
  const closed = await cli(['tickets', 'status', id, 'closed']);
  assert.equal(closed.stdout, `Ticket ${id} is now closed\n`);
  const again = await cli(['tickets', 'reply', id, 'Anything else?']);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /409 STATE_CONFLICT: Ticket \d+: the ticket is closed/);
  const reopened = await cli(['tickets', 'status', id, 'in_progress']);
  assert.equal(reopened.stdout, `Ticket ${id} is now in_progress\n`);
  const del = await cli(['tickets', 'delete', id]);
  assert.equal(del.code, 0, del.stderr);
  assert.equal(del.stdout, `Ticket ${id} deleted ("Server down"); it no longer shows anywhere\n`);
  const gone = await cli(['tickets', 'show', id]);
  assert.equal(gone.code, 2);
  assert.match(gone.stderr, /404 RESOURCE_NOT_FOUND/);
});

test('sub-users create and list; input checked in the command\'s words', async () => {
  const created = await cli(['sub-users', 'create', c.accountId, '--email', 'grace@example.com', '--first-name', 'Grace', '--last-name', 'Hopper']);
  assert.equal(created.code, 0, created.stderr);
  assert.match(created.stdout, new RegExp(`^Sub-user \\d+ invited to ${c.accountId} \\(pending, no permissions yet\\)\\n`));
  assert.match(created.stdout, /\n {2}status +pending\n/);
  const dup = await cli(['sub-users', 'create', c.accountId, '--email', 'grace@example.com', '--first-name', 'G', '--last-name', 'H']);
  assert.equal(dup.code, 2);
  assert.match(dup.stderr, /--email: a sub-user of this account already has this email/);
  const bad = await cli(['sub-users', 'create', c.accountId, '--email', 'grace@', '--first-name', ' ', '--last-name', 'H'], { url: NOWHERE });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /no sub-user was invited:\n {2}--email must be an email address like you@example\.com\n {2}--first-name must not be blank/);
  const missing = await cli(['sub-users', 'create', c.accountId, '--email', 'x@example.com'], { url: NOWHERE });
  assert.match(missing.stderr, /--first-name is required\n {2}--last-name is required/);
  const list = await cli(['sub-users', 'list', c.accountId]);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /^ID +EMAIL +FIRST_NAME +LAST_NAME +STATUS +CREATED_AT\n\d+ +grace@example\.com +Grace +Hopper +pending/);
  const j = await cli(['sub-users', 'list', c.accountId, '--status', 'pending', '--json']);
  assert.equal(printed(j).data[0].email, 'grace@example.com');
  const badStatus = await cli(['sub-users', 'list', c.accountId, '--status', 'gone'], { url: NOWHERE });
  assert.match(badStatus.stderr, /--status must be one of pending, active, inactive/);
});

test('keys create --sub-user: the key acts for the sub-user; a bad id is refused before sending, a foreign one by the server', async () => {
  const sub = printed(await cli(['sub-users', 'create', c.accountId, '--email', 'ops@example.com', '--first-name', 'Ops', '--last-name', 'Bot', '--json'])).data;
  const made = await cli(['keys', 'create', c.accountId, '--ip', '127.0.0.1', '--name', 'ops', '--sub-user', String(sub.id)]);
  assert.equal(made.code, 0, made.stderr);
  assert.match(made.stdout, new RegExp(`· for sub-user ${sub.id} \\(and its permissions\\)\\n`));
  const secret = /store it now\): (\S+)/.exec(made.stdout)![1]!;
  const refused = await call(t.app, 'GET', '/v2/billing/balance', { key: secret });
  assert.equal(refused.statusCode, 403, 'a pending sub-user\'s key does nothing');
  const list = await cli(['keys', 'list', c.accountId]);
  assert.match(list.stdout, /SUB_USER/);
  const bad = await cli(['keys', 'create', c.accountId, '--ip', '127.0.0.1', '--sub-user', 'ops'], { url: NOWHERE });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--sub-user must be a sub-user id/);
  const other = await createCustomer(t);
  const foreign = await cli(['keys', 'create', other.accountId, '--ip', '127.0.0.1', '--sub-user', String(sub.id)]);
  assert.equal(foreign.code, 2);
  assert.match(foreign.stderr, /--sub-user: the account has no sub-user \d+/);
});

test('accounts reseller --on|--off', async () => {
  const on = await cli(['accounts', 'reseller', c.accountId, '--on']);
  assert.equal(on.code, 0, on.stderr);
  assert.equal(on.stdout, `${c.accountId} is a reseller: 0 active servers, tier 0–9 servers, 0 % off every server charge\n`);
  assert.equal(json(await call(t.app, 'GET', '/v2/reseller', { key: c.key })).data.is_reseller, true);
  const off = await cli(['accounts', 'reseller', c.accountId, '--off', '--json']);
  assert.equal(printed(off).data.is_reseller, false);
  for (const args of [['accounts', 'reseller', c.accountId], ['accounts', 'reseller', c.accountId, '--on', '--off']]) {
    const r = await cli(args, { url: NOWHERE });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /give exactly one of --on or --off/);
  }
  assert.match((await cli(['accounts', 'reseller', '--on'], { url: NOWHERE })).stderr, /ACCOUNT_ID is missing/);
  const unknown = await cli(['accounts', 'reseller', 'acc_nope', '--on']);
  assert.match(unknown.stderr, /404 RESOURCE_NOT_FOUND/);
});

test('help lists the new commands', async () => {
  const help = await cli(['help']);
  for (const line of [
    'tickets list [--status STATUS] [--account ACCOUNT_ID] [--department ID] [--priority P] [--assignee me|none|STAFF_ID] [--search TEXT] [--page N] [--per-page N]',
    'tickets assign TICKET STAFF_ID|none', 'tickets close TICKET...',
    'tickets show TICKET', 'tickets reply TICKET MESSAGE', 'tickets note TICKET MESSAGE',
    'tickets status TICKET open|in_progress|pending|closed', 'tickets delete TICKET',
    'sub-users create ACCOUNT_ID --email EMAIL --first-name NAME --last-name NAME',
    'sub-users list ACCOUNT_ID [--status pending|active|inactive] [--page N] [--per-page N]',
    'accounts reseller ACCOUNT_ID --on|--off', '[--sub-user SUB_USER_ID]',
  ]) assert.ok(help.stdout.includes(line), line);
});

test('tickets assign, list --assignee/--search, close: as a staff token, me is its member', async () => {
  const member = await createStaff(t, 'support');
  const id = await openTicket('Assign me please');
  const other = await openTicket('Close me please');
  const assigned = await cli(['tickets', 'assign', id, member.id]);
  assert.equal(assigned.code, 0, assigned.stderr);
  assert.match(assigned.stdout, new RegExp(`^Ticket ${id} is assigned to Staff \\d+\\n$`));
  let out = '';
  const mine = await runAdmin(['--url', url, '--token', member.token, 'tickets', 'list', '--assignee', 'me', '--json'], { stdout: (s) => { out += s; }, stderr: () => {} });
  assert.equal(mine, 0);
  assert.deepEqual(JSON.parse(out).data.map((x: { id: string }) => x.id), [id]);
  const table = await cli(['tickets', 'list', '--assignee', member.id, '--search', 'assign me']);
  assert.equal(table.code, 0, table.stderr);
  assert.ok(table.stdout.split('\n').some((l) => l.startsWith(id) && / Staff \d+ +Assign me please/.test(l)), table.stdout);
  const adminMe = await cli(['tickets', 'list', '--assignee', 'me']);
  assert.notEqual(adminMe.code, 0);
  assert.match(adminMe.stderr, /ADMIN_TOKEN is no staff member/);
  const unknown = await cli(['tickets', 'assign', id, 'stf_nobody']);
  assert.match(unknown.stderr, /STAFF_ID: no staff member stf_nobody/);
  assert.match((await cli(['tickets', 'assign', id, 'none'])).stdout, new RegExp(`^Ticket ${id} is assigned to nobody\\n$`));

  const closed = await cli(['tickets', 'close', id, other, '999999999']);
  assert.equal(closed.code, 0, closed.stderr);
  assert.equal(closed.stdout, `Closed 2 of 3: ${[id, other].join(', ')}\nNot found: 999999999\n`);
  assert.match((await cli(['tickets', 'close', id])).stdout, new RegExp(`Closed 0 of 1\\nAlready closed: ${id}\\n`));
  const none = await cli(['tickets', 'close'], { url: NOWHERE });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /TICKET is missing/);
  const blank = await cli(['tickets', 'list', '--search', ' ', '--assignee', ''], { url: NOWHERE });
  assert.equal(blank.code, 2);
  assert.match(blank.stderr, /--assignee must be me, none or a staff member's id/);
  assert.match(blank.stderr, /--search must not be blank/);
});
