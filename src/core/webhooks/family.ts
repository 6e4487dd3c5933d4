// The webhooks family: endpoints that receive the account's events (see src/core/family.ts).
import type { FamilyManifest } from '../family.ts';

export const webhooksFamily = {
  name: 'webhooks',
  area: 'webhooks',
  idPrefix: 'wh',
  events: ['webhook.ping'],
} as const satisfies FamilyManifest;
