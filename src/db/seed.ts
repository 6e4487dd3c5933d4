// The demo data a new database starts with, so a fresh install can be explored at once: the
// catalog, address pools for the simulated compute provider, and a demo seller for the invoices of
// simulated top-ups. Each part runs once per database under a marker row of its own, claimed in the
// same transaction as its inserts, so two processes starting together cannot seed twice, and a
// part added later (the pools) still runs on a database seeded before it existed.
import { randomBytes } from 'node:crypto';
import type { Db } from './connection.ts';

export const DEMO_CATALOG_MARKER = 'demo_catalog_v1';
export const DEMO_IP_POOLS_MARKER = 'demo_ip_pools_v1';
export const DEMO_REGISTRY_MARKER = 'demo_registry_v1';
export const DEMO_HOSTING_SERVERS_MARKER = 'demo_hosting_servers_v1';
export const DEMO_NODES_MARKER = 'demo_nodes_v1';
export const DEMO_SELLER_MARKER = 'demo_seller_v1';

/**
 * The seller a new installation's invoices name until the operator sets theirs: plainly a demo,
 * so the first run's simulated top-ups have an invoice to show. A real provider (Stripe) refuses to
 * take money while the seller is still this one (src/core/payments/settings.ts).
 */
export const DEMO_SELLER = {
  name: 'Demo Seller (simulated payments only)',
  address: 'Not a real company: set yours with\nhostcloud admin invoice-settings set --company-name ... --address ...',
} as const;

/** Seeds every part not seeded yet; true when anything was. */
export async function seedDemoCatalog(db: Db): Promise<boolean> {
  // One transaction for all parts: a second process waits on the first marker, then finds every part done.
  return db.transaction().execute(async (trx) => {
    const catalog = await claim(trx, DEMO_CATALOG_MARKER);
    if (catalog) await seedCatalog(trx);
    const pools = await claim(trx, DEMO_IP_POOLS_MARKER);
    if (pools) await seedIpPools(trx);
    const registry = await claim(trx, DEMO_REGISTRY_MARKER);
    if (registry) await seedRegistry(trx);
    const panel = await claim(trx, DEMO_HOSTING_SERVERS_MARKER);
    if (panel) await seedHostingServers(trx);
    const nodes = await claim(trx, DEMO_NODES_MARKER);
    if (nodes) await seedNodes(trx);
    const seller = await claim(trx, DEMO_SELLER_MARKER);
    if (seller) await seedSeller(trx);
    return catalog || pools || registry || panel || nodes || seller;
  });
}

/** The demo seller, where the operator has set neither a company name nor an address (an operator's details are never touched). */
async function seedSeller(trx: Db): Promise<void> {
  await trx.updateTable('invoice_settings').set({ company_name: DEMO_SELLER.name, address: DEMO_SELLER.address })
    .where('company_name', '=', '').where('address', '=', '').execute();
}

async function claim(trx: Db, marker: string): Promise<boolean> {
  const claimed = await trx.insertInto('system_markers').values({ name: marker }).onConflict((oc) => oc.doNothing()).returning('name').executeTakeFirst();
  return claimed !== undefined;
}

/**
 * One IPv4 /24 (10.N.0.0/24) and one IPv6 /64 (2001:db8:N::/64, documentation space) for each
 * location routed to the primary platform, gateway at the first host. Private and documentation
 * ranges, so a demo can never hand out someone's real address.
 */
async function seedIpPools(trx: Db): Promise<void> {
  const locations = await trx.selectFrom('locations').select('id').where('provider', '=', 'primary').orderBy('id').limit(254).execute();
  const rows = locations.flatMap(({ id }, i) => [
    { location_id: id, version: 4 as const, cidr: `10.${i + 1}.0.0/24`, gateway: `10.${i + 1}.0.1` },
    { location_id: id, version: 6 as const, cidr: `2001:db8:${(i + 1).toString(16)}::/64`, gateway: `2001:db8:${(i + 1).toString(16)}::1` },
  ]);
  // An operator's own pool in one of these ranges wins: the demo pool is left out, not an error.
  if (rows.length) await trx.insertInto('ip_pools').values(rows).onConflict((oc) => oc.doNothing()).execute();
}

/**
 * The demo TLDs whose registries need a registrant contact (.de, .eu), and names the simulated
 * registrar holds at other registrars: the reserved example names (never available) and one that
 * can be transferred in with its auth code. A TLD the operator removed or renamed is left alone.
 */
async function seedRegistry(trx: Db): Promise<void> {
  await trx.updateTable('tld_prices').set({ requires_contact: true }).where('tld', 'in', ['.de', '.eu']).execute();
  const expiresAt = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 0, 15));
  const held = (name: string, sponsor: string, authCode: string) => ({ name, sponsor, roid: `SIM-${name.replace(/\W/g, '-').toUpperCase()}`, auth_code: authCode, expires_at: expiresAt });
  await trx.insertInto('sim_registry_domains').values([
    // Reserved names: random auth codes nobody is given (only the operator's registry list shows them).
    ...['example.com', 'example.net', 'example.org'].map((name) => held(name, 'IANA', randomBytes(18).toString('base64url'))),
    held('transfer-demo.com', 'Other Registrar Inc.', 'Demo-Auth-2026'),
  ]).onConflict((oc) => oc.doNothing()).execute();
}

/**
 * The simulated hosting panel's servers: two per location (web1 and web2.<code>.panel.hostcloud.example,
 * 250 accounts each), so orders are spread over a pool and a full server is never the end of it.
 */
async function seedHostingServers(trx: Db): Promise<void> {
  const locations = await trx.selectFrom('locations').select(['id', 'code']).orderBy('id').limit(100).execute();
  const rows = locations.flatMap(({ id, code }) => [1, 2].map((n) => ({ hostname: `web${n}.${code}.panel.hostcloud.example`, location_id: id, capacity: 250 })));
  if (rows.length) await trx.insertInto('sim_hosting_servers').values(rows).onConflict((oc) => oc.doNothing()).execute();
}

/**
 * Hypervisor nodes for each primary location: two of one CPU vendor and one of the other
 * (alternating by location), each 96 vCPUs, 384 GB RAM and 7.5 TB disk, so a live migration
 * has a partner and a cold one a choice. Named <code>-kvm<n> as the platform knows its hosts.
 */
async function seedNodes(trx: Db): Promise<void> {
  const locations = await trx.selectFrom('locations').select(['id', 'code']).where('provider', '=', 'primary').orderBy('id').limit(100).execute();
  const rows = locations.flatMap(({ id, code }, i) => {
    const [main, other] = i % 2 === 0 ? ['intel', 'amd'] as const : ['amd', 'intel'] as const;
    return [main, main, other].map((cpu_vendor, n) => ({
      location_id: id, name: `${code}-kvm${n + 1}`, cpu_vendor, cpu_cores: 96, ram_mb: 393_216, storage_gb: 7_680,
    }));
  });
  if (rows.length) await trx.insertInto('nodes').values(rows).onConflict((oc) => oc.column('name').doNothing()).execute();
}

async function seedCatalog(trx: Db): Promise<void> {
  await trx.insertInto('locations').values([
    { name: 'Frankfurt', code: 'fra1', country: 'DE', provider: 'primary' },
    { name: 'Amsterdam', code: 'ams1', country: 'NL', provider: 'primary' },
    { name: 'New York', code: 'nyc1', country: 'US', provider: 'primary' },
    // Served by a partner platform: in the catalog, but not in /v2/locations, and servers cannot be
    // created there (LOCATION_INVALID).
    { name: 'Singapore', code: 'sin1', country: 'SG', provider: 'partner' },
  ]).execute();

  await trx.insertInto('plans').values([
    { name: 'Cloud S', cpu_cores: 1, ram_mb: 1024, storage_gb: 25, bandwidth_gb: 1000, price_cents: 500 },
    { name: 'Cloud M', cpu_cores: 2, ram_mb: 4096, storage_gb: 80, bandwidth_gb: 2000, price_cents: 1500 },
    { name: 'Cloud L', cpu_cores: 4, ram_mb: 8192, storage_gb: 160, bandwidth_gb: 4000, price_cents: 3000 },
    { name: 'Cloud XL', cpu_cores: 8, ram_mb: 16384, storage_gb: 320, bandwidth_gb: 8000, price_cents: 6000 },
    { name: 'Cloud XXL', cpu_cores: 16, ram_mb: 32768, storage_gb: 640, bandwidth_gb: 16000, price_cents: 12000 },
    { name: 'Cloud Legacy', cpu_cores: 1, ram_mb: 512, storage_gb: 10, bandwidth_gb: 500, price_cents: 300, available: false },
  ]).execute();

  await trx.insertInto('operating_systems').values([
    { family: 'Ubuntu', version: '24.04', slug: 'ubuntu-24.04' },
    { family: 'Ubuntu', version: '22.04', slug: 'ubuntu-22.04' },
    { family: 'Debian', version: '12', slug: 'debian-12' },
    { family: 'Rocky Linux', version: '9', slug: 'rocky-9' },
    { family: 'AlmaLinux', version: '9', slug: 'almalinux-9' },
  ]).execute();

  const tld = (t: string, reg: number, ren: number, tr: number, whois = true, max = 10) => ({
    tld: t, register_cents: reg, renewal_cents: ren, transfer_cents: tr, supports_whois_privacy: whois, years_min: 1, years_max: max,
  });
  await trx.insertInto('tld_prices').values([
    tld('.com', 1199, 1399, 1199),
    tld('.net', 1299, 1499, 1299),
    tld('.org', 1099, 1299, 1099),
    tld('.io', 3999, 4599, 3999),
    tld('.de', 699, 699, 0, false),
    tld('.eu', 799, 899, 799, false),
    tld('.co', 2499, 2799, 2499),
    tld('.dev', 1499, 1499, 1499),
    tld('.app', 1699, 1699, 1699),
    tld('.info', 399, 1899, 1899),
    tld('.xyz', 199, 1299, 1299),
    tld('.uk', 699, 899, 0, false, 5),
  ]).execute();

  await trx.insertInto('hosting_packages').values([
    { name: 'Web Starter', disk_quota_mb: 10240, max_domains: 1, monthly_price_cents: 399, yearly_price_cents: 3990 },
    { name: 'Web Business', disk_quota_mb: 51200, max_domains: 10, monthly_price_cents: 999, yearly_price_cents: 9990 },
    { name: 'Web Agency', disk_quota_mb: 204800, max_domains: 100, monthly_price_cents: 2499, yearly_price_cents: 24990 },
    { name: 'Web Classic', disk_quota_mb: 5120, max_domains: 1, monthly_price_cents: 299, yearly_price_cents: 2990, active: false },
  ]).execute();

  await trx.insertInto('departments').values([
    { name: 'Technical Support', email: 'support@hostcloud.example' },
    { name: 'Billing', email: 'billing@hostcloud.example' },
    { name: 'Sales', email: 'sales@hostcloud.example' },
    { name: 'Abuse', email: 'abuse@hostcloud.example', active: false },
  ]).execute();

  await trx.insertInto('reseller_tiers').values([
    { min_servers: 0, max_servers: 9, discount_percentage: '0' },
    { min_servers: 10, max_servers: 49, discount_percentage: '5' },
    { min_servers: 50, max_servers: 99, discount_percentage: '10' },
    { min_servers: 100, max_servers: null, discount_percentage: '15' },
  ]).execute();

  await trx.insertInto('unit_prices').values([
    { unit: 'cpu_core', price_cents: 400 },
    { unit: 'ram_gb', price_cents: 200 },
    { unit: 'disk_gb', price_cents: 5 },
    { unit: 'ipv4', price_cents: 300 },
    { unit: 'ipv6', price_cents: 50 },
    { unit: 'snapshot', price_cents: 150 },
  ]).execute();

  await trx.insertInto('email_packages').values([
    { name: 'Mail Basic', disk_quota_mb: 5120, max_accounts: 5, monthly_price_cents: 199 },
    { name: 'Mail Team', disk_quota_mb: 51200, max_accounts: 50, monthly_price_cents: 999 },
  ]).execute();
  await trx.insertInto('colocation_packages').values([
    { name: '1U Colocation', type: '1U', monthly_price_cents: 4900 },
    { name: 'Quarter Rack', type: 'quarter_rack', monthly_price_cents: 24900 },
  ]).execute();
  await trx.insertInto('dedicated_packages').values([
    { name: 'Dedicated E3', cpu_cores: 4, ram_gb: 32, storage_gb: 1000, monthly_price_cents: 7900 },
    { name: 'Dedicated EPYC', cpu_cores: 32, ram_gb: 256, storage_gb: 4000, monthly_price_cents: 34900 },
  ]).execute();
  await trx.insertInto('ip_subnet_packages').values([
    { name: 'IPv4 /29', subnet_size: 29, monthly_price_cents: 1500 },
    { name: 'IPv4 /28', subnet_size: 28, monthly_price_cents: 2900 },
    { name: 'IPv6 /64', subnet_size: 64, monthly_price_cents: 0 },
  ]).execute();
}
