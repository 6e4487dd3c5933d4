// The v2 API: every route file registers itself here. Docs routes come first so the OpenAPI
// generator (scoped to /v2) sees every route registered after it.
import type { FastifyInstance } from 'fastify';
import { registerDocs } from '../docs/index.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import * as getAccount from './account/get-account.ts';
import * as getIpAllowlist from './account/get-ip-allowlist.ts';
import * as listApiKeys from './account/list-api-keys.ts';
import * as getBalance from './billing/get-balance.ts';
import * as listTransactions from './billing/list-transactions.ts';
import * as getPlan from './catalog/get-plan.ts';
import * as listDepartments from './catalog/list-departments.ts';
import * as listLocations from './catalog/list-locations.ts';
import * as listOperatingSystems from './catalog/list-operating-systems.ts';
import * as listPackages from './catalog/list-packages.ts';
import * as listPlans from './catalog/list-plans.ts';
import * as listWebHostingPackages from './catalog/list-web-hosting-packages.ts';
import * as notImplemented from './not-implemented.ts';
import * as getOperation from './operations/get-operation.ts';
import * as createServer from './servers/create-server.ts';
import * as getServer from './servers/get-server.ts';
import * as listServers from './servers/list-servers.ts';
import * as createSnapshot from './servers/create-snapshot.ts';
import * as listSnapshots from './servers/list-snapshots.ts';
import * as listIps from './servers/list-ips.ts';
import * as addIp from './servers/add-ip.ts';
import * as getConsole from './servers/get-console.ts';
import * as openConsole from './servers/open-console.ts';
import * as getMetrics from './servers/get-metrics.ts';
import * as getTraffic from './servers/get-traffic.ts';
import * as listFirewallRules from './servers/list-firewall-rules.ts';
import * as deleteServer from './servers/delete-server.ts';
import * as renameServer from './servers/rename-server.ts';
import * as serverAction from './servers/server-action.ts';
import * as upgradeServer from './servers/upgrade-server.ts';
// Server routes (one file each) — keep one line per family below.

const ROUTES: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  getAccount, listApiKeys, getIpAllowlist,
  getBalance, listTransactions,
  listPlans, getPlan, listPackages, listOperatingSystems, listLocations, listWebHostingPackages, listDepartments,
  notImplemented,
  listServers, getServer, createServer,
  renameServer, deleteServer, upgradeServer, serverAction,
  listSnapshots, createSnapshot, listIps, addIp, getConsole, openConsole, listFirewallRules, getMetrics, getTraffic,
  getOperation,
];

export async function registerV2(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  await registerDocs(app as TypedApp, deps);
  for (const r of ROUTES) r.register(app as TypedApp, deps);
}
