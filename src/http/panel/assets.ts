// The panel's page and its two assets: the client in panel/src, bundled into memory
// (client-bundle.ts).
import { type ClientBundle, clientBundle, clientPage } from '../client-bundle.ts';
import { esc } from '../docs/html.ts';
import { type StaticAsset, staticAsset } from '../static-asset.ts';

export type PanelBundle = ClientBundle;

/**
 * The tab's icon: a white cloud on the brand's colour, inlined as a data: URL (no request, nothing
 * fetched from elsewhere). A colour that is not plain hex keeps the default blue.
 */
export function faviconLink(color: string): string {
  const fill = /^#[0-9a-fA-F]{3,8}$/.test(color) ? color : '#1f5fbf';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="${fill}"/>`
    + '<path d="M10 22a5 5 0 0 1-.6-9.96A7 7 0 0 1 22.8 11.1 5.5 5.5 0 0 1 22.5 22z" fill="#fff"/></svg>';
  return `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,${encodeURIComponent(svg)}">`;
}

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
      head: `${faviconLink(brand.primary_color)}\n<meta name="theme-color" content="${esc(brand.primary_color)}">\n<script type="application/json" id="hc-branding">${scriptJson(brand)}</script>`,
    }, b.tags);
    lastPage = { key, asset: staticAsset(html, 'text/html; charset=utf-8', 'no-cache') };
  }
  return lastPage.asset;
}
