// The operator console's page and its two assets: the client in console/src, bundled into memory
// (client-bundle.ts) like the customer panel's.
import { type ClientBundle, clientBundle } from '../client-bundle.ts';

export const consoleBundle: () => Promise<ClientBundle> = clientBundle({
  dir: 'console',
  base: '/admin',
  title: 'Hostcloud console',
  noscript: 'The Hostcloud console needs JavaScript. The admin API (/admin/v1) and `hostcloud admin` work without it.',
});
