// The domains family: registrations, transfers in and renewals through the registrar (see src/core/family.ts).
import type { FamilyManifest } from '../family.ts';
import { domainRegisterRunner } from './runners/domain.register.ts';
import { domainRenewRunner } from './runners/domain.renew.ts';
import { domainTransferRunner } from './runners/domain.transfer.ts';
import { domainCharges } from './upcoming.ts';

export const domainsFamily = {
  name: 'domains',
  area: 'domains',
  operationResources: { domain: '`domain.*`' },
  operations: {
    'domain.register': { resource: 'domain', area: 'domains', runner: domainRegisterRunner, completed: 'domain.registered' },
    'domain.transfer': { resource: 'domain', area: 'domains', runner: domainTransferRunner, completed: 'domain.transferred' },
    'domain.renew': { resource: 'domain', area: 'domains', runner: domainRenewRunner, completed: 'domain.renewed' },
  },
  events: ['domain.registered', 'domain.transferred', 'domain.renewed', 'domain.expiring', 'domain.expired'],
  billable: { domain: domainCharges },
} as const satisfies FamilyManifest;
