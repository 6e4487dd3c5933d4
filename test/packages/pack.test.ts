// Both packages as a customer gets them: `npm pack` (each package's prepack builds it), the
// tarballs installed into an empty directory with nothing else, then `hc` creating and deleting
// a server against the app and a script importing @hostcloud/sdk, in JavaScript and type-checked
// TypeScript. The install reads npm's cache only (--offline): no traffic leaves the machine; a
// cache without commander or yaml (npm ci never ran on this machine) skips the test and says so.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
// Its own timeout (over the run's 120 s): packing builds both packages and the check runs tsc
// twice, which takes minutes on two busy cores.
import { promisify } from 'node:util';
import { VERSION } from '../../packages/cli/src/version.ts';
import { createCustomer, startApp } from '../helpers/app.ts';
import { ROOT } from '../helpers/hc.ts';
import { PASSWORD } from '../helpers/servers.ts';

const exec = promisify(execFile);
const NPM_CLI = process.env.npm_execpath && /npm-cli\.js$/.test(process.env.npm_execpath) ? process.env.npm_execpath : undefined;

/** npm with the machine's cache and settings, without what `npm test` put in the environment for its own run. */
function npm(args: string[], cwd: string) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_') || k === 'npm_config_cache' || k === 'npm_config_userconfig'));
  const [cmd, argv] = NPM_CLI ? [process.execPath, [NPM_CLI, ...args]] : ['npm', args];
  return exec(cmd, argv, { cwd, env: { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' }, maxBuffer: 16 * 1024 * 1024, timeout: 300_000 });
}

interface Packed { filename: string; integrity: string; files: { path: string }[] }

test('npm pack of both packages installs on its own and runs: hc creates and deletes a server, the SDK imports and type-checks', { timeout: 360_000 }, async (ctx) => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hc-pack-'));
  after(() => fs.rm(dir, { recursive: true, force: true }));
  const tarballs = path.join(dir, 'tarballs');
  await fs.mkdir(tarballs);

  // The SDK first: the CLI is built against its types.
  const packed = JSON.parse((await npm(['pack', '-w', 'packages/sdk', '-w', 'packages/cli', '--pack-destination', tarballs, '--json'], ROOT)).stdout) as Packed[];
  assert.deepEqual(packed.map((p) => p.filename), [`hostcloud-sdk-${VERSION}.tgz`, `hostcloud-cli-${VERSION}.tgz`]);
  const [sdk, cli] = packed as [Packed, Packed];
  for (const p of packed) {
    // The built code and the README: no sources, tests or configuration.
    assert.ok(p.files.every((f) => /^(dist\/|bin\/|README\.md$|package\.json$)/.test(f.path)), p.files.map((f) => f.path).join(' '));
  }
  assert.ok(sdk.files.some((f) => f.path === 'dist/index.d.ts'));
  assert.ok(cli.files.some((f) => f.path === 'bin/hc.js'));
  const sdkManifest = JSON.parse(await fs.readFile(path.join(ROOT, 'packages/sdk/package.json'), 'utf8'));
  assert.equal(sdkManifest.dependencies, undefined, 'the SDK has no runtime dependencies');
  assert.equal(JSON.parse(await fs.readFile(path.join(ROOT, 'packages/cli/package.json'), 'utf8')).version, VERSION);

  // An empty project depending on the two tarballs. Its lockfile pins the CLI's dependencies to
  // the versions (and integrity) this repository's lockfile has: what \`npm ci\` put in npm's
  // cache, so an offline install finds them there (npm ci caches tarballs, not the registry's
  // metadata that resolving a range would need).
  const consumer = path.join(dir, 'consumer');
  await fs.mkdir(consumer);
  const rootLock = JSON.parse(await fs.readFile(path.join(ROOT, 'package-lock.json'), 'utf8')).packages as Record<string, object>;
  const cliManifest = JSON.parse(await fs.readFile(path.join(ROOT, 'packages/cli/package.json'), 'utf8')) as { dependencies: Record<string, string>; bin: object };
  const deps = { '@hostcloud/sdk': `file:${path.join(tarballs, sdk.filename)}`, '@hostcloud/cli': `file:${path.join(tarballs, cli.filename)}` };
  const lockPackages: Record<string, object> = {
    '': { name: 'consumer', dependencies: deps },
    'node_modules/@hostcloud/sdk': { version: VERSION, resolved: deps['@hostcloud/sdk'], integrity: sdk.integrity },
    'node_modules/@hostcloud/cli': { version: VERSION, resolved: deps['@hostcloud/cli'], integrity: cli.integrity, dependencies: cliManifest.dependencies, bin: cliManifest.bin },
  };
  // With \`resolved\` (this repository's lockfile leaves it out: omit-lockfile-registry-resolved)
  // npm takes the tarball from its cache by integrity, without asking for the package's metadata.
  const registry = (process.env.npm_config_registry ?? 'https://registry.npmjs.org/').replace(/\/?$/, '/');
  for (const dep of Object.keys(cliManifest.dependencies).filter((d) => d !== '@hostcloud/sdk')) {
    const entry = (rootLock[`packages/cli/node_modules/${dep}`] ?? rootLock[`node_modules/${dep}`]) as { version: string; resolved?: string } | undefined;
    assert.ok(entry, `${dep} is in package-lock.json`);
    lockPackages[`node_modules/${dep}`] = { ...entry, resolved: entry.resolved ?? `${registry}${dep}/-/${dep.split('/').pop()}-${entry.version}.tgz` };
  }
  await fs.writeFile(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies: deps }));
  await fs.writeFile(path.join(consumer, 'package-lock.json'), JSON.stringify({ name: 'consumer', lockfileVersion: 3, requires: true, packages: lockPackages }));
  try {
    await npm(['ci', '--offline'], consumer);
  } catch (e) {
    const out = `${(e as { stdout?: string }).stdout ?? ''}${(e as { stderr?: string }).stderr ?? ''}`;
    if (/ENOTCACHED|only-if-cached/i.test(out)) return ctx.skip(`npm's cache lacks a dependency of @hostcloud/cli (npm ci puts them there): ${out.split('\n').find((l) => /ENOTCACHED|only-if-cached/i.test(l))}`);
    throw e;
  }
  const installed = (await fs.readdir(path.join(consumer, 'node_modules'))).sort();
  assert.deepEqual(installed.filter((n) => !n.startsWith('.')), ['@hostcloud', 'commander', 'yaml']);

  const t = await startApp({ worker: 'embedded', simDelayMs: 20 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  const c = await createCustomer(t, { deposit: '20.00' });
  const env = { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'config'), HC_URL: baseUrl, HC_TOKEN: c.key };
  const hcBin = path.join(consumer, 'node_modules/.bin/hc');
  const hc = (...args: string[]) => exec(hcBin, args, { cwd: consumer, env, timeout: 60_000 });

  assert.equal((await hc('--version')).stdout, `${VERSION}\n`);
  const created = JSON.parse((await hc('server', 'create', '--name', 'packed.example.com', '--plan', '1', '--location', '1', '--os', '1', '--password', PASSWORD, '--wait', '-o', 'json')).stdout);
  assert.equal(created.status, 'active');
  const deleted = JSON.parse((await hc('server', 'delete', created.id, '--yes', '-o', 'json')).stdout);
  assert.equal(deleted.status, 'deleted');
  const failed = await hc('server', 'get', created.id).then(() => undefined, (e: { code?: number; stderr?: string }) => e);
  assert.equal(failed?.code, 1);
  assert.match(failed?.stderr ?? '', /^error: RESOURCE_NOT_FOUND: /);

  // The SDK from plain JavaScript, and from strict TypeScript against its published types.
  await fs.writeFile(path.join(consumer, 'script.mjs'), `import { Hostcloud, HostcloudError, verifyWebhook } from '@hostcloud/sdk';
const hc = new Hostcloud({ baseUrl: process.env.HC_URL, token: process.env.HC_TOKEN });
const plans = await hc.catalog.plans().toArray();
const code = await hc.servers.get('srv_nope').catch((e) => (e instanceof HostcloudError ? e.code : String(e)));
console.log(JSON.stringify({ plans: plans.length, code, verify: typeof verifyWebhook }));
`);
  const out = JSON.parse((await exec(process.execPath, ['script.mjs'], { cwd: consumer, env, timeout: 30_000 })).stdout);
  assert.deepEqual(out, { plans: out.plans, code: 'RESOURCE_NOT_FOUND', verify: 'function' });
  assert.ok(out.plans >= 5);

  await fs.writeFile(path.join(consumer, 'typed.ts'), `import { Hostcloud, HostcloudError, type Server, type ServerListItem } from '@hostcloud/sdk';
export async function main(hc: Hostcloud): Promise<string> {
  const s: Server = await hc.servers.get('srv_1');
  const items: ServerListItem[] = await hc.servers.list({ status: 'active' }).toArray();
  // @ts-expect-error plan_id is a number
  await hc.servers.create({ name: 'x', location_id: 1, plan_id: '2', password: 'p' });
  try { await hc.account.get(); } catch (e) { if (e instanceof HostcloudError) return e.code + (e.requestId ?? ''); }
  return s.name + items.length;
}
`);
  await fs.writeFile(path.join(consumer, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, lib: ['ES2022', 'DOM'], types: [] },
    files: ['typed.ts'],
  }));
  await exec(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', consumer], { cwd: consumer, timeout: 120_000 });
});
