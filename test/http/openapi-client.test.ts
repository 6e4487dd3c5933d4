// A client generated from /v2/openapi.json with openapi-typescript (types) and openapi-fetch
// (runtime), as a customer would: a small script using it must type-check (tsc, strict), and
// then run against this server. It lists plans with no arguments, creates a server, sends an
// action without a body, and reads error codes the compiler knows per operation.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { tsImport } from 'tsx/esm/api';
import { type TestApp, call, createCustomer, json, startApp } from '../helpers/app.ts';

const run = promisify(execFile);

// The script a customer would write. `@ts-expect-error` lines must be errors: they prove that
// the types are narrow (declared error codes only, required fields), not `any`.
const SCRIPT = `import createClient from 'openapi-fetch';
import type { components, paths } from './api.ts';

type ErrorCode = components['schemas']['ErrorCode'];
type Plan = components['schemas']['Plan'];

export async function main(baseUrl: string, apiKey: string, idempotencyKey: string) {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${apiKey}\` } });

  // page and per_page have defaults, so they are optional.
  const plans = await client.GET('/plans');
  if (!plans.data) throw new Error('no plans');
  const plan: Plan = plans.data.data[0]!;

  const created = await client.POST('/servers', {
    params: { header: { 'Idempotency-Key': idempotencyKey } },
    body: { name: 'client-1.example.com', location_id: 1, plan_id: plan.id, os_version_id: 1, password: 'c0rrect-Horse-battery' },
  });
  if (!created.data) throw new Error(\`create failed: \${created.error?.error.code}\`);
  const server = created.data.data;
  const operation = await client.GET('/operations/{id}', { params: { path: { id: server.operation.id } } });

  // @ts-expect-error name, location_id and password are required
  await client.POST('/servers', { body: { plan_id: plan.id } }).catch(() => undefined);

  // An error is read by its code; the codes are those createServer declares.
  const refused = await client.POST('/servers', {
    body: { name: 'client-2.example.com', location_id: 1, plan_id: 999999, os_version_id: 1, password: 'c0rrect-Horse-battery' },
  });
  let refusedCode: ErrorCode | undefined;
  if (refused.error) {
    const code = refused.error.error.code;
    // @ts-expect-error createServer never answers RESOURCE_NOT_FOUND
    if (code === 'RESOURCE_NOT_FOUND') throw new Error('not declared');
    switch (code) {
      case 'PLAN_NOT_FOUND':
      case 'INSUFFICIENT_BALANCE':
      case 'IDEMPOTENCY_KEY_CONFLICT':
        refusedCode = code;
        break;
      default:
        refusedCode = code;
    }
  }

  // An action's body is optional: reboot has none. The new server is still pending.
  const reboot = await client.POST('/servers/{id}/actions/{verb}', { params: { path: { id: server.id, verb: 'reboot' } } });
  const rebootCode: 'STATE_CONFLICT' | ErrorCode | undefined = reboot.error?.error.code;

  return {
    plans: plans.data.meta.pagination.total,
    server: { id: server.id, status: server.status, price: server.billing.amount },
    operation: operation.data?.data.status,
    refusedCode,
    refusedField: refused.error?.error.errors[0]?.field,
    rebootCode,
    rateLimitLimit: plans.response.headers.get('RateLimit-Limit'),
  };
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noUncheckedIndexedAccess: true,
    allowImportingTsExtensions: true, noEmit: true, skipLibCheck: true, lib: ['ES2023', 'DOM'], types: ['node'],
  },
  files: ['api.ts', 'script.ts'],
};

let t: TestApp;
let dir: string;
let baseUrl: string;
before(async () => {
  t = await startApp();
  // Inside the repository, so the script resolves openapi-fetch from its node_modules.
  await fs.mkdir(path.resolve('.tmp'), { recursive: true });
  dir = await fs.mkdtemp(path.resolve('.tmp/client-'));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  baseUrl = `http://127.0.0.1:${port}/v2`;
});
after(() => fs.rm(dir, { recursive: true, force: true }));

test('openapi-typescript generates types from /v2/openapi.json; a script using them type-checks and runs against the server', async () => {
  const doc = json(await call(t.app, 'GET', '/v2/openapi.json'));
  const types = astToString(await openapiTS(doc));
  assert.match(types, /listPlans: \{/);
  assert.match(types, /"PLAN_NOT_FOUND"/);
  await fs.writeFile(path.join(dir, 'api.ts'), types);
  await fs.writeFile(path.join(dir, 'script.ts'), SCRIPT);
  await fs.writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));

  const tsc = await run(process.execPath, [path.resolve('node_modules/typescript/bin/tsc'), '-p', dir], { maxBuffer: 8 * 1024 * 1024 })
    .then(() => ({ code: 0, out: '' }), (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }));
  assert.deepEqual(tsc, { code: 0, out: '' });

  const c = await createCustomer(t, { deposit: '100.00' });
  // Through tsx: the test file itself may run bundled, without a TypeScript loader (test/run.ts).
  const { main } = await tsImport(path.join(dir, 'script.ts'), import.meta.url) as { main: (b: string, k: string, i: string) => Promise<Record<string, unknown>> };
  const result = await main(baseUrl, c.key, crypto.randomUUID());
  assert.deepEqual(result, {
    plans: 6,
    server: { id: (result.server as { id: string }).id, status: 'pending', price: '5.00' },
    operation: 'queued',
    refusedCode: 'PLAN_NOT_FOUND',
    refusedField: 'plan_id',
    rebootCode: 'STATE_CONFLICT',
    rateLimitLimit: String(t.config.rateLimitMax),
  });
  assert.match((result.server as { id: string }).id, /^srv_/);
});

test('the type check fails when the script uses an operation wrongly', async () => {
  await fs.writeFile(path.join(dir, 'script.ts'), `import createClient from 'openapi-fetch';
import type { paths } from './api.ts';
const client = createClient<paths>({ baseUrl: 'http://127.0.0.1' });
export const r = client.GET('/plans', { params: { query: { per_page: 'many' } } });
export const s = client.GET('/servers/{id}');
`);
  const tsc = await run(process.execPath, [path.resolve('node_modules/typescript/bin/tsc'), '-p', dir]).then(() => '', (e: { stdout: string }) => e.stdout);
  assert.match(tsc, /script\.ts\(4,.*error TS2322.*string.*number/);
  assert.match(tsc, /script\.ts\(5,.*error TS/);
});
