// Whether dist/ holds a build of the current sources: the bundle must be newer than every file
// under src/ and than package.json (dependencies stay external, so a changed version needs no
// rebuild, but a changed entry point would). A walk of src/ by mtime costs a few milliseconds.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** At the same depth as src/cli/main.ts, so that paths resolved from import.meta.url agree. */
export const BUNDLE = path.join(ROOT, 'dist/cli/main.mjs');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

export function bundleIsFresh() {
  let built;
  try {
    built = fs.statSync(BUNDLE).mtimeMs;
  } catch {
    return false;
  }
  return built > newestMtime(path.join(ROOT, 'src')) && built > fs.statSync(path.join(ROOT, 'package.json')).mtimeMs;
}
