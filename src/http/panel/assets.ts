// The panel's page and its two assets. The client (panel/src, Preact) is bundled by esbuild — a
// dependency of the server already — the first time this process is asked for it (`hostcloud
// serve` asks at start), into memory: nothing is fetched from anywhere at run time, and a changed
// source is never served stale.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type StaticAsset, staticAsset } from '../static-asset.ts';

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
  html: StaticAsset;
}

/** Assets change only with an upgrade, and their URLs carry a hash of their content. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';

function page(jsTag: string, cssTag: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Hostcloud panel</title>
<link rel="stylesheet" href="/panel/assets/app.css?v=${cssTag}">
<script type="module" src="/panel/assets/app.js?v=${jsTag}"></script>
</head>
<body>
<div id="app"><noscript><p>The Hostcloud panel needs JavaScript. The API (/v2) works without it.</p></noscript></div>
</body>
</html>
`;
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
  const html = staticAsset(page(tag(js), tag(css)), 'text/html; charset=utf-8', 'no-cache');
  return { js, css, html };
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
