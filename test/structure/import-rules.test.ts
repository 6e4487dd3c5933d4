// The import rules of .dependency-cruiser.mjs, each seen refusing a violation: the project's own
// config is run over a small tree of its own (in a temporary directory), where every rule is broken
// once, and must name each broken rule. Without this, a rule whose path pattern no longer matches
// anything would pass every check while refusing nothing.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repo = process.cwd();

/** Files of the fixture tree: each import breaks the rule named beside it. */
const TREE: Record<string, string> = {
  // operations-imports-no-family
  'src/core/operations/run.ts': "import { a } from '../servers/a.ts';\nexport const run = a;\n",
  'src/core/servers/a.ts': 'export const a = 1;\n',
  // no-two-way-folders: dns and domains import each other
  'src/core/dns/b.ts': "import { c } from '../domains/c.ts';\nexport const b = c;\n",
  'src/core/domains/c.ts': 'export const c = 1;\n',
  'src/core/domains/d.ts': "import { b } from '../dns/b.ts';\nexport const d = b;\n",
  // no-cycle
  'src/core/tickets/e.ts': "import { f } from './f.ts';\nexport const e = (): number => f();\n",
  'src/core/tickets/f.ts': "import { e } from './e.ts';\nexport const f = (): number => e();\n",
  // core-not-to-http, core-not-to-simulated, core-to-provider-interfaces-only, core-not-to-jobs
  'src/core/accounts/g.ts': [
    "import { h } from '../../http/h.ts';", "import { sim } from '../../providers/compute/simulated/index.ts';",
    "import { lxd } from '../../providers/compute/lxd.ts';", "import { job } from '../../jobs/job.ts';",
    'export const g = [h, sim, lxd, job];', '',
  ].join('\n'),
  'src/http/h.ts': 'export const h = 1;\n',
  'src/providers/compute/simulated/index.ts': 'export const sim = 1;\n',
  'src/providers/compute/lxd.ts': 'export const lxd = 1;\n',
  'src/jobs/job.ts': 'export const job = 1;\n',
  // db-not-up, no-code-imports-a-migration
  'src/db/queries/i.ts': "import { k } from '../../core/accounts/k.ts';\nimport { m } from '../migrations/0001_m.ts';\nexport const i = [k, m];\n",
  'src/core/accounts/k.ts': 'export const k = 1;\n',
  'src/db/migrations/0001_m.ts': 'export const m = 1;\n',
  // tangle-list-stale fires on the imports of families.ts (the one file every build reaches)
  'src/core/families.ts': 'export const families = [];\n',
  'src/cli/w.ts': "import { families } from '../core/families.ts';\nexport const w = families;\n",
  // jobs-not-to-http
  'src/jobs/l.ts': "import { h } from '../http/h.ts';\nexport const l = h;\n",
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'nodenext', allowImportingTsExtensions: true, noEmit: true, strict: true } }),
};

const RULES = [
  'operations-imports-no-family', 'no-two-way-folders', 'no-cycle', 'core-not-to-http', 'core-not-to-simulated',
  'core-to-provider-interfaces-only', 'core-not-to-jobs', 'db-not-up', 'no-code-imports-a-migration', 'jobs-not-to-http', 'tangle-list-stale',
];

test('every import rule refuses a violation of it, naming the rule', { timeout: 120_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hc-import-rules-'));
  try {
    for (const [file, text] of Object.entries(TREE)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    // The project's config, with a pair listed as tangled that the tree does not tangle (tangle-list-stale).
    const config = fs.readFileSync(path.join(repo, '.dependency-cruiser.mjs'), 'utf8');
    const withStale = config.replace(/const TANGLED = new Set\(\[/, "const TANGLED = new Set(['src/core/nodes ⇄ src/core/vdc', ");
    assert.notEqual(withStale, config, 'the config keeps its TANGLED list');
    fs.writeFileSync(path.join(dir, '.dependency-cruiser.mjs'), withStale);
    const bin = path.join(repo, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
    const out = await run(process.execPath, [bin, '--config', '.dependency-cruiser.mjs', '--output-type', 'json', 'src'], { cwd: dir, maxBuffer: 64 << 20 })
      .then((r) => r.stdout, (e: { stdout?: string }) => e.stdout ?? '');
    const broken = new Set((JSON.parse(out) as { summary: { violations: { rule: { name: string } }[] } }).summary.violations.map((v) => v.rule.name));
    for (const rule of RULES) assert.ok(broken.has(rule), `${rule} refused nothing`);
    const config2 = (await import(path.join(dir, '.dependency-cruiser.mjs'))) as { default: { forbidden: { name: string }[] } };
    assert.deepEqual(config2.default.forbidden.map((r) => r.name).filter((n) => !RULES.includes(n)), ['jobs-queue-in-src-jobs'], 'every rule of the config is tested here but the pg-boss one');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
