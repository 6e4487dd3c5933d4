// The catalog family: plans, images, locations and prices (see src/core/family.ts).
import type { FamilyManifest } from '../family.ts';

export const catalogFamily = { name: 'catalog', area: 'catalog' } as const satisfies FamilyManifest;
