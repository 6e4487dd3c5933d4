// The panel's page and its two assets: the client in panel/src, bundled into memory
// (client-bundle.ts).
import { type ClientBundle, clientBundle } from '../client-bundle.ts';

export type PanelBundle = ClientBundle;

/** The tab's icon: a white cloud on the brand's blue. */
const FAVICON_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1f5fbf"/>'
  + '<path d="M10 22a5 5 0 0 1-.6-9.96A7 7 0 0 1 22.8 11.1 5.5 5.5 0 0 1 22.5 22z" fill="#fff"/></svg>';

/** The bundle, built once per process (a failed build is tried again on the next request). */
export const panelBundle: () => Promise<PanelBundle> = clientBundle({
  dir: 'panel',
  base: '/panel',
  title: 'Hostcloud panel',
  icon: FAVICON_SVG,
  noscript: 'The Hostcloud panel needs JavaScript. The API (/v2) works without it.',
});
