// Virtual data centers: a pool of resources per account, set by the operator, and the VMs and
// snapshots made from it. What the pool has handed out (`*_used`) is kept in the pool row by a
// trigger on the VM rows, in the statement that changes the VM, and CHECKs refuse any change that
// would take more than the pool holds — whatever the concurrency, and whatever the code path.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE vdc_pools (
      account_id            text PRIMARY KEY REFERENCES accounts (id),
      cpu_total             int NOT NULL DEFAULT 0 CHECK (cpu_total >= 0),
      ram_mb_total          int NOT NULL DEFAULT 0 CHECK (ram_mb_total >= 0),
      storage_gb_total      int NOT NULL DEFAULT 0 CHECK (storage_gb_total >= 0),
      ipv4_total            int NOT NULL DEFAULT 0 CHECK (ipv4_total >= 0),
      ipv6_total            int NOT NULL DEFAULT 0 CHECK (ipv6_total >= 0),
      -- The VDC's shared uplink: VMs draw on it together and none reserves a share, so it has no
      -- used counter (the API reports 0 used).
      bandwidth_mbit_total  int NOT NULL DEFAULT 0 CHECK (bandwidth_mbit_total >= 0),
      -- Sum of held_* of the account's live (not deleted) VMs; written only by vdc_vms_apply_holds.
      cpu_used              int NOT NULL DEFAULT 0 CHECK (cpu_used >= 0),
      ram_mb_used           int NOT NULL DEFAULT 0 CHECK (ram_mb_used >= 0),
      storage_gb_used       int NOT NULL DEFAULT 0 CHECK (storage_gb_used >= 0),
      ipv4_used             int NOT NULL DEFAULT 0 CHECK (ipv4_used >= 0),
      ipv6_used             int NOT NULL DEFAULT 0 CHECK (ipv6_used >= 0),
      -- What the pool costs a month, billed by recurring billing; null = not billed.
      monthly_price_cents   bigint CHECK (monthly_price_cents >= 0),
      created_at            timestamptz NOT NULL DEFAULT now(),
      updated_at            timestamptz NOT NULL DEFAULT now(),
      -- Named per bucket: a refusal says which bucket (core/vdc/quota.ts).
      CONSTRAINT vdc_pools_cpu_within_total CHECK (cpu_used <= cpu_total),
      CONSTRAINT vdc_pools_ram_mb_within_total CHECK (ram_mb_used <= ram_mb_total),
      CONSTRAINT vdc_pools_storage_gb_within_total CHECK (storage_gb_used <= storage_gb_total),
      CONSTRAINT vdc_pools_ipv4_within_total CHECK (ipv4_used <= ipv4_total),
      CONSTRAINT vdc_pools_ipv6_within_total CHECK (ipv6_used <= ipv6_total)
    );

    CREATE TABLE vdc_vms (
      id              text PRIMARY KEY,
      account_id      text NOT NULL REFERENCES accounts (id),
      name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 253),
      status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active', 'failed')),
      power_state     text NOT NULL DEFAULT 'provisioning'
                      CHECK (power_state IN ('running', 'stopped', 'starting', 'stopping', 'provisioning', 'migrating', 'error', 'unknown')),
      location_id     int NOT NULL REFERENCES locations (id),
      os_version_id   int REFERENCES operating_systems (id),
      -- The machine's size as last reported.
      cpu_cores       int NOT NULL CHECK (cpu_cores > 0),
      ram_mb          int NOT NULL CHECK (ram_mb > 0),
      storage_gb      int NOT NULL CHECK (storage_gb > 0),
      -- What the VM holds from its account's pool. Equal to its size, except while a resize runs
      -- (each bucket holds the larger of the old and new size) and after a failed create (nothing).
      held_cpu        int NOT NULL CHECK (held_cpu >= 0),
      held_ram_mb     int NOT NULL CHECK (held_ram_mb >= 0),
      held_storage_gb int NOT NULL CHECK (held_storage_gb >= 0),
      held_ipv4       int NOT NULL CHECK (held_ipv4 >= 0),
      held_ipv6       int NOT NULL CHECK (held_ipv6 >= 0),
      provider_ref    text,
      primary_ip      inet,
      primary_ipv6    inet,
      created_at      timestamptz NOT NULL DEFAULT now(),
      updated_at      timestamptz NOT NULL DEFAULT now(),
      deleted_at      timestamptz,
      CONSTRAINT vdc_vms_failed_holds_nothing CHECK (status <> 'failed'
        OR (held_cpu = 0 AND held_ram_mb = 0 AND held_storage_gb = 0 AND held_ipv4 = 0 AND held_ipv6 = 0))
    );
    CREATE INDEX vdc_vms_account_newest ON vdc_vms (account_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;

    -- Applies a VM row's change of holdings to its pool, in the same statement. A deleted VM holds
    -- nothing. No pool, or a bucket that would go past its total, fails the statement.
    CREATE FUNCTION vdc_vms_apply_holds() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      d_cpu int := 0; d_ram int := 0; d_disk int := 0; d_v4 int := 0; d_v6 int := 0;
      acc text;
    BEGIN
      IF TG_OP = 'UPDATE' AND NEW.account_id <> OLD.account_id THEN
        RAISE EXCEPTION 'a VM never changes account' USING ERRCODE = 'integrity_constraint_violation';
      END IF;
      IF TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL THEN
        d_cpu := -OLD.held_cpu; d_ram := -OLD.held_ram_mb; d_disk := -OLD.held_storage_gb; d_v4 := -OLD.held_ipv4; d_v6 := -OLD.held_ipv6;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL THEN
        d_cpu := d_cpu + NEW.held_cpu; d_ram := d_ram + NEW.held_ram_mb; d_disk := d_disk + NEW.held_storage_gb;
        d_v4 := d_v4 + NEW.held_ipv4; d_v6 := d_v6 + NEW.held_ipv6;
      END IF;
      acc := CASE WHEN TG_OP = 'DELETE' THEN OLD.account_id ELSE NEW.account_id END;
      IF d_cpu = 0 AND d_ram = 0 AND d_disk = 0 AND d_v4 = 0 AND d_v6 = 0 THEN
        RETURN NULL;
      END IF;
      UPDATE vdc_pools
         SET cpu_used = cpu_used + d_cpu, ram_mb_used = ram_mb_used + d_ram, storage_gb_used = storage_gb_used + d_disk,
             ipv4_used = ipv4_used + d_v4, ipv6_used = ipv6_used + d_v6, updated_at = now()
       WHERE account_id = acc;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'account % has no VDC pool', acc USING ERRCODE = 'check_violation', CONSTRAINT = 'vdc_pools_exists';
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER vdc_vms_apply_holds
      AFTER INSERT OR DELETE OR UPDATE OF account_id, held_cpu, held_ram_mb, held_storage_gb, held_ipv4, held_ipv6, deleted_at ON vdc_vms
      FOR EACH ROW EXECUTE FUNCTION vdc_vms_apply_holds();

    -- The used counters are the VMs' sum: only the trigger above may move them.
    CREATE FUNCTION vdc_pools_used_via_vms() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF pg_trigger_depth() < 2 AND (NEW.cpu_used, NEW.ram_mb_used, NEW.storage_gb_used, NEW.ipv4_used, NEW.ipv6_used)
           IS DISTINCT FROM (OLD.cpu_used, OLD.ram_mb_used, OLD.storage_gb_used, OLD.ipv4_used, OLD.ipv6_used) THEN
        RAISE EXCEPTION 'a VDC pool''s used counters change only through its VMs' USING ERRCODE = 'integrity_constraint_violation';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER vdc_pools_used_via_vms BEFORE UPDATE OF cpu_used, ram_mb_used, storage_gb_used, ipv4_used, ipv6_used ON vdc_pools
      FOR EACH ROW EXECUTE FUNCTION vdc_pools_used_via_vms();
    CREATE FUNCTION vdc_pools_start_empty() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (NEW.cpu_used, NEW.ram_mb_used, NEW.storage_gb_used, NEW.ipv4_used, NEW.ipv6_used) IS DISTINCT FROM (0, 0, 0, 0, 0) THEN
        RAISE EXCEPTION 'a new VDC pool has nothing used' USING ERRCODE = 'integrity_constraint_violation';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER vdc_pools_start_empty BEFORE INSERT ON vdc_pools
      FOR EACH ROW EXECUTE FUNCTION vdc_pools_start_empty();

    -- Snapshots of VMs: free, kept until deleted. The size and OS of the VM when taken.
    CREATE TABLE vdc_snapshots (
      id            serial PRIMARY KEY,
      account_id    text NOT NULL REFERENCES accounts (id),
      vm_id         text NOT NULL REFERENCES vdc_vms (id),
      name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
      status        text NOT NULL DEFAULT 'creating' CHECK (status IN ('creating', 'available')),
      size_gb       numeric(10, 2),
      os_version_id int REFERENCES operating_systems (id),
      provider_ref  text,
      created_at    timestamptz NOT NULL DEFAULT now(),
      deleted_at    timestamptz
    );
    CREATE INDEX vdc_snapshots_vm ON vdc_snapshots (vm_id, id) WHERE deleted_at IS NULL;

    -- The simulated platform restores a snapshot's OS with its disk.
    ALTER TABLE sim_snapshots ADD COLUMN os_slug text;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE sim_snapshots DROP COLUMN os_slug;
    DROP TABLE vdc_snapshots, vdc_vms, vdc_pools;
    DROP FUNCTION vdc_vms_apply_holds(), vdc_pools_used_via_vms(), vdc_pools_start_empty();
  `.execute(db);
}
