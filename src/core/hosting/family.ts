// The web hosting family: accounts on the hosting panel (see src/core/family.ts).
import type { FamilyManifest } from '../family.ts';
import { hostingCancelRunner } from './runners/hosting.cancel.ts';
import { hostingCreateRunner } from './runners/hosting.create.ts';
import { hostingSuspendRunner } from './runners/hosting.suspend.ts';
import { hostingUnsuspendRunner } from './runners/hosting.unsuspend.ts';
import { hostingCharges } from './upcoming.ts';

export const hostingFamily = {
  name: 'hosting',
  area: 'hosting',
  operationResources: { web_hosting: '`hosting.*`' },
  operations: {
    'hosting.create': { resource: 'web_hosting', area: 'hosting', runner: hostingCreateRunner, completed: 'web_hosting.created' },
    'hosting.cancel': { resource: 'web_hosting', area: 'hosting', runner: hostingCancelRunner },
    // Recurring billing (billing/lifecycle.ts).
    'hosting.suspend': { resource: 'web_hosting', area: 'hosting', runner: hostingSuspendRunner, retry: true },
    'hosting.unsuspend': { resource: 'web_hosting', area: 'hosting', runner: hostingUnsuspendRunner, retry: true },
  },
  events: ['web_hosting.created', 'web_hosting.suspended', 'web_hosting.resumed', 'web_hosting.cancelled'],
  billable: { web_hosting: hostingCharges },
} as const satisfies FamilyManifest;
