// The servers routes, in the order of the OpenAPI document (registered by ../index.ts).
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import * as addServerIp from './add-server-ip.ts';
import * as consoleAssets from './console-assets.ts';
import * as createServer from './create-server.ts';
import * as createServerSnapshot from './create-server-snapshot.ts';
import * as deleteServer from './delete-server.ts';
import * as deleteServerIp from './delete-server-ip.ts';
import * as deleteServerSnapshot from './delete-server-snapshot.ts';
import * as getServer from './get-server.ts';
import * as getServerConsole from './get-server-console.ts';
import * as getServerIpReverseDns from './get-server-ip-reverse-dns.ts';
import * as getServerMetrics from './get-server-metrics.ts';
import * as getServerTraffic from './get-server-traffic.ts';
import * as listServerFirewallRules from './list-server-firewall-rules.ts';
import * as listServerIps from './list-server-ips.ts';
import * as listServerSnapshots from './list-server-snapshots.ts';
import * as listServers from './list-servers.ts';
import * as openConsoleLink from './open-console-link.ts';
import * as restoreServerSnapshot from './restore-server-snapshot.ts';
import * as runServerAction from './run-server-action.ts';
import * as updateServer from './update-server.ts';
import * as updateServerIpReverseDns from './update-server-ip-reverse-dns.ts';
import * as upgradeServer from './upgrade-server.ts';

export const routes: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  listServers, getServer, createServer, updateServer, deleteServer, runServerAction, upgradeServer, listServerSnapshots, createServerSnapshot, listServerIps, addServerIp, getServerConsole, openConsoleLink, consoleAssets, listServerFirewallRules, getServerMetrics, getServerTraffic, getServerIpReverseDns, updateServerIpReverseDns, deleteServerIp, deleteServerSnapshot, restoreServerSnapshot,
];
