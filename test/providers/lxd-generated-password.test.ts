// `hc server create` without --password on real LXD: the strong password hc generates (printed once,
// here in the JSON) is root's password in the container — no reset needed to log in. The image has
// no sshd, so "logging in" is checked the way login(1) checks it: the password, crypted with the
// salt of root's /etc/shadow entry (openssl passwd -6, SHA-512 crypt), gives that very entry.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, describe, test } from 'node:test';
import { createCustomer, json, call, waitForOperation } from '../helpers/app.ts';
import { configHome, hc } from '../helpers/hc.ts';
import { lxd, lxdClient, lxdSkip } from '../helpers/lxd.ts';
import { startLxdApp } from '../helpers/lxd-app.ts';
import { CLOUD_S, UBUNTU } from '../helpers/servers.ts';

describe('LXD: a generated root password', { skip: lxdSkip, timeout: 300_000 }, () => {
  test('hc server create without --password: the generated password is root\'s in the container', async () => {
    const env = await startLxdApp();
    await env.t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(env.t.app.server.address() as { port: number }).port}`;
    const c = await createCustomer(env.t, { deposit: '100.00' });
    const client = lxdClient(lxd!.first);
    after(() => client.close());
    await configHome();
    const r = await hc(['server', 'create', '--name', 'genpw.example.com', '--location', String(env.locationId), '--plan', String(CLOUD_S), '--os', String(UBUNTU), '-o', 'json'], { env: { HC_URL: url, HC_TOKEN: c.key } });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { id: string; root_password?: string; operation?: { id: string } };
    const password = out.root_password;
    assert.ok(password && password.length >= 16, `the JSON carries the generated password: ${r.stdout}`);
    if (out.operation) await waitForOperation(env.t, c.key, out.operation.id, 120_000);
    for (let i = 0; i < 240 && json(await call(env.t.app, 'GET', `/v2/servers/${out.id}`, { key: c.key })).data.status === 'pending'; i++) await new Promise((res) => setTimeout(res, 500));
    const row = await env.t.database.db.selectFrom('servers').select(['provider_ref', 'status']).where('id', '=', out.id).executeTakeFirstOrThrow();
    assert.equal(row.status, 'active');
    const entry = (await client.readFile(row.provider_ref!, '/etc/shadow'))!.toString().split('\n').find((l) => l.startsWith('root:'))!;
    const hash = entry.split(':')[1]!;
    const salt = /^\$6\$(?:rounds=\d+\$)?([^$]+)\$/.exec(hash)?.[1];
    assert.ok(salt, `root has a SHA-512 crypt entry: ${hash}`);
    const crypted = execFileSync('openssl', ['passwd', '-6', '-salt', salt, '-stdin'], { input: `${password}\n` }).toString().trim();
    assert.equal(crypted, hash, 'the generated password signs root in');
    const wrong = execFileSync('openssl', ['passwd', '-6', '-salt', salt, '-stdin'], { input: 'not-it\n' }).toString().trim();
    assert.notEqual(wrong, hash);
  });
});
