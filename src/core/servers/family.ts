// The servers family: cloud servers, their addresses and snapshots (see src/core/family.ts).
import type { FamilyManifest } from '../family.ts';
import { powerRunner, reinstallRunner, resetPasswordRunner } from '../machines/runners.ts';
import { serverMigrateRunner } from '../nodes/runners/server.migrate.ts';
import { SERVER_ROWS } from './guards.ts';
import { serverCharges } from './upcoming.ts';
import { serverCloneRunner } from './runners/server.clone.ts';
import { serverCreateRunner } from './runners/server.create.ts';
import { serverDeleteRunner } from './runners/server.delete.ts';
import { serverIpAttachRunner } from './runners/server.ip_attach.ts';
import { serverIpReleaseRunner } from './runners/server.ip_release.ts';
import { serverResizeRunner } from './runners/server.resize.ts';
import { serverRestoreRunner } from './runners/server.restore.ts';
import { serverSnapshotRunner } from './runners/server.snapshot.ts';
import { serverSnapshotDeleteRunner } from './runners/server.snapshot_delete.ts';
import { serverUpgradeRunner } from './runners/server.upgrade.ts';

// Machines of both kinds share their power, password and reinstall runners (machines/runners.ts).
const power = powerRunner(SERVER_ROWS);

export const serversFamily = {
  name: 'servers',
  area: 'servers',
  idPrefix: 'srv',
  operationResources: {
    server: '`server.*` but address changes',
    server_ip: '`server.ip_attach`, `server.ip_release`: an extra address, `id` its number',
  },
  operations: {
    'server.create': { resource: 'server', area: 'servers', runner: serverCreateRunner, completed: 'server.created' },
    'server.delete': { resource: 'server', area: 'servers', runner: serverDeleteRunner, retry: true },
    'server.start': { resource: 'server', area: 'servers', runner: power, retry: true },
    'server.stop': { resource: 'server', area: 'servers', runner: power, retry: true },
    'server.reboot': { resource: 'server', area: 'servers', runner: power, retry: true },
    'server.reset_password': { resource: 'server', area: 'servers', runner: resetPasswordRunner(SERVER_ROWS) },
    'server.reinstall': { resource: 'server', area: 'servers', runner: reinstallRunner(SERVER_ROWS), retry: true },
    'server.resize': { resource: 'server', area: 'servers', runner: serverResizeRunner },
    'server.clone': { resource: 'server', area: 'servers', runner: serverCloneRunner },
    'server.upgrade': { resource: 'server', area: 'servers', runner: serverUpgradeRunner },
    'server.snapshot': { resource: 'server', area: 'servers', runner: serverSnapshotRunner },
    'server.snapshot_delete': { resource: 'server', area: 'servers', runner: serverSnapshotDeleteRunner, retry: true },
    'server.restore': { resource: 'server', area: 'servers', runner: serverRestoreRunner },
    // The operator's move to another node (src/core/nodes).
    'server.migrate': { resource: 'server', area: 'servers', runner: serverMigrateRunner },
    'server.ip_attach': { resource: 'server_ip', area: 'servers', runner: serverIpAttachRunner },
    'server.ip_release': { resource: 'server_ip', area: 'servers', runner: serverIpReleaseRunner },
    // Recurring billing (billing/lifecycle.ts): the power runner stops and starts, the delete runner destroys.
    'server.suspend': { resource: 'server', area: 'servers', runner: power, retry: true },
    'server.resume': { resource: 'server', area: 'servers', runner: power, retry: true },
    'server.cancel': { resource: 'server', area: 'servers', runner: serverDeleteRunner, retry: true },
  },
  events: ['server.created', 'server.deleted', 'server.suspended', 'server.resumed', 'server.cancelled'],
  billable: { server: serverCharges },
} as const satisfies FamilyManifest;
