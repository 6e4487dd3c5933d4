import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { SEMI_SPACE_MB } from '../../src/cli/heap.ts';

// V8 sizes the young generation only at start-up (src/cli/heap.ts), so it lives on node's command
// line in package.json, apart from the constant the bench uses: this keeps the two the same and
// checks that the flag, as written there, is one node takes and that it bounds the young generation.
test('npm start gives the API the young generation src/cli/heap.ts describes', () => {
  const start: string = JSON.parse(fs.readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')).scripts.start;
  const words = start.split(/\s+/);
  assert.equal(words[0], 'node');
  const flags = words.slice(1, words.indexOf('bin/hostcloud.js'));
  assert.deepEqual(flags, [`--max-semi-space-size=${SEMI_SPACE_MB}`]);
  // Enough short-lived garbage to grow the young generation to its limit.
  const churn = `let a = []; for (let i = 0; i < 4e6; i++) { a.push({ i }); if (a.length > 2e5) a = []; }
    process.stdout.write(String(require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size));`;
  const bounded = Number(execFileSync(process.execPath, [...flags, '-e', churn], { encoding: 'utf8' }));
  const byDefault = Number(execFileSync(process.execPath, ['-e', churn], { encoding: 'utf8' }));
  assert.ok(bounded <= 2 * SEMI_SPACE_MB * 1024 * 1024, `young generation ${bounded} bytes with ${flags.join(' ')}`);
  assert.ok(byDefault > bounded, `V8's default (${byDefault} bytes) is larger, so the flag is what bounds it`);
});
