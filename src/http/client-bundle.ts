// A browser client of ours (the customer panel in panel/src, the operator console in console/src,
// both Preact): bundled by esbuild — a dependency of the server already — the first time this
// process is asked for it (`hostcloud serve` asks at start), into memory: nothing is fetched from
// anywhere at run time, and a changed source is never served stale.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type StaticAsset, staticAsset } from './static-asset.ts';

export interface ClientBundle {
  js: StaticAsset;
  css: StaticAsset;
  html: StaticAsset;
  /** The page's asset URLs carry these (hashes of the content), for a page rendered per request (clientPage). */
  tags: { js: string; css: string };
}

export interface ClientSpec {
  /** Its folder in the checkout (`panel`, `console`): the entry is <dir>/src/main.tsx. */
  dir: string;
  /** Where it is served (`/panel`): its assets are under <base>/assets/. */
  base: string;
  title: string;
  /** What a browser without JavaScript reads instead. */
  noscript: string;
}

/** The checkout's root: the first folder up from here holding <dir>/src/main.tsx (from src/ or dist/ alike). */
function findRoot(dir: string): string {
  let at = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(at, dir, 'src', 'main.tsx'))) return at;
    const up = path.dirname(at);
    if (up === at) throw new Error(`the client sources (${dir}/src/main.tsx) were not found above this module`);
    at = up;
  }
}

/** Assets change only with an upgrade, and their URLs carry a hash of their content. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';

/** The client's page; `head`: markup added to its head (already escaped), e.g. a JSON data block the script reads. */
export function clientPage(spec: Omit<ClientSpec, 'dir'> & { head?: string }, tags: ClientBundle['tags']): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${spec.title}</title>
<link rel="stylesheet" href="${spec.base}/assets/app.css?v=${tags.css}">${spec.head ? `\n${spec.head}` : ''}
<script type="module" src="${spec.base}/assets/app.js?v=${tags.js}"></script>
</head>
<body>
<div id="app"><noscript><p>${spec.noscript}</p></noscript></div>
</body>
</html>
`;
}

async function bundle(spec: ClientSpec): Promise<ClientBundle> {
  const root = findRoot(spec.dir);
  const out = await build({
    absWorkingDir: root,
    entryPoints: [path.join(root, spec.dir, 'src/main.tsx')],
    bundle: true,
    write: false,
    outdir: path.join(root, 'dist', spec.dir),
    entryNames: 'app',
    format: 'esm',
    target: ['es2020'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const file = (ext: string) => {
    const f = out.outputFiles.find((o) => o.path.endsWith(ext));
    if (!f) throw new Error(`the ${spec.dir} build made no ${ext} file`);
    return Buffer.from(f.contents);
  };
  const js = staticAsset(file('.js'), 'text/javascript; charset=utf-8', ASSET_CACHE);
  const css = staticAsset(file('.css'), 'text/css; charset=utf-8', ASSET_CACHE);
  const tag = (a: StaticAsset) => a.etag.slice(3, 15);
  const tags = { js: tag(js), css: tag(css) };
  const html = staticAsset(clientPage(spec, tags), 'text/html; charset=utf-8', 'no-cache');
  return { js, css, html, tags };
}

/** The bundle of one client, built once per process (a failed build is tried again on the next request). */
export function clientBundle(spec: ClientSpec): () => Promise<ClientBundle> {
  let built: Promise<ClientBundle> | undefined;
  return () => {
    built ??= bundle(spec).catch((e: unknown) => {
      built = undefined;
      throw e;
    });
    return built;
  };
}

/** What a browser is told about every page of a client: no framing, no referrer (links carry tokens), only our own scripts. */
export const CLIENT_PAGE_HEADERS = {
  'Content-Security-Policy': "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
    + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
};
