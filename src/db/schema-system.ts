// Row types of the installation's own records (markers of one-time steps, generated secrets).
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
