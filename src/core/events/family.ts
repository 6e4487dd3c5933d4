// The events family: the account's event feed, read only (see src/core/family.ts).
import type { FamilyManifest } from '../family.ts';

export const eventsFamily = { name: 'events', area: 'events' } as const satisfies FamilyManifest;
