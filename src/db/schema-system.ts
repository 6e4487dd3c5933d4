// Row types of the installation's own records (markers of one-time steps, generated secrets).
import type { Selectable } from 'kysely';
import type { CreatedAt } from './schema-columns.ts';

export interface SystemMarkersTable {
  name: string;
  created_at: CreatedAt;
}

export interface AppSecretsTable {
  name: string;
  value: string;
  created_at: CreatedAt;
}

/** The installation's branding: one row (id true), absent until saved (migration 0260). */
export interface BrandingSettingsTable {
  id: boolean;
  name: string;
  logo: string | null;
  primary_color: string;
  support_email: string;
  support_url: string | null;
  terms_url: string | null;
  privacy_url: string | null;
  updated_at: Date;
}
export type BrandingSettingsRow = Selectable<BrandingSettingsTable>;
