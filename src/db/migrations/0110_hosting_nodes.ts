// The native hosting driver (HOSTING_DRIVER=native): web-hosting accounts live on hosting nodes,
// Debian machines reached over SSH.
// - hosting_nodes: where a node is (host, port, SSH user), the SHA-256 of its host key pinned when
//   it was added (another key is refused), the port its nginx serves sites on, the operator's
//   overrides of the node's paths and commands (`config`), what it lacked at its last check
//   (`missing`) and its disk then. Placement takes `enabled` nodes with room.
// - hosting_node_accounts: the driver's record of each account it placed (the HostingPanel `ref`):
//   node, Linux user, domain, the request token of the create (a retried create finds its account),
//   state, and whether quotas enforce its disk limit.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE hosting_nodes (
      id serial PRIMARY KEY,
      name text NOT NULL UNIQUE,
      location_id int REFERENCES locations(id),
      host text NOT NULL,
      port int NOT NULL DEFAULT 22,
      ssh_user text NOT NULL DEFAULT 'root',
      http_port int NOT NULL DEFAULT 80,
      host_key text NOT NULL,
      status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
      max_accounts int NOT NULL DEFAULT 500 CHECK (max_accounts >= 0),
      config jsonb NOT NULL DEFAULT '{}'::jsonb,
      missing text[] NOT NULL DEFAULT '{}',
      disk_total_mb int,
      disk_free_mb int,
      quotas boolean NOT NULL DEFAULT false,
      checked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE hosting_node_accounts (
      id text PRIMARY KEY,
      node_id int NOT NULL REFERENCES hosting_nodes(id),
      request_token text NOT NULL UNIQUE,
      username text NOT NULL,
      domain text NOT NULL,
      quota_mb int NOT NULL,
      max_databases int NOT NULL DEFAULT 1,
      state text NOT NULL DEFAULT 'creating' CHECK (state IN ('creating', 'active', 'suspended', 'terminated')),
      quota_enforced boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX hosting_node_accounts_username ON hosting_node_accounts (node_id, username) WHERE state <> 'terminated';
    CREATE INDEX hosting_node_accounts_node ON hosting_node_accounts (node_id) WHERE state <> 'terminated';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE hosting_node_accounts; DROP TABLE hosting_nodes;`.execute(db);
}
