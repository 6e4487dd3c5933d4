// Whether dist/ holds a build of the current sources: the bundle must be newer than every file
// under src/ and than package.json (dependencies stay external, so a changed version needs no
// rebuild, but a changed entry point would). A walk of src/ by mtime costs a few milliseconds.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** At the same depth as src/cli/main.ts, so that paths resolved from import.meta.url agree. */
export const BUNDLE = path.join(ROOT, 'dist/cli/main.mjs');

/**
 * esbuild's options for the bundle (scripts/build.mjs), shared with the test that keeps it ASCII.
 * Every character of the bundle must be ASCII: V8 keeps a module's source in memory for its whole
 * life, as one byte per character only when all of them fit in Latin-1. esbuild escapes non-ASCII
 * in ordinary strings but cannot in a tagged template (`sql` text), whose raw text is its value:
 * one "→" in a SQL comment made the 1.1 MB bundle a 2.1 MB string in every API process.
 */
export const BUNDLE_OPTIONS = {
  entryPoints: [path.join(ROOT, 'src/cli/main.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  charset: 'ascii',
};

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
