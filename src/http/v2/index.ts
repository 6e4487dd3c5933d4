// The v2 API: every route file registers itself here (one file per operation, named after its
// operationId). The route conventions come first, then the docs, so that the OpenAPI generator
// (scoped to /v2) sees every route registered after it, conventions applied.
import type { FastifyInstance } from 'fastify';
import { registerDocs } from '../docs/index.ts';
import { type UndocumentedError, applyRouteConventions, checkDocumentedErrors } from '../route-conventions.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import * as getAccount from './account/get-account.ts';
import * as listIpAllowlist from './account/list-ip-allowlist.ts';
import * as listApiKeys from './account/list-api-keys.ts';
import * as getBalance from './billing/get-balance.ts';
import * as listTransactions from './billing/list-transactions.ts';
import * as listUpcomingCharges from './billing/list-upcoming-charges.ts';
import * as getPlan from './catalog/get-plan.ts';
import * as listDepartments from './catalog/list-departments.ts';
import * as listLocations from './catalog/list-locations.ts';
import * as listOperatingSystems from './catalog/list-operating-systems.ts';
import * as listPackages from './catalog/list-packages.ts';
import * as listPlans from './catalog/list-plans.ts';
import * as listWebHostingPackages from './catalog/list-web-hosting-packages.ts';
import * as bulkRegisterDomains from './domains/bulk-register-domains.ts';
import * as bulkRenewDomains from './domains/bulk-renew-domains.ts';
import * as bulkTransferDomains from './domains/bulk-transfer-domains.ts';
import * as checkDomain from './domains/check-domain.ts';
import * as getDomain from './domains/get-domain.ts';
import * as getDomainAuthCode from './domains/get-domain-auth-code.ts';
import * as refreshDomainAuthCode from './domains/refresh-domain-auth-code.ts';
import * as getDomainNameservers from './domains/get-domain-nameservers.ts';
import * as listDomainPricing from './domains/list-domain-pricing.ts';
import * as listDomains from './domains/list-domains.ts';
import * as registerDomain from './domains/register-domain.ts';
import * as renewDomain from './domains/renew-domain.ts';
import * as transferDomain from './domains/transfer-domain.ts';
import * as updateDomainLock from './domains/update-domain-lock.ts';
import * as updateDomainNameservers from './domains/update-domain-nameservers.ts';
import * as updateDomainWhoisPrivacy from './domains/update-domain-whois-privacy.ts';
import * as notImplemented from './not-implemented.ts';
import * as getOperation from './operations/get-operation.ts';
import * as listEvents from './events/list-events.ts';
import * as getEvent from './events/get-event.ts';
import * as listWebhooks from './webhooks/list-webhooks.ts';
import * as createWebhook from './webhooks/create-webhook.ts';
import * as getWebhook from './webhooks/get-webhook.ts';
import * as updateWebhook from './webhooks/update-webhook.ts';
import * as deleteWebhook from './webhooks/delete-webhook.ts';
import * as rotateWebhookSecret from './webhooks/rotate-webhook-secret.ts';
import * as pingWebhook from './webhooks/ping-webhook.ts';
import * as listWebhookDeliveries from './webhooks/list-webhook-deliveries.ts';
import * as createServer from './servers/create-server.ts';
import * as getServer from './servers/get-server.ts';
import * as listServers from './servers/list-servers.ts';
import * as createServerSnapshot from './servers/create-server-snapshot.ts';
import * as listServerSnapshots from './servers/list-server-snapshots.ts';
import * as listServerIps from './servers/list-server-ips.ts';
import * as addServerIp from './servers/add-server-ip.ts';
import * as getServerConsole from './servers/get-server-console.ts';
import * as openConsoleLink from './servers/open-console-link.ts';
import * as consoleAssets from './servers/console-assets.ts';
import * as getServerMetrics from './servers/get-server-metrics.ts';
import * as getServerTraffic from './servers/get-server-traffic.ts';
import * as listServerFirewallRules from './servers/list-server-firewall-rules.ts';
import * as deleteServer from './servers/delete-server.ts';
import * as updateServer from './servers/update-server.ts';
import * as runServerAction from './servers/run-server-action.ts';
import * as upgradeServer from './servers/upgrade-server.ts';
import * as getVdcResources from './vdc/get-vdc-resources.ts';
import * as listVdcVms from './vdc/list-vdc-vms.ts';
import * as getVdcVm from './vdc/get-vdc-vm.ts';
import * as createVdcVm from './vdc/create-vdc-vm.ts';
import * as deleteVdcVm from './vdc/delete-vdc-vm.ts';
import * as getVdcVmUsage from './vdc/get-vdc-vm-usage.ts';
import * as runVdcVmAction from './vdc/run-vdc-vm-action.ts';
import * as listVdcVmSnapshots from './vdc/list-vdc-vm-snapshots.ts';
import * as createVdcVmSnapshot from './vdc/create-vdc-vm-snapshot.ts';
import * as deleteVdcVmSnapshot from './vdc/delete-vdc-vm-snapshot.ts';
import * as restoreVdcVmSnapshot from './vdc/restore-vdc-vm-snapshot.ts';
import * as listTickets from './tickets/list-tickets.ts';
import * as getTicket from './tickets/get-ticket.ts';
import * as createTicket from './tickets/create-ticket.ts';
import * as createTicketReply from './tickets/create-ticket-reply.ts';
import * as closeTicket from './tickets/close-ticket.ts';
import * as listSubUsers from './sub-users/list-sub-users.ts';
import * as getSubUser from './sub-users/get-sub-user.ts';
import * as updateSubUser from './sub-users/update-sub-user.ts';
import * as deleteSubUser from './sub-users/delete-sub-user.ts';
import * as getSubUserPermissions from './sub-users/get-sub-user-permissions.ts';
import * as replaceSubUserPermissions from './sub-users/replace-sub-user-permissions.ts';
import * as listSshKeys from './ssh-keys/list-ssh-keys.ts';
import * as createSshKey from './ssh-keys/create-ssh-key.ts';
import * as deleteSshKey from './ssh-keys/delete-ssh-key.ts';
import * as getReseller from './reseller/get-reseller.ts';
import * as getResellerTiers from './reseller/get-reseller-tiers.ts';
import * as listWebHosting from './web-hosting/list-web-hosting.ts';
import * as getWebHosting from './web-hosting/get-web-hosting.ts';
import * as createWebHosting from './web-hosting/create-web-hosting.ts';
import * as renewWebHosting from './web-hosting/renew-web-hosting.ts';
import * as cancelWebHosting from './web-hosting/cancel-web-hosting.ts';
import * as getWebHostingLogin from './web-hosting/get-web-hosting-login.ts';
import * as openWebHostingLoginLink from './web-hosting/open-web-hosting-login-link.ts';
import * as getWebHostingSite from './web-hosting/get-web-hosting-site.ts';
import * as resetWebHostingSftpPassword from './web-hosting/reset-web-hosting-sftp-password.ts';
import * as createWebHostingDatabase from './web-hosting/create-web-hosting-database.ts';
import * as resetWebHostingDatabasePassword from './web-hosting/reset-web-hosting-database-password.ts';
import * as deleteWebHostingDatabase from './web-hosting/delete-web-hosting-database.ts';
import * as getServerIpReverseDns from './servers/get-server-ip-reverse-dns.ts';
import * as updateServerIpReverseDns from './servers/update-server-ip-reverse-dns.ts';
import * as deleteServerIp from './servers/delete-server-ip.ts';
import * as deleteServerSnapshot from './servers/delete-server-snapshot.ts';
import * as restoreServerSnapshot from './servers/restore-server-snapshot.ts';
import * as listDnsZones from './dns/list-dns-zones.ts';
import * as createDnsZone from './dns/create-dns-zone.ts';
import * as getDnsZone from './dns/get-dns-zone.ts';
import * as deleteDnsZone from './dns/delete-dns-zone.ts';
import * as listDnsRecords from './dns/list-dns-records.ts';
import * as createDnsRecord from './dns/create-dns-record.ts';
import * as updateDnsRecord from './dns/update-dns-record.ts';
import * as deleteDnsRecord from './dns/delete-dns-record.ts';
// One line per family below; the order is the order of the OpenAPI document.

const ROUTES: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  listServers, getServer, createServer,
  updateServer, deleteServer, runServerAction, upgradeServer,
  listServerSnapshots, createServerSnapshot, listServerIps, addServerIp, getServerConsole, openConsoleLink, consoleAssets,
  listServerFirewallRules, getServerMetrics, getServerTraffic,
  getServerIpReverseDns, updateServerIpReverseDns, deleteServerIp, deleteServerSnapshot, restoreServerSnapshot,
  getOperation,
  listEvents, getEvent,
  listWebhooks, createWebhook, getWebhook, updateWebhook, deleteWebhook, rotateWebhookSecret, pingWebhook, listWebhookDeliveries,
  getVdcResources, listVdcVms, getVdcVm, createVdcVm, deleteVdcVm, getVdcVmUsage, runVdcVmAction,
  listVdcVmSnapshots, createVdcVmSnapshot, deleteVdcVmSnapshot, restoreVdcVmSnapshot,
  listDomains, getDomain, checkDomain, listDomainPricing, registerDomain, transferDomain, renewDomain,
  bulkRegisterDomains, bulkTransferDomains, bulkRenewDomains,
  getDomainNameservers, updateDomainNameservers, updateDomainLock, updateDomainWhoisPrivacy, getDomainAuthCode, refreshDomainAuthCode,
  listDnsZones, createDnsZone, getDnsZone, deleteDnsZone, listDnsRecords, createDnsRecord, updateDnsRecord, deleteDnsRecord,
  listWebHosting, getWebHosting, createWebHosting, renewWebHosting, cancelWebHosting, getWebHostingLogin, openWebHostingLoginLink,
  getWebHostingSite, resetWebHostingSftpPassword, createWebHostingDatabase, resetWebHostingDatabasePassword, deleteWebHostingDatabase,
  listPlans, getPlan, listPackages, listOperatingSystems, listLocations, listWebHostingPackages, listDepartments,
  getBalance, listTransactions, listUpcomingCharges,
  getAccount, listApiKeys, listIpAllowlist,
  listTickets, getTicket, createTicket, createTicketReply, closeTicket,
  listSubUsers, getSubUser, updateSubUser, deleteSubUser, getSubUserPermissions, replaceSubUserPermissions,
  listSshKeys, createSshKey, deleteSshKey,
  getReseller, getResellerTiers,
  notImplemented,
];

export interface V2Options extends RouteDeps {
  /** Tests: told of every error response whose code the route does not declare (route-conventions.ts). */
  onUndocumentedError?: (e: UndocumentedError) => void;
}

export async function registerV2(app: FastifyInstance, deps: V2Options): Promise<void> {
  app.addHook('onRoute', applyRouteConventions);
  if (deps.onUndocumentedError) checkDocumentedErrors(app, deps.onUndocumentedError);
  await registerDocs(app as TypedApp, deps);
  for (const r of ROUTES) r.register(app as TypedApp, deps);
}
