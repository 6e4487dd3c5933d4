// What a server create's run reads of its server, read by the statement with which the worker
// claims the operation (a ClaimedRead: operation-fetch.ts) rather than by one of its own.
import { sql } from 'kysely';
import type { ClaimedRead } from './operation-fetch.ts';
import type { ProvisioningServer } from './servers.ts';

/** The fields of a ProvisioningServer that provisioning uses. */
export type ServerToProvision = Pick<ProvisioningServer,
  'id' | 'account_id' | 'name' | 'status' | 'deleted_at' | 'location_id' | 'cpu_cores' | 'ram_mb' | 'storage_gb' | 'source_snapshot_id'
  | 'os_slug' | 'node_name'>;

type Fields = [string, string, string, ServerToProvision['status'], string | null, number, number, number, number, number | null, string | null, string | null];

/** The server of a claimed server.create (its resource), as findServerForProvisioning reads it; null: gone. */
export const serverToProvisionOnClaim: ClaimedRead<ServerToProvision | null> = {
  // An array rather than an object: no key to write or parse per field.
  expression: sql`(
    SELECT json_build_array(s.id, s.account_id, s.name, s.status, s.deleted_at, s.location_id, s.cpu_cores, s.ram_mb, s.storage_gb,
                            s.source_snapshot_id, os.slug, n.name)
    FROM servers s
    LEFT JOIN operating_systems os ON os.id = s.os_version_id
    LEFT JOIN nodes n ON n.id = s.node_id
    WHERE s.id = c.resource_id)`,
  revive(value) {
    if (value === null) return null;
    const [id, account_id, name, status, deletedAt, location_id, cpu_cores, ram_mb, storage_gb, source_snapshot_id, os_slug, node_name] = value as Fields;
    return {
      id, account_id, name, status, deleted_at: deletedAt === null ? null : new Date(deletedAt), location_id, cpu_cores, ram_mb, storage_gb,
      source_snapshot_id, os_slug, node_name,
    };
  },
};
