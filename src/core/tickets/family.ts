// The tickets family: support threads between an account and the staff (see src/core/family.ts).
import type { FamilyManifest } from '../family.ts';

export const ticketsFamily = {
  name: 'tickets',
  area: 'tickets',
  events: ['ticket.opened', 'ticket.answered', 'ticket.closed'],
} as const satisfies FamilyManifest;
