// The LXD compute driver (COMPUTE_DRIVER=lxd). A node is an LXD server: `endpoint` says how to
// reach it (unix:/path/to/unix.socket or https://host:8443) and `fingerprint` pins the SHA-256 of
// its server certificate (https), recorded when the node was added; both null for nodes of the
// simulated platform. An OS version names the LXD image its servers are built from (`image`: an
// alias or fingerprint present on the nodes).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE nodes ADD COLUMN endpoint text, ADD COLUMN fingerprint text;
    ALTER TABLE operating_systems ADD COLUMN image text;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE nodes DROP COLUMN endpoint, DROP COLUMN fingerprint;
    ALTER TABLE operating_systems DROP COLUMN image;
  `.execute(db);
}
