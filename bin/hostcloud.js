#!/usr/bin/env node
// Runs the bundle in dist/ (scripts/build.mjs; `npm start` builds it first) when it is newer than
// every source file, else the TypeScript sources directly through tsx — so an edit to src/ never
// runs stale code, and `npm start` needs no build step of its own. HOSTCLOUD_FROM_SOURCE=1 always
// runs the sources.
import { pathToFileURL } from 'node:url';
import { BUNDLE, bundleIsFresh } from './build-state.js';

if (process.env.HOSTCLOUD_FROM_SOURCE !== '1' && bundleIsFresh()) {
  await import(pathToFileURL(BUNDLE).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
