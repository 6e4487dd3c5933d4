// `hc` takes names where it asks for ids, asks before it destroys, generates a root password when
// none is given, opens SSH sessions, manages snapshots and chooses its columns — against the app
// on a real port, in-process (a person at a terminal is simulated by `answers`).
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { test } from 'node:test';
import { adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { configHome, hc, spawnHc } from '../helpers/hc.ts';

const t = await startApp({ worker: 'embedded', simDelayMs: 20 });
await t.app.listen({ port: 0, host: '127.0.0.1' });
const url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
const customer = await createCustomer(t, { deposit: '300.00' });
const env = { HC_URL: url, HC_TOKEN: customer.key };
const PASSWORD = 'c0rrect-Horse-battery';

async function serverCount(key = customer.key): Promise<number> {
  return json(await call(t.app, 'GET', '/v2/servers', { key })).meta.pagination.total as number;
}

test('create by names: --location code, --plan name, --os slug, --ssh-key name; the server is made with their ids', async () => {
  const key = await hc(['ssh-key', 'add', '--name', 'laptop', '--public-key-file', 'k.pub'], {
    env, files: { 'k.pub': 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGk3uCv1JgNpJgQwOzxCqUu0cQvZ0R9zTfu2h6hUq8lJ test@hc\n' },
  });
  assert.equal(key.code, 0, key.stderr);
  const r = await hc(['server', 'create', '--name', 'named-1.example.com', '--plan', 'cloud s', '--location', 'FRA1', '--os', 'debian-12',
    '--ssh-key', 'laptop', '--password', PASSWORD, '--wait'], { env });
  assert.equal(r.code, 0, r.stderr);
  const server = JSON.parse(r.stdout);
  assert.equal(server.status, 'active');
  assert.equal(server.plan.name, 'Cloud S');
  assert.equal(server.os, 'debian-12');
  const fra1 = json(await call(t.app, 'GET', '/v2/locations', { key: customer.key })).data.find((l: { code: string }) => l.code === 'fra1');
  assert.equal(server.location_id, fra1.id);
  // Numbers are still ids.
  const byId = await hc(['server', 'create', '--name', 'named-2.example.com', '--plan', '1', '--location', String(fra1.id), '--os', 'ubuntu-24.04', '--password', PASSWORD], { env });
  assert.equal(byId.code, 0, byId.stderr);
});

test('a name that matches nothing is exit 2 listing what there is, and nothing is created', async () => {
  const before = await serverCount();
  const loc = await hc(['server', 'create', '--name', 'x.example.com', '--plan', 'Cloud S', '--location', 'mars1', '--password', PASSWORD], { env });
  assert.equal(loc.code, 2);
  assert.match(loc.stderr, /no location "mars1" \(hc location list lists them\)/);
  assert.match(loc.stderr, /fra1\s+Frankfurt/);
  const plan = await hc(['server', 'create', '--name', 'x.example.com', '--plan', 'Cloud Z', '--location', 'fra1', '--password', PASSWORD], { env });
  assert.equal(plan.code, 2);
  assert.match(plan.stderr, /no plan "Cloud Z"/);
  const os = await hc(['server', 'create', '--name', 'x.example.com', '--plan', 'Cloud S', '--location', 'fra1', '--os', 'templeos', '--password', PASSWORD], { env });
  assert.equal(os.code, 2);
  assert.match(os.stderr, /no os "templeos" \(hc os list lists them\)[\s\S]*debian-12/);
  assert.equal(await serverCount(), before);
});

test('servers by name: get, actions; an unknown name is exit 1 RESOURCE_NOT_FOUND; a name two plans share is exit 2 listing both', async () => {
  const c = await createCustomer(t, { deposit: '100.00' });
  const e = { HC_URL: url, HC_TOKEN: c.key };
  const make = async (name: string) => {
    const r = await hc(['server', 'create', '--name', name, '--plan', 'Cloud S', '--location', 'fra1', '--os', 'debian-12', '--password', PASSWORD, '--wait'], { env: e });
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout).id as string;
  };
  const web = await make('web-1.example.com');
  const got = await hc(['server', 'get', 'WEB-1.example.com'], { env: e });
  assert.equal(got.code, 0, got.stderr);
  assert.equal(JSON.parse(got.stdout).id, web);
  const stop = await hc(['server', 'stop', 'web-1.example.com', '--wait'], { env: e });
  assert.equal(stop.code, 0, stop.stderr);
  assert.equal(JSON.parse(stop.stdout).power_state, 'stopped');

  const unknown = await hc(['server', 'get', 'nope.example.com'], { env: e });
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /RESOURCE_NOT_FOUND: No server is named "nope\.example\.com"/);
  // Another account's server is not found by its name either.
  assert.equal((await hc(['server', 'get', 'web-1.example.com'], { env })).code, 1);

  // Server names are unique per account (any case: HOSTNAME_IN_USE); two plans may share a name.
  const twin = await make('dup.example.com');
  assert.equal((await hc(['server', 'create', '--name', 'DUP.example.com', '--plan', 'Cloud S', '--location', 'fra1', '--os', 'debian-12', '--password', PASSWORD], { env: e })).code, 1);
  assert.equal(JSON.parse((await hc(['server', 'get', 'Dup.Example.com'], { env: e })).stdout).id, twin);
  const plan = { name: 'Twin', cpu_cores: 1, ram_mb: 1024, storage_gb: 10, bandwidth_gb: 100, price: '4.00' };
  const ids = [];
  for (let i = 0; i < 2; i++) {
    const res = await adminCall(t, 'POST', '/admin/v1/plans', plan);
    assert.equal(res.statusCode, 201, res.body);
    ids.push(json(res).data.id as number);
  }
  const before = await serverCount(c.key);
  const ambiguous = await hc(['server', 'create', '--name', 'twin.example.com', '--plan', 'twin', '--location', 'fra1', '--os', 'debian-12', '--password', PASSWORD], { env: e });
  assert.equal(ambiguous.code, 2);
  assert.match(ambiguous.stderr, new RegExp(`--plan "twin" matches 2: give an id\\n\\s+${ids[0]}\\s+Twin\\n\\s+${ids[1]}\\s+Twin`));
  assert.equal(await serverCount(c.key), before);
});

test('delete asks: on a terminal y deletes, anything else keeps it; piped, only --yes deletes (else exit 2, nothing deleted)', async () => {
  const c = await createCustomer(t, { deposit: '100.00' });
  const e = { HC_URL: url, HC_TOKEN: c.key };
  const r = await hc(['server', 'create', '--name', 'del.example.com', '--plan', 'Cloud S', '--location', 'fra1', '--os', 'debian-12', '--password', PASSWORD, '--wait'], { env: e });
  const id = JSON.parse(r.stdout).id as string;

  const piped = await hc(['server', 'delete', 'del.example.com'], { env: e });
  assert.equal(piped.code, 2);
  assert.match(piped.stderr, /Delete server del\.example\.com \(srv_\w+\)\? .*Not confirmed: add --yes \(nothing was done\)/);
  const no = await hc(['server', 'delete', 'del.example.com'], { env: e, answers: ['n'] });
  assert.equal(no.code, 2);
  assert.match(no.prompts[0]!, /Delete server del\.example\.com \(srv_\w+\)\? .*\[y\/N\] $/);
  const blank = await hc(['server', 'delete', id], { env: e, answers: [''] });
  assert.equal(blank.code, 2);
  assert.equal(json(await call(t.app, 'GET', `/v2/servers/${id}`, { key: c.key })).data.status, 'active');

  const yes = await hc(['server', 'delete', 'del.example.com'], { env: e, answers: ['y'] });
  assert.equal(yes.code, 0, yes.stderr);
  assert.equal(JSON.parse(yes.stdout).status, 'deleted');
  assert.equal((await call(t.app, 'GET', `/v2/servers/${id}`, { key: c.key })).statusCode, 404);
});

test('create without --password: a strong password is generated and shown once (stderr beside a table, in the JSON when piped) and the API accepted it', async () => {
  const piped = await hc(['server', 'create', '--name', 'gen-1.example.com', '--plan', 'Cloud S', '--location', 'fra1', '--os', 'debian-12', '--wait'], { env });
  assert.equal(piped.code, 0, piped.stderr);
  const server = JSON.parse(piped.stdout);
  assert.equal(server.status, 'active');
  assert.match(server.root_password, /^[A-Za-z0-9\-_.+=@%]{24}$/);
  for (const cls of [/[a-z]/, /[A-Z]/, /\d/, /[-_.+=@%]/]) assert.match(server.root_password, cls);
  assert.equal(piped.stderr, '');

  const tty = await hc(['server', 'create', '--name', 'gen-2.example.com', '--plan', 'Cloud S', '--location', 'fra1', '--os', 'debian-12'], { env, tty: true });
  assert.equal(tty.code, 0, tty.stderr);
  const shown = /root password \(generated, shown only now\): (\S+)\n/.exec(tty.stderr);
  assert.ok(shown, tty.stderr);
  assert.ok(!tty.stdout.includes(shown[1]!), 'the password is not in the table');
  assert.notEqual(shown[1], server.root_password);
});

test('hc server ssh NAME runs ssh root@<primary IPv4> with the arguments after --; --user, --ipv6; ssh failing is exit 1', async () => {
  const got = JSON.parse((await hc(['server', 'get', 'named-1.example.com'], { env })).stdout);
  const r = await hc(['server', 'ssh', 'named-1.example.com', '--', 'uptime', '-p'], { env, tty: true });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.execs, [['ssh', `root@${got.network.ipv4.address}`, 'uptime', '-p']]);
  const deploy = await hc(['server', 'ssh', got.id, '--user', 'deploy', '--ipv6'], { env });
  if (got.network.ipv6) assert.deepEqual(deploy.execs, [['ssh', `deploy@${got.network.ipv6.address}`]]);
  const failing = await hc(['server', 'ssh', got.id], { env, execCode: 255 });
  assert.equal(failing.code, 1);
  assert.match(failing.stderr, /ssh exited with 255/);
});

test('hc snapshot create|list|restore|delete by server name and snapshot name; restore and delete ask', async () => {
  const c = await createCustomer(t, { deposit: '100.00' });
  const e = { HC_URL: url, HC_TOKEN: c.key };
  await hc(['server', 'create', '--name', 'snap.example.com', '--plan', 'Cloud S', '--location', 'fra1', '--os', 'debian-12', '--password', PASSWORD, '--wait'], { env: e });
  const made = await hc(['snapshot', 'create', 'snap.example.com', '--name', 'before-upgrade', '--wait'], { env: e });
  assert.equal(made.code, 0, made.stderr);
  assert.equal(JSON.parse(made.stdout).status, 'available');
  const list = await hc(['snapshot', 'list', 'snap.example.com', '-o', 'table'], { env: e });
  assert.match(list.stdout, /^ID\s+NAME\s+STATUS\s+SIZE GB\s+CREATED\n\d+\s+before-upgrade\s+available/);

  const refused = await hc(['snapshot', 'restore', 'snap.example.com', 'before-upgrade'], { env: e });
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /Not confirmed: add --yes/);
  const restored = await hc(['snapshot', 'restore', 'snap.example.com', 'before-upgrade', '--wait'], { env: e, answers: ['yes'] });
  assert.equal(restored.code, 0, restored.stderr);
  assert.equal(JSON.parse(restored.stdout).status, 'active');

  const missing = await hc(['snapshot', 'delete', 'snap.example.com', 'nope', '--yes'], { env: e });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /no snapshot "nope" on server srv_\w+; it has:\n\s+\d+\s+before-upgrade/);
  const deleted = await hc(['snapshot', 'delete', 'snap.example.com', 'before-upgrade', '--yes'], { env: e });
  assert.equal(deleted.code, 0, deleted.stderr);
  assert.equal((await hc(['snapshot', 'list', 'snap.example.com'], { env: e })).stdout.trim(), '[]');
});

test('server list: live power, IPv4 and location code in one request per page; -o wide adds columns; --columns picks them; an unknown column is exit 2', async () => {
  const c = await createCustomer(t, { deposit: '100.00' });
  const e = { HC_URL: url, HC_TOKEN: c.key };
  await hc(['server', 'create', '--name', 'list-1.example.com', '--plan', 'Cloud S', '--location', 'ams1', '--os', 'debian-12', '--password', PASSWORD, '--wait'], { env: e });
  await hc(['server', 'stop', 'list-1.example.com', '--wait'], { env: e });
  const table = await hc(['server', 'list', '-o', 'table'], { env: e });
  assert.match(table.stdout, /list-1\.example\.com\s+active\s+stopped\s+\d+\.\d+\.\d+\.\d+\s+ams1\s+Cloud S/);
  const wide = await hc(['server', 'list', '-o', 'wide'], { env: e });
  assert.match(wide.stdout.split('\n')[0]!, /SPECS.*NEXT BILLING/);
  const picked = await hc(['server', 'list', '-o', 'table', '--columns', 'name,ipv4,power', '--no-header'], { env: e });
  assert.match(picked.stdout, /^list-1\.example\.com\s+\d+\.\d+\.\d+\.\d+\s+stopped\n$/);
  // Piped without -o, --columns still means a table (JSON would drop the choice).
  const piped = await hc(['server', 'list', '--columns', 'name,location', '--no-header'], { env: e });
  assert.match(piped.stdout, /^list-1\.example\.com\s+ams1\n$/);
  const bad = await hc(['server', 'list', '-o', 'table', '--columns', 'name,colour'], { env: e });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--columns: no column "colour"; this list has id, name, status, power/);
  // The API: items are as the contract fixes them without include (power_state null, no extras).
  const plain = json(await call(t.app, 'GET', '/v2/servers', { key: c.key })).data[0];
  assert.equal(plain.power_state, null);
  assert.equal(plain.location_id, undefined);
  assert.equal(plain.primary_ip, undefined);
  const live = json(await call(t.app, 'GET', '/v2/servers?include=power_state,location,primary_ip', { key: c.key })).data[0];
  assert.equal(live.power_state, 'stopped');
  assert.equal(live.location_id, json(await call(t.app, 'GET', '/v2/locations', { key: c.key })).data.find((l: { code: string }) => l.code === 'ams1').id);
  assert.match(live.primary_ip, /^\d+\.\d+\.\d+\.\d+$/);
  const onlyIp = json(await call(t.app, 'GET', '/v2/servers?include=primary_ip', { key: c.key })).data[0];
  assert.deepEqual([onlyIp.power_state, onlyIp.location_id, typeof onlyIp.primary_ip], [null, undefined, 'string']);
  for (const include of ['everything', 'power_state,', 'power_state;location', '']) {
    const wrong = await call(t.app, 'GET', `/v2/servers?include=${include}`, { key: c.key });
    assert.equal(wrong.statusCode, 422, include);
    assert.equal(json(wrong).error.code, 'VALIDATION_FAILED');
  }
  // Another account's list holds none of these servers, with or without extras.
  assert.ok(!json(await call(t.app, 'GET', '/v2/servers?include=power_state', { key: customer.key })).data.some((s: { name: string }) => s.name === 'list-1.example.com'));
});

test('hc context add without --token: asked without echo on a terminal, read from stdin when piped; an empty token is exit 2', async () => {
  const home = await configHome();
  const e = { XDG_CONFIG_HOME: home };
  const asked = await hc(['context', 'add', 'typed', '--url', url], { env: e, answers: [` ${customer.key} `] });
  assert.equal(asked.code, 0, asked.stderr);
  assert.deepEqual(asked.prompts, ['API token: ']);
  const file = JSON.parse(await fs.readFile(`${home}/hostcloud/contexts.json`, 'utf8'));
  assert.equal(file.contexts.typed.token, customer.key);
  const piped = await hc(['context', 'add', 'piped', '--url', url], { env: e, stdin: `${customer.key}\n` });
  assert.equal(piped.code, 0, piped.stderr);
  const works = await hc(['--context', 'piped', 'balance', '-o', 'json'], { env: e });
  assert.equal(works.code, 0, works.stderr);
  const empty = await hc(['context', 'add', 'empty', '--url', url], { env: e, stdin: '' });
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /no token given/);
});

test('completion offers server names where a server goes, and only there', async () => {
  const home = await configHome();
  const e = { ...env, XDG_CONFIG_HOME: home };
  const words = async (...w: string[]) => (await hc(['__complete', ...w], { env: e })).stdout.trim().split('\n').filter(Boolean);
  assert.deepEqual(await words('server', 'get', 'named-'), ['named-1.example.com', 'named-2.example.com']);
  assert.deepEqual(await words('snapshot', 'list', 'named-1'), ['named-1.example.com']);
  assert.deepEqual(await words('snapshot', 'restore', 'named-1.example.com', 'n'), []);
  assert.deepEqual(await words('server', 're'), ['reboot', 'resize']);
  // No credentials: no names, no error.
  assert.deepEqual((await hc(['__complete', 'server', 'get', ''], { env: { XDG_CONFIG_HOME: home } })).stdout, '');
});

test('the binary: hc server delete piped without --yes exits 2 and deletes nothing', async () => {
  const before = await serverCount();
  const list = JSON.parse((await hc(['server', 'list'], { env })).stdout) as { id: string }[];
  const r = await spawnHc(['server', 'delete', list[0]!.id], env);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /Not confirmed: add --yes/);
  assert.equal(await serverCount(), before);
});
