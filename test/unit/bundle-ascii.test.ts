import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build } from 'esbuild';
// @ts-expect-error -- plain JavaScript shared with scripts/build.mjs, no declarations
import { BUNDLE_OPTIONS } from '../../bin/build-state.js';

// V8 holds a module's source for the process's life, at two bytes per character for the whole
// module once one character is outside Latin-1 (bin/build-state.js). The bundle is the API's
// largest source by far, so a stray "→" in SQL text costs every process a megabyte.
test('the bundle npm start runs is ASCII only', async () => {
  const result = await build({ ...(BUNDLE_OPTIONS as object), write: false, logLevel: 'silent' });
  const text = result.outputFiles[0]!.text;
  assert.ok(text.length > 100_000, 'the bundle was built');
  const offenders = text.split('\n').flatMap((line, i) => (/[\u0080-\uffff]/.test(line) ? [`line ${i + 1}: ${line.trim().slice(0, 80)}`] : []));
  assert.deepEqual(offenders, []);
});
