// Servers, their operations, idempotency records, the simulated compute provider's own state,
// and the pg-boss job queue schema (installed here so every database, including the test
// template, is ready before any process starts).
import PgBoss from 'pg-boss';
import { type Kysely, sql } from 'kysely';

import { JOB_SCHEMA } from '../names.ts';

/** pg-boss's install script wraps itself in BEGIN/COMMIT; a migration already runs in one. */
function bossInstallSql(): string {
  return PgBoss.getConstructionPlans(JOB_SCHEMA).replace(/^\s*BEGIN;\s*$/m, '').replace(/^\s*COMMIT;\s*$/m, '');
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(bossInstallSql()).execute(db);
  // Queue-level defaults; each send passes its own retry and expiry options from the settings.
  await sql`SELECT pgboss.create_queue('operations-failed', '{"policy":"standard"}')`.execute(db);
  await sql`SELECT pgboss.create_queue('operations', '{"policy":"standard","deadLetter":"operations-failed"}')`.execute(db);
  await sql`SELECT pgboss.create_queue('maintenance', '{"policy":"singleton"}')`.execute(db);

  await sql`
    CREATE TABLE servers (
      id                text PRIMARY KEY,
      account_id        text NOT NULL REFERENCES accounts (id),
      name              text NOT NULL CHECK (length(name) BETWEEN 1 AND 253),
      status            text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active', 'suspended', 'cancelled')),
      power_state       text NOT NULL DEFAULT 'provisioning'
                        CHECK (power_state IN ('running', 'stopped', 'starting', 'stopping', 'provisioning', 'migrating', 'error', 'unknown')),
      location_id       int NOT NULL REFERENCES locations (id),
      os_version_id     int REFERENCES operating_systems (id),
      plan_id           int REFERENCES plans (id),
      cpu_cores         int NOT NULL CHECK (cpu_cores > 0),
      ram_mb            int NOT NULL CHECK (ram_mb > 0),
      storage_gb        int NOT NULL CHECK (storage_gb > 0),
      -- The whole monthly bill: plan or unit-priced specs, plus extra IPs.
      price_cents       bigint NOT NULL CHECK (price_cents >= 0),
      cycle             text NOT NULL DEFAULT 'monthly' CHECK (cycle = 'monthly'),
      period_started_at timestamptz NOT NULL,
      next_billing_at   timestamptz NOT NULL,
      source_snapshot_id int,
      -- Filled when the provider reports the machine: its id and the primary network.
      provider_ref      text,
      network           jsonb,
      created_at        timestamptz NOT NULL DEFAULT now(),
      updated_at        timestamptz NOT NULL DEFAULT now(),
      deleted_at        timestamptz
    );
    CREATE INDEX servers_account_newest ON servers (account_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
    CREATE INDEX servers_account_status_newest ON servers (account_id, status, created_at DESC, id DESC) WHERE deleted_at IS NULL;
    -- A hostname is taken while a live server of the account carries it (race-free: a unique index).
    CREATE UNIQUE INDEX servers_live_hostname ON servers (account_id, lower(name)) WHERE deleted_at IS NULL AND status <> 'cancelled';

    CREATE TABLE operations (
      id            text PRIMARY KEY,
      account_id    text NOT NULL REFERENCES accounts (id),
      type          text NOT NULL,
      status        text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed', 'failed')),
      resource_type text NOT NULL,
      resource_id   text NOT NULL,
      progress_pct  int NOT NULL DEFAULT 0 CHECK (progress_pct BETWEEN 0 AND 100),
      detail        text NOT NULL DEFAULT 'Queued',
      -- What the runner needs (verb arguments, amounts to refund on failure); never shown.
      params        jsonb NOT NULL DEFAULT '{}',
      attempts      int NOT NULL DEFAULT 0,
      -- While running: the worker renews this; past it, the worker is presumed dead and the
      -- operation is queued again (see jobs/lost-operations.ts).
      lease_until   timestamptz,
      last_error    text,
      created_at    timestamptz NOT NULL DEFAULT now(),
      updated_at    timestamptz NOT NULL DEFAULT now(),
      finished_at   timestamptz
    );
    CREATE INDEX operations_account ON operations (account_id, created_at DESC);
    CREATE INDEX operations_running_lease ON operations (lease_until) WHERE status = 'running';
    -- One unfinished operation per resource: a second action is refused by the index itself.
    CREATE UNIQUE INDEX operations_one_active_per_resource ON operations (resource_type, resource_id)
      WHERE status IN ('queued', 'running');

    CREATE TABLE idempotency_keys (
      account_id    text NOT NULL REFERENCES accounts (id),
      key           uuid NOT NULL,
      request_hash  text NOT NULL,
      status_code   int,
      response      jsonb,
      created_at    timestamptz NOT NULL DEFAULT now(),
      expires_at    timestamptz NOT NULL,
      PRIMARY KEY (account_id, key)
    );
    CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);

    CREATE TABLE snapshots (
      id                 serial PRIMARY KEY,
      account_id         text NOT NULL REFERENCES accounts (id),
      server_id          text NOT NULL REFERENCES servers (id),
      name               text NOT NULL,
      status             text NOT NULL DEFAULT 'creating' CHECK (status IN ('creating', 'available')),
      size_gb            numeric(10, 2),
      monthly_fee_cents  bigint NOT NULL CHECK (monthly_fee_cents >= 0),
      -- Source server specs, so a server created from this snapshot is priced and sized alike.
      cpu_cores          int NOT NULL,
      ram_mb             int NOT NULL,
      storage_gb         int NOT NULL,
      os_version_id      int,
      provider_ref       text,
      created_at         timestamptz NOT NULL DEFAULT now(),
      deleted_at         timestamptz
    );
    CREATE INDEX snapshots_server ON snapshots (server_id, id) WHERE deleted_at IS NULL;

    CREATE TABLE server_ips (
      id          serial PRIMARY KEY,
      server_id   text NOT NULL REFERENCES servers (id),
      version     int NOT NULL CHECK (version IN (4, 6)),
      address     inet,
      price_cents bigint NOT NULL CHECK (price_cents >= 0),
      created_at  timestamptz NOT NULL DEFAULT now(),
      released_at timestamptz
    );
    CREATE INDEX server_ips_server ON server_ips (server_id, id) WHERE released_at IS NULL;

    -- Secrets every API process must share (the console URL signing key), created on first use.
    CREATE TABLE app_secrets (
      name       text PRIMARY KEY,
      value      text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    -- Made with the database rather than on first use, so no request (not even a sandbox one)
    -- is ever the one that writes it. 32 random bytes as hex, from two v4 UUIDs' randomness.
    INSERT INTO app_secrets (name, value)
    SELECT 'console_signing_key', substr(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 1, 64);

    -- The simulated compute provider's own world. A real driver keeps this upstream.
    -- jsonb: the fault switch's remaining count is decremented by one UPDATE, race-free.
    CREATE TABLE sim_settings (
      name  text PRIMARY KEY,
      value jsonb NOT NULL
    );
    CREATE TABLE sim_ip_pools (
      id          serial PRIMARY KEY,
      location_id int NOT NULL REFERENCES locations (id),
      version     int NOT NULL CHECK (version IN (4, 6)),
      cidr        cidr NOT NULL UNIQUE,
      gateway     inet NOT NULL,
      -- Host offsets below this have been handed out at least once (released ones are reused first).
      -- Offset 0 is the network address; the gateway is skipped wherever it sits.
      next_offset bigint NOT NULL DEFAULT 1,
      created_at  timestamptz NOT NULL DEFAULT now(),
      -- Addresses are global: two pools may not share one, whatever their locations.
      CONSTRAINT sim_ip_pools_no_overlap EXCLUDE USING gist (cidr inet_ops WITH &&)
    );
    CREATE INDEX sim_ip_pools_location ON sim_ip_pools (location_id, version, id);
    CREATE TABLE sim_ip_leases (
      address     inet PRIMARY KEY,
      pool_id     int NOT NULL REFERENCES sim_ip_pools (id),
      vm_id       text,
      leased_at   timestamptz
    );
    CREATE INDEX sim_ip_leases_free ON sim_ip_leases (pool_id) WHERE vm_id IS NULL;
    CREATE INDEX sim_ip_leases_vm ON sim_ip_leases (vm_id) WHERE vm_id IS NOT NULL;
    CREATE TABLE sim_vms (
      id            text PRIMARY KEY,
      -- The caller's request token (our operation id): asking twice returns the same machine.
      request_token text NOT NULL UNIQUE,
      location_id   int NOT NULL,
      hostname      text NOT NULL,
      power         text NOT NULL,
      cpu_cores     int NOT NULL,
      ram_mb        int NOT NULL,
      storage_gb    int NOT NULL,
      os_slug       text,
      ipv4          inet,
      ipv6          inet,
      created_at    timestamptz NOT NULL DEFAULT now(),
      destroyed_at  timestamptz
    );
    ALTER TABLE sim_ip_leases ADD FOREIGN KEY (vm_id) REFERENCES sim_vms (id);
    CREATE TABLE sim_requests (
      token       text PRIMARY KEY,
      result      jsonb NOT NULL,
      created_at  timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE sim_firewall_rules (
      id         serial PRIMARY KEY,
      vm_id      text NOT NULL REFERENCES sim_vms (id),
      position   int NOT NULL,
      direction  text NOT NULL,
      protocol   text NOT NULL,
      port       text,
      source     text NOT NULL,
      action     text NOT NULL,
      UNIQUE (vm_id, position)
    );
    CREATE TABLE sim_snapshots (
      id         text PRIMARY KEY,
      vm_id      text NOT NULL REFERENCES sim_vms (id),
      size_gb    numeric(10, 2) NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE sim_console_sessions (
      token      text PRIMARY KEY,
      vm_id      text NOT NULL REFERENCES sim_vms (id),
      expires_at timestamptz NOT NULL,
      used_at    timestamptz
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE sim_console_sessions, sim_snapshots, sim_firewall_rules, sim_requests, sim_vms, sim_ip_leases, sim_ip_pools, sim_settings,
      app_secrets, server_ips, snapshots, idempotency_keys, operations, servers CASCADE;
    DROP SCHEMA pgboss CASCADE;
  `.execute(db);
}
