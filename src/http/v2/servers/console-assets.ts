// The web console's scripts and stylesheet (xterm.js from its npm package, and our glue), public
// and cached like the documentation's: the terminal page (open-console-link.ts) loads them.
import { CONSOLE_SCRIPT, xtermAssets } from '../../console/page.ts';
import { SCRIPT_CACHE, type StaticAsset, sendAsset, staticAsset } from '../../static-asset.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';

const JS = 'text/javascript; charset=utf-8';

export function register(app: TypedApp, _deps: RouteDeps) {
  const pub = { auth: 'none' as const };
  const hidden = { hide: true };
  let xterm: { js: StaticAsset; css: StaticAsset } | undefined;
  const load = () => {
    if (!xterm) {
      const a = xtermAssets();
      xterm = { js: staticAsset(a.js, JS, SCRIPT_CACHE), css: staticAsset(a.css, 'text/css; charset=utf-8', SCRIPT_CACHE) };
    }
    return xterm;
  };
  const glue = staticAsset(CONSOLE_SCRIPT, JS, SCRIPT_CACHE);
  app.get('/console-assets/xterm.js', { config: pub, schema: hidden }, async (req, reply) => sendAsset(req, reply, load().js));
  app.get('/console-assets/xterm.css', { config: pub, schema: hidden }, async (req, reply) => sendAsset(req, reply, load().css));
  app.get('/console-assets/console.js', { config: pub, schema: hidden }, async (req, reply) => sendAsset(req, reply, glue));
}
