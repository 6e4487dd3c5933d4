// The panel's page and its two assets. The client (panel/src, Preact) is bundled by esbuild — a
// dependency of the server already — the first time this process is asked for it (`hostcloud
// serve` asks at start), into memory: nothing is fetched from anywhere at run time, and a changed
// source is never served stale.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { esc } from '../docs/html.ts';
import { type StaticAsset, staticAsset } from '../docs/static-asset.ts';

/** The checkout's root: the first folder up from here holding panel/src/main.tsx (from src/ or dist/ alike). */
function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'panel', 'src', 'main.tsx'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error('the panel sources (panel/src/main.tsx) were not found above this module');
    dir = up;
  }
}

export interface PanelBundle {
  js: StaticAsset;
  css: StaticAsset;
  /** The page's asset URLs carry these (hashes of the content). */
  tags: { js: string; css: string };
}

/** What the page tells its script about the branding (a data block it reads at start; no request). */
export interface PanelBrand {
  name: string;
  primary_color: string;
  logo_url: string | null;
  support_email: string | null;
  support_url: string | null;
  terms_url: string | null;
  privacy_url: string | null;
}

/** Assets change only with an upgrade, and their URLs carry a hash of their content. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';

/** JSON safe inside a <script> element: nothing in it can close the element or open a comment. */
const scriptJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

function page(tags: PanelBundle['tags'], brand: PanelBrand): string {
  const name = esc(brand.name);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="theme-color" content="${esc(brand.primary_color)}">
<title>${name} panel</title>
<link rel="stylesheet" href="/panel/assets/app.css?v=${tags.css}">
<script type="application/json" id="hc-branding">${scriptJson(brand)}</script>
<script type="module" src="/panel/assets/app.js?v=${tags.js}"></script>
</head>
<body>
<div id="app"><noscript><p>The ${name} panel needs JavaScript. The API (/v2) works without it.</p></noscript></div>
</body>
</html>
`;
}

let lastPage: { key: string; asset: StaticAsset } | undefined;

/**
 * The page with the branding as it is now: rendered per request (the branding may change at any
 * time; the page is revalidated on every load), the last one kept while the branding is the same.
 */
export function panelPage(b: PanelBundle, brand: PanelBrand): StaticAsset {
  const key = JSON.stringify([b.tags, brand]);
  if (lastPage?.key !== key) lastPage = { key, asset: staticAsset(page(b.tags, brand), 'text/html; charset=utf-8', 'no-cache') };
  return lastPage.asset;
}

async function bundle(): Promise<PanelBundle> {
  const root = findRoot();
  const out = await build({
    absWorkingDir: root,
    entryPoints: [path.join(root, 'panel/src/main.tsx')],
    bundle: true,
    write: false,
    outdir: path.join(root, 'dist/panel'),
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
    if (!f) throw new Error(`the panel build made no ${ext} file`);
    return Buffer.from(f.contents);
  };
  const js = staticAsset(file('.js'), 'text/javascript; charset=utf-8', ASSET_CACHE);
  const css = staticAsset(file('.css'), 'text/css; charset=utf-8', ASSET_CACHE);
  const tag = (a: StaticAsset) => a.etag.slice(3, 15);
  return { js, css, tags: { js: tag(js), css: tag(css) } };
}

let built: Promise<PanelBundle> | undefined;

/** The bundle, built once per process (a failed build is tried again on the next request). */
export function panelBundle(): Promise<PanelBundle> {
  built ??= bundle().catch((e: unknown) => {
    built = undefined;
    throw e;
  });
  return built;
}
