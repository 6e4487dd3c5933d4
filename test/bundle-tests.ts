// Test files bundled before a run (test/run.ts): each file with the checkout's modules it imports
// (src/, test/helpers, bin/, the SDK and CLI from their sources) into one module of its own,
// packages in node_modules left external. Not split into shared chunks: esbuild's code splitting
// may run modules in another order than the sources would, and modules that register something
// as they load (the OpenAPI components) then register it in another order. A process then loads a few large modules instead of
// about 500 through tsx's loader hooks: that cost about 2 s of CPU per file, most of a small
// file's, and 194 files share two cores.
//
// What must hold for the bundle to run what the sources would:
// - import.meta.url is each source file's own URL (replaced when loading it), so paths and
//   createRequire calls made from it resolve as they would from the source;
// - function and class names are kept (keepNames), as the sources would show them;
// - the bundles live inside the checkout, so bare imports find its node_modules;
// - stack traces map to the sources through linked source maps (--enable-source-maps).
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

/** Where a run's bundles go: inside the checkout (bare imports resolve from its node_modules). */
export function bundleDir(root: string, runId: string): string {
  return path.join(root, 'node_modules/.cache/hostcloud-tests', runId);
}

/** Removes what runs that were killed left behind (a day old: no run lasts that long). */
export async function pruneBundles(root: string): Promise<void> {
  const parent = path.join(root, 'node_modules/.cache/hostcloud-tests');
  const entries = await fs.readdir(parent).catch(() => []);
  for (const name of entries) {
    const dir = path.join(parent, name);
    const stat = await fs.stat(dir).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > 86_400_000) await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The source a bundled test file was built from (its path under `outdir`, .mjs back to .ts). */
export function sourceOf(root: string, outdir: string, file: string): string {
  const rel = path.relative(outdir, file);
  return rel.startsWith('..') ? file : path.join(root, rel.replace(/\.mjs$/, '.ts'));
}

const checkoutModules = (root: string): Plugin => ({
  name: 'checkout-modules',
  setup(b) {
    // Packages stay external except the workspace's own (@hostcloud/sdk, @hostcloud/cli), which
    // resolve to their TypeScript sources through the hostcloud-source condition.
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@hostcloud/') ? undefined : { path: args.path, external: true }));
    // A page's own module, imported by code that runs in the browser (page.evaluate): not ours.
    b.onResolve({ filter: /^\// }, (args) => (args.kind === 'dynamic-import' && !existsSync(args.path) ? { path: args.path, external: true } : undefined));
    b.onLoad({ filter: /\.(ts|js|mjs)$/ }, async (args) => {
      if (!args.path.startsWith(root) || args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = await fs.readFile(args.path, 'utf8');
      return {
        contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
        loader: args.path.endsWith('.ts') ? 'ts' : 'js',
      };
    });
  },
});

/** Bundles `files` (absolute paths of test files under `root`) into `outdir`; returns the bundles, in order. */
export async function bundleTests(root: string, files: string[], outdir: string): Promise<string[]> {
  await build({
    entryPoints: files,
    outdir,
    outbase: root,
    entryNames: '[dir]/[name]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: false,
    format: 'esm',
    platform: 'node',
    // As tsx transforms the sources for the files' child processes: for this node.
    target: `node${process.versions.node}`,
    conditions: ['hostcloud-source'],
    keepNames: true,
    // Maps name the source files, which are there to read: their text need not be copied in.
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
    plugins: [checkoutModules(root)],
  });
  return files.map((f) => path.join(outdir, path.relative(root, f)).replace(/\.ts$/, '.mjs'));
}
