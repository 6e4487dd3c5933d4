// What an installation still lacks before a customer can buy: each part of the setup, whether it
// is there, and the command that provides it. `GET /admin/v1/setup` shows it and `hostcloud serve`
// names what is missing as it starts, so a new operator learns it before a customer does.
import { getInvoiceSettingsRow } from '../../db/queries/invoices.ts';
import { countSetup } from '../../db/queries/setup.ts';
import { PRIMARY_PROVIDER } from '../catalog/customer-lists.ts';
import { sellerProblem } from '../payments/settings.ts';
import type { Db } from '../types.ts';

export const SETUP_ITEMS = ['locations', 'plans', 'os_images', 'nodes', 'ip_pools', 'invoice_settings', 'smtp'] as const;
export type SetupItem = (typeof SETUP_ITEMS)[number];

export interface SetupCheck {
  item: SetupItem;
  ready: boolean;
  /** What is there, or what is missing. */
  detail: string;
  /** The `hostcloud admin` command (or setting) that provides it; null when ready. */
  fix: string | null;
}

export interface SetupReadiness {
  ready: boolean;
  checks: SetupCheck[];
}

export interface SetupSettings {
  computeDriver: 'simulated' | 'lxd';
  smtpConfigured: boolean;
  payments: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export async function setupReadiness(db: Db, settings: SetupSettings): Promise<SetupReadiness> {
  const lxd = settings.computeDriver === 'lxd';
  const c = await countSetup(db, { primaryProvider: PRIMARY_PROVIDER, lxdNodes: lxd });
  const seller = sellerProblem(await getInvoiceSettingsRow(db), settings.payments === 'off' ? 'simulated' : settings.payments);
  const images = lxd ? c.osImages : c.operatingSystems;
  const check = (item: SetupItem, ready: boolean, detail: string, fix: string): SetupCheck => ({ item, ready, detail, fix: ready ? null : fix });
  const checks = [
    check('locations', c.locations > 0, `${plural(c.locations, 'location')} servers can be created in (available, provider "primary")`,
      'hostcloud admin locations create --name Frankfurt --code fra1 --country DE --provider primary'),
    check('plans', c.plans > 0, `${plural(c.plans, 'plan')} on sale`,
      'hostcloud admin plans create --name "Cloud S" --cpu_cores 1 --ram_mb 1024 --storage_gb 25 --bandwidth_gb 1000 --price 5.00'),
    check('os_images', images > 0, lxd
      ? `${plural(c.osImages, 'OS version')} with an LXD image (of ${c.operatingSystems} available)`
      : `${plural(c.operatingSystems, 'OS version')} available`,
    lxd ? 'hostcloud admin operating-systems update ID --image debian/12 (an image alias present on every node)'
      : 'hostcloud admin operating-systems create --family Debian --version 12 --slug debian-12'),
    check('nodes', c.nodes > 0, `${plural(c.nodes, `active ${lxd ? 'LXD' : 'simulated'} node`)} in those locations`, lxd
      ? 'hostcloud admin nodes add --location ID --name HOST --endpoint https://HOST:8443'
      : 'hostcloud admin nodes add --location ID --name HOST --cpu-vendor intel --cpu-cores 32 --ram-mb 131072 --storage-gb 2000'),
    check('ip_pools', c.ipv4Pools > 0, `${plural(c.ipv4Pools, 'IPv4 pool')} in locations with a node`,
      'hostcloud admin ip-pools add LOCATION_ID --version 4 --cidr 203.0.113.0/24 --gateway 203.0.113.1'),
    check('invoice_settings', seller === null, seller ?? 'the company name and address invoices print are set',
      "hostcloud admin invoice-settings set --company-name '...' --address '...'"),
    check('smtp', settings.smtpConfigured, settings.smtpConfigured ? 'SMTP_URL is set' : 'SMTP_URL is not set: notifications (invitations, password resets, invoices) stay queued',
      'set SMTP_URL (smtp://user:pass@host:587) and restart'),
  ];
  return { ready: checks.every((k) => k.ready), checks };
}
