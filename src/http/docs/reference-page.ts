// The reference at /v2/docs: Redoc (a maintained OpenAPI renderer; its standalone bundle is
// served from the npm package by our own route) renders /v2/openapi.json with a sidebar and
// request and response samples. Everything loads from this service: URLs are relative, so the
// page also works behind a proxy that adds a path prefix, and the Content-Security-Policy keeps
// the browser from fetching anything elsewhere (Redoc's footer logo would come from its CDN).
import { esc } from './html.ts';

const TITLE = 'Hosting Cloud API v2 — reference';

export const REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // Redoc's styled-components inject <style> elements.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  // The search index runs in a worker Redoc creates from a blob.
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const REFERENCE_INIT_JS = `// Relative to the page (/v2/docs), not to this script.
Redoc.init('openapi.json', {
  expandResponses: '200,201,202',
  jsonSampleExpandLevel: 3,
  requiredPropsFirst: true,
  pathInMiddlePanel: true,
  hideDownloadButton: false,
  theme: { typography: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif', headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' }, code: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' } } }
}, document.getElementById('reference'));
`;

/** `brand`: the saved branding's name, which the title then carries instead of the API's. */
export function renderReferencePage(brand: string | null = null): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(brand ? `${brand} API v2 — reference` : TITLE)}</title>
<style>body{margin:0}</style>
</head><body>
<div id="reference"></div>
<noscript><p>The reference needs JavaScript. Without it, read <a href="openapi.json">the OpenAPI document</a> and <a href="docs/errors">the error catalog</a>.</p></noscript>
<script src="docs/redoc.standalone.js"></script>
<script src="docs/reference.js"></script>
</body></html>`;
}
