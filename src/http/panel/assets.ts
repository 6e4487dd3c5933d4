// The panel's page and its two assets: the client in panel/src, bundled into memory
// (client-bundle.ts).
import { type ClientBundle, clientBundle, clientPage } from '../client-bundle.ts';
import { esc } from '../docs/html.ts';
import { type StaticAsset, staticAsset } from '../docs/static-asset.ts';

export type PanelBundle = ClientBundle;

/** The bundle, built once per process (a failed build is tried again on the next request). */
export const panelBundle: () => Promise<PanelBundle> = clientBundle({
  dir: 'panel',
  base: '/panel',
  title: 'Hostcloud panel',
  noscript: 'The Hostcloud panel needs JavaScript. The API (/v2) works without it.',
});

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

/** JSON safe inside a <script> element: nothing in it can close the element or open a comment. */
export const scriptJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')
  .replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

let lastPage: { key: string; asset: StaticAsset } | undefined;

/**
 * The page with the branding as it is now: rendered per request (the branding may change at any
 * time; the page is revalidated on every load), the last one kept while the branding is the same.
 */
export function panelPage(b: PanelBundle, brand: PanelBrand): StaticAsset {
  const key = JSON.stringify([b.tags, brand]);
  if (lastPage?.key !== key) {
    const name = esc(brand.name);
    const html = clientPage({
      base: '/panel', title: `${name} panel`, noscript: `The ${name} panel needs JavaScript. The API (/v2) works without it.`,
      head: `<meta name="theme-color" content="${esc(brand.primary_color)}">\n<script type="application/json" id="hc-branding">${scriptJson(brand)}</script>`,
    }, b.tags);
    lastPage = { key, asset: staticAsset(html, 'text/html; charset=utf-8', 'no-cache') };
  }
  return lastPage.asset;
}
