// `hostcloud admin nodes …` and `servers migrate`, in-process against the app on a real port:
// tables and --json, input checked before anything is sent.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { runAdmin } from '../src/cli/admin.ts';
import { type Customer, type TestApp, createCustomer, startApp, waitForOperation } from './helpers/app.ts';
import { activeServer } from './helpers/servers.ts';

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
const NOWHERE = 'http://127.0.0.1:9';

before(async () => {
  t = await startApp({ worker: 'embedded' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  c = await createCustomer(t, { deposit: '50.00' });
});

test('nodes list (table and --json), add, get, status', async () => {
  const list = await cli(['nodes', 'list', '--location', '1']);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /NAME\s+VENDOR\s+STATUS/);
  assert.match(list.stdout, /fra1-kvm1\s+intel\s+active/);
  const added = await cli(['nodes', 'add', '--location', '1', '--name', 'fra1-kvm7', '--cpu-vendor', 'amd', '--cpu-cores', '32', '--ram-mb', '65536', '--storage-gb', '1000', '--json']);
  assert.equal(added.code, 0, added.stderr);
  const node = JSON.parse(added.stdout).data;
  assert.deepEqual([node.name, node.cpu_vendor, node.ram_mb.total], ['fra1-kvm7', 'amd', 65536]);
  const dup = await cli(['nodes', 'add', '--location', '1', '--name', 'fra1-kvm7', '--cpu-vendor', 'amd', '--cpu-cores', '32', '--ram-mb', '65536', '--storage-gb', '1000']);
  assert.notEqual(dup.code, 0);
  assert.match(dup.stderr, /409 STATE_CONFLICT[\s\S]*--name: another node has this name/);
  const status = await cli(['nodes', 'status', String(node.id), 'disabled']);
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, /fra1-kvm7\s+amd\s+disabled/);
  const got = await cli(['nodes', 'get', String(node.id), '--json']);
  assert.equal(JSON.parse(got.stdout).data.status, 'disabled');
});

test('input is checked before anything is sent', async () => {
  const bad = await cli(['nodes', 'add', '--location', 'x', '--name', 'Bad Name', '--cpu-vendor', 'arm', '--cpu-cores', '0', '--ram-mb', '1', '--storage-gb', '1'], { url: NOWHERE });
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /--location must be a whole number/);
  assert.match(bad.stderr, /--name must be a host name/);
  assert.match(bad.stderr, /--cpu-vendor must be intel or amd/);
  assert.doesNotMatch(bad.stderr, /cannot reach/);
  const status = await cli(['nodes', 'status', '1', 'asleep'], { url: NOWHERE });
  assert.match(status.stderr, /STATUS must be one of active, draining, disabled/);
  const mode = await cli(['servers', 'migrate', 'srv_x', '--mode', 'warp'], { url: NOWHERE });
  assert.match(mode.stderr, /--mode must be live or cold/);
});

test('servers migrate starts the operation; draining prints what it started', async () => {
  const server = await activeServer(t, c);
  const run = await cli(['servers', 'migrate', server.id, '--mode', 'cold', '--json']);
  assert.equal(run.code, 0, run.stderr);
  const op = JSON.parse(run.stdout).data.operation;
  assert.equal(op.type, 'server.migrate');
  assert.equal((await waitForOperation(t, c.key, op.id)).status, 'completed');
  const row = await t.database.db.selectFrom('servers').select('node_id').where('id', '=', server.id).executeTakeFirstOrThrow();
  const drain = await cli(['nodes', 'status', String(row.node_id), 'draining']);
  assert.equal(drain.code, 0, drain.stderr);
  assert.match(drain.stdout, /migrations started: 1, left on the node: 0/);
  assert.match(drain.stdout, new RegExp(`server\\s+${server.id}\\s+op_\\w+\\s+(live|cold)`));
  const missing = await cli(['servers', 'migrate', 'srv_nothing']);
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /not found/i);
  // --member is sent as `member`: the simulated platform's nodes have none (an LXD cluster's do).
  const member = await cli(['servers', 'migrate', server.id, '--member', 'lxd-b']);
  assert.notEqual(member.code, 0);
  assert.match(member.stderr, /only LXD clusters/);
});
