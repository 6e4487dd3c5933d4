#!/usr/bin/env node
// The root's `prepare` (run by `npm install` and `npm ci`): builds the workspaces
// packages/sdk and then packages/cli (which is built against the SDK's dist types) with tsc, so
// `hc` and `import '@hostcloud/sdk'` work right after an install. An install without dev
// dependencies (no TypeScript) skips the build and says so: the server does not need them.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  process.stderr.write('packages/sdk and packages/cli not built: TypeScript is not installed (an install without dev dependencies)\n');
  process.exit(0);
}
for (const pkg of ['packages/sdk', 'packages/cli']) {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(root, pkg)], { stdio: 'inherit' });
  if (r.status !== 0) {
    process.stderr.write(`building ${pkg} failed\n`);
    process.exit(r.status ?? 1);
  }
  process.stderr.write(`built ${pkg} in ${Date.now() - t0} ms\n`);
}
