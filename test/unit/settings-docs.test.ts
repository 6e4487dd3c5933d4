// The operator's settings reference cannot drift from the code: docs/operations.md's table and
// deploy/hostcloud.env are what scripts/settings-docs.ts writes from SETTINGS; SETTINGS names
// exactly the variables loadConfig reads; each literal default is the one loadConfig uses.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig, SETTINGS } from '../../src/config.ts';
import { ENV_TEMPLATE, expectedFiles, ROOT } from '../../scripts/settings-docs.ts';

test('docs/operations.md and deploy/hostcloud.env are as written from SETTINGS (else: npm run settings:docs)', () => {
  for (const [file, text] of expectedFiles()) {
    assert.equal(fs.readFileSync(file, 'utf8'), text, `${path.relative(ROOT, file)} is stale: run npm run settings:docs`);
  }
});

test('SETTINGS names every variable src/config.ts reads, once, and nothing else', () => {
  const source = fs.readFileSync(path.join(ROOT, 'src/config.ts'), 'utf8');
  const read = new Set([...source.matchAll(/\(env, '([A-Z][A-Z0-9_]*)'/g)].map((m) => m[1]!));
  const listed = SETTINGS.map((s) => s.name);
  assert.equal(new Set(listed).size, listed.length, 'a setting is listed twice');
  assert.deepEqual([...read].filter((n) => !listed.includes(n)), [], 'read by loadConfig but missing from SETTINGS');
  assert.deepEqual(listed.filter((n) => !read.has(n)), [], 'in SETTINGS but never read by loadConfig');
});

test('each literal default is what loadConfig uses when the variable is unset', () => {
  const defaults = loadConfig({});
  const given = Object.fromEntries(SETTINGS.filter((s) => s.value !== undefined).map((s) => [s.name, s.value!]));
  assert.ok(Object.keys(given).length > 40);
  assert.deepEqual(loadConfig(given), defaults);
  for (const s of SETTINGS) assert.ok(!s.meaning.includes('\n') && !s.default.includes('\n'), `${s.name}: one line`);
});

test('the environment file loads: its set lines make a valid production configuration', () => {
  const env: Record<string, string> = {};
  for (const line of fs.readFileSync(ENV_TEMPLATE, 'utf8').split('\n')) {
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (m) env[m[1]!] = m[2]!.replace(/^"(.*)"$/, '$1');
  }
  assert.ok(env.DATABASE_URL?.startsWith('postgres://'));
  const c = loadConfig(env);
  assert.equal(c.worker, 'off');
  assert.equal(c.payments, 'off');
  assert.deepEqual(c.trustProxy, ['127.0.0.1']);
});
