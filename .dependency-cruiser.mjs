// The import rules `npm run check` enforces (dependency-cruiser; type-only imports count too):
// no import cycle anywhere; a core that reaches neither the HTTP layer, the worker's jobs nor a
// simulated driver; a worker that does not reach into the HTTP layer; a database layer below the
// core, the worker and the HTTP layer.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Two folders under src that import each other both ways are one tangle: neither can be read,
// tested or changed without the other. A folder here is src/<layer>/<name> (its subfolders
// included), or src/<layer> for a layer's own files, which its subfolders may share. The pairs are
// found by reading the imports below (dependency-cruiser judges modules, and its folder-level
// `circular` flags cycles of any length); each pair found becomes a rule refusing its lesser
// direction, so depcruise names every import that closes the loop. TANGLED lists the pairs not
// untangled yet: no other pair may appear, and a listed one that is gone must leave the list.
const TANGLED = new Set([]);

function twoWayFolderRules() {
  const root = path.dirname(fileURLToPath(import.meta.url));
  const folderOf = (file) => path.dirname(file).split('/').slice(0, 3).join('/');
  const counts = new Map();
  const walk = (dir) => {
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(rel);
      else if (/\.tsx?$/.test(e.name) && !rel.startsWith('src/db/migrations/')) {
        const text = fs.readFileSync(path.join(root, rel), 'utf8');
        for (const m of text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*'(\.\.?\/[^']+)'/g)) {
          const to = path.posix.normalize(path.posix.join(path.posix.dirname(rel), m[1]));
          if (!to.startsWith('src/')) continue;
          const key = `${folderOf(rel)}|${folderOf(to)}`;
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
      }
    }
  };
  walk('src');
  const parentOf = (a, b) => b.startsWith(`${a}/`);
  const member = (folder) => (folder.split('/').length === 3 ? `^${folder}/` : `^${folder}/[^/]+$`);
  const rules = [];
  const seen = new Set();
  for (const [key, n] of counts) {
    const [a, b] = key.split('|');
    const back = counts.get(`${b}|${a}`);
    if (a === b || !back || parentOf(a, b) || parentOf(b, a) || n > back || (n === back && a > b)) continue;
    const pair = [a, b].sort().join(' ⇄ ');
    seen.add(pair);
    if (TANGLED.has(pair)) continue;
    rules.push({
      name: 'no-two-way-folders',
      comment: `${a} and ${b} import each other both ways (${n} and ${back} imports): one must be below the other, so this direction is refused.`,
      severity: 'error',
      from: { path: member(a) },
      to: { path: member(b) },
    });
  }
  for (const pair of TANGLED) {
    if (!seen.has(pair)) {
      rules.push({ name: 'tangle-list-stale', comment: `${pair} no longer import each other both ways: remove it from TANGLED.`, severity: 'error', from: { path: '^src/' }, to: { path: '^src/core/families[.]ts$' } });
    }
  }
  return rules;
}

export default {
  forbidden: [
    {
      name: 'operations-imports-no-family',
      comment: 'core/operations runs every family\'s work without knowing one: the families register their operations (src/core/families.ts) and the worker is handed the runners. Of the other core folders it sees the event catalogue only.',
      severity: 'error',
      from: { path: '^src/core/operations/' },
      to: { path: '^src/core/(?!operations/)[^/]+/', pathNot: '^src/core/events/(catalogue|type-names)[.]ts$' },
    },
    ...twoWayFolderRules(),
    {
      name: 'no-cycle',
      comment: 'Modules import one another in one direction only (type imports included).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-not-to-http',
      comment: 'The core never imports the HTTP layer or Fastify: routes parse, call the core, shape the answer.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: ['^src/http/', '^node_modules/(fastify|@fastify/|find-my-way)'] },
    },
    {
      name: 'core-not-to-simulated',
      comment: 'The core drives providers through their interfaces; a simulated driver (and its tables) is one implementation.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: ['^src/providers/simulated/', '^src/providers/[^/]+/simulated/', '^src/db/queries/sim'] },
    },
    {
      name: 'core-to-provider-interfaces-only',
      comment: 'Of src/providers the core sees the interfaces and their errors, never a driver (simulated, LXD, Stripe, no-op).',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/providers/', pathNot: ['^src/providers/[^/]+/types[.]ts$', '^src/providers/errors[.]ts$'] },
    },
    {
      name: 'core-not-to-jobs',
      comment: 'The core deals in operations; src/jobs maps pg-boss jobs to them (the core never sees a job id).',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: ['^src/jobs/', '^node_modules/pg-boss'] },
    },
    {
      name: 'db-not-up',
      comment: 'The database layer is below the core, the worker and the HTTP layer: it imports none of them (type imports included).',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: ['^src/jobs/', '^src/http/', '^src/core/'] },
    },
    {
      name: 'jobs-not-to-http',
      comment: 'The worker sends what the HTTP layer shapes (a webhook body) through what it is handed, never by importing src/http.',
      severity: 'error',
      from: { path: '^src/jobs/' },
      to: { path: ['^src/http/', '^node_modules/(fastify|@fastify/|find-my-way)'] },
    },
    {
      name: 'no-code-imports-a-migration',
      comment: 'A migration is history (squashed, never edited): names it shares with the code live in src/db/names.ts.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/db/migrate[.]ts$', '^src/db/migrations/'] },
      to: { path: '^src/db/migrations/' },
    },
    {
      name: 'jobs-queue-in-src-jobs',
      comment: 'pg-boss (its job ids, its API) stays behind src/jobs; the database layer may write its rows.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/jobs/', '^src/db/'] },
      to: { path: '^node_modules/pg-boss' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], mainFields: ['module', 'main', 'types', 'typings'] },
    cache: { folder: 'node_modules/.cache/dependency-cruiser', strategy: 'content' },
  },
};
