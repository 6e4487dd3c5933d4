// The branding row (migration 0260): read, and replaced as a whole.
import type { Db } from '../connection.ts';
import type { BrandingSettingsRow } from '../schema.ts';

export type BrandingValues = Omit<BrandingSettingsRow, 'id' | 'updated_at'>;

export function findBrandingRow(db: Db): Promise<BrandingSettingsRow | undefined> {
  return db.selectFrom('branding_settings').selectAll().executeTakeFirst();
}

export function replaceBrandingRow(db: Db, values: BrandingValues, now: Date): Promise<BrandingSettingsRow> {
  const row = { ...values, updated_at: now };
  return db.insertInto('branding_settings').values({ id: true, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .returningAll().executeTakeFirstOrThrow();
}
