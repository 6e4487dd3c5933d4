// The panel's page and its two assets: the client in panel/src, bundled into memory
// (client-bundle.ts).
import { type ClientBundle, clientBundle } from '../client-bundle.ts';

export type PanelBundle = ClientBundle;

/** The bundle, built once per process (a failed build is tried again on the next request). */
export const panelBundle: () => Promise<PanelBundle> = clientBundle({
  dir: 'panel',
  base: '/panel',
  title: 'Hostcloud panel',
  noscript: 'The Hostcloud panel needs JavaScript. The API (/v2) works without it.',
});
