// Row types of what v1 brought into the core: reverse DNS of server addresses, ours and the
// simulated platform's (kept apart from schema.ts, which lists them in DB).
import type { Selectable } from 'kysely';
import type { UpdatedAt } from './schema-columns.ts';

/** The PTR name a server's address was given at the platform (what we read back; the platform holds the truth). */
export interface ServerReverseDnsTable {
  server_id: string;
  address: string;
  hostname: string;
  updated_at: UpdatedAt;
}

/** The simulated platform's PTR records, by address, of the machine holding it. */
export interface SimReverseDnsTable {
  address: string;
  vm_id: string;
  hostname: string;
  updated_at: UpdatedAt;
}

export type ServerReverseDns = Selectable<ServerReverseDnsTable>;
