// The import rules `npm run check` enforces (dependency-cruiser; type-only imports count too):
// no import cycle anywhere; a core that reaches neither the HTTP layer, the worker's jobs nor a
// simulated driver; a worker that does not reach into the HTTP layer; a database layer below the
// core, the worker and the HTTP layer.
export default {
  forbidden: [
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
