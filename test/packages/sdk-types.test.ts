// The SDK's checked-in types (packages/sdk/src/generated/v2.ts) are what `npm run sdk:types`
// makes from this server's /v2/openapi.json: a route whose schema changed without the types
// being regenerated fails here (and so CI). The panel's panel/src/generated/panel-api.ts likewise,
// from the /panel/api route schemas.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { test } from 'node:test';
import { PANEL_TYPES_FILE, panelTypesFrom } from '../../scripts/panel-types.ts';
import { SDK_TYPES_FILE, sdkTypesFrom } from '../../scripts/sdk-types.ts';
import { routesOf } from '../../src/http/app.ts';
import { call, json, startApp } from '../helpers/app.ts';

test('packages/sdk/src/generated/v2.ts matches /v2/openapi.json (else: npm run sdk:types, and commit it)', async () => {
  const t = await startApp();
  const doc = json(await call(t.app, 'GET', '/v2/openapi.json'));
  const wanted = await sdkTypesFrom(doc);
  const current = await fs.readFile(SDK_TYPES_FILE, 'utf8');
  if (current === wanted) return;
  const a = current.split('\n');
  const b = wanted.split('\n');
  const line = a.findIndex((l, i) => l !== b[i]);
  assert.fail(`the SDK's types are stale: run npm run sdk:types and commit packages/sdk/src/generated/v2.ts\nfirst difference at line ${line + 1}:\n  checked in: ${a[line]}\n  document:   ${b[line]}`);
});

test('panel/src/generated/panel-api.ts matches the /panel/api route schemas (else: npm run sdk:types, and commit it)', async () => {
  const t = await startApp();
  const wanted = await panelTypesFrom(routesOf(t.app));
  const current = await fs.readFile(PANEL_TYPES_FILE, 'utf8');
  if (current === wanted) return;
  const a = current.split('\n');
  const b = wanted.split('\n');
  const line = a.findIndex((l, i) => l !== b[i]);
  assert.fail(`the panel's API types are stale: run npm run sdk:types and commit panel/src/generated/panel-api.ts\nfirst difference at line ${line + 1}:\n  checked in: ${a[line]}\n  routes:     ${b[line]}`);
});
