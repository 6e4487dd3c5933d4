// Operations: the record of every family's long-running work (see src/core/family.ts). It has no
// area of its own: an operation is read with its family's (the catalogue's `area`).
import type { FamilyManifest } from '../family.ts';

export const operationsFamily = {
  name: 'operations',
  idPrefix: 'op',
  events: ['operation.completed', 'operation.failed'],
} as const satisfies FamilyManifest;
