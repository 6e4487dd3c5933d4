// DNS: customers' zones and records, Hostcloud's reverse zones, and the outbox that carries every
// change to the DNS provider (PowerDNS). Our tables are the source of truth; the provider is a
// copy the worker keeps up to date.
//
// - dns_zones: one row per zone. `account_id` null: Hostcloud's own (an IP pool's reverse zone).
//   A name is held by one zone at a time (unique), whoever holds it. `serial` rises with every
//   change; `synced_at` is null while changes wait for the provider.
// - dns_records: a zone's records, `name` relative to the zone ('@' the apex). `managed`: the
//   apex SOA and NS, Hostcloud's. PTRs carry the `address` they name, so a release finds them.
// - dns_settings: DNS_NAMESERVERS as each process last wrote it at start, for the zones a worker
//   or a request makes (the NS records of every zone).
// - dns_outbox: what the worker must push, per zone: a whole zone (`sync`), one rrset (`rrset`:
//   `rr_name` absolute, `rr_type`) or the zone's removal (`delete`). A NOTIFY at each insert
//   wakes the pushers; `due_at` carries the retry backoff.
// - An address given back to its pool (ip_addresses.vm_id set to null, by any driver) loses its
//   PTR in the same statement's transaction (hc_dns_release_ptr).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE dns_zones (
      id          text PRIMARY KEY CHECK (id ~ '^dnz_[0-9A-Za-z]{16}$'),
      account_id  text REFERENCES accounts(id),
      name        text NOT NULL CHECK (name = lower(name) AND length(name) BETWEEN 1 AND 253 AND name !~ '\\.$'),
      kind        text NOT NULL DEFAULT 'forward' CHECK (kind IN ('forward', 'reverse')),
      ip_pool_id  int,
      nameservers text[] NOT NULL,
      serial      bigint NOT NULL DEFAULT 1 CHECK (serial BETWEEN 1 AND 4294967295),
      synced_at   timestamptz,
      created_at  timestamptz NOT NULL DEFAULT now(),
      updated_at  timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX dns_zones_name ON dns_zones (name);
    CREATE INDEX dns_zones_account ON dns_zones (account_id, created_at, id);
    CREATE INDEX dns_zones_pool ON dns_zones (ip_pool_id) WHERE ip_pool_id IS NOT NULL;

    CREATE TABLE dns_records (
      id          text PRIMARY KEY CHECK (id ~ '^dnr_[0-9A-Za-z]{16}$'),
      zone_id     text NOT NULL REFERENCES dns_zones(id) ON DELETE CASCADE,
      name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 253),
      type        text NOT NULL CHECK (type IN ('SOA', 'A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA', 'PTR')),
      content     text NOT NULL CHECK (length(content) BETWEEN 1 AND 4096),
      ttl         int NOT NULL CHECK (ttl BETWEEN 60 AND 86400),
      priority    int CHECK (priority BETWEEN 0 AND 65535),
      managed     boolean NOT NULL DEFAULT false,
      address     inet,
      created_at  timestamptz NOT NULL DEFAULT now(),
      updated_at  timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX dns_records_zone ON dns_records (zone_id, name, type);
    CREATE INDEX dns_records_zone_created ON dns_records (zone_id, created_at, id);
    CREATE UNIQUE INDEX dns_records_ptr ON dns_records (address) WHERE address IS NOT NULL;

    -- The installation's settings the database needs: 'nameservers' (DNS_NAMESERVERS), written by each process at start.
    CREATE TABLE dns_settings (
      name  text PRIMARY KEY,
      value jsonb NOT NULL
    );

    CREATE TABLE dns_outbox (
      id          bigserial PRIMARY KEY,
      zone_id     text NOT NULL,
      zone_name   text NOT NULL,
      action      text NOT NULL CHECK (action IN ('sync', 'rrset', 'delete')),
      rr_name     text,
      rr_type     text,
      attempts    int NOT NULL DEFAULT 0,
      due_at      timestamptz NOT NULL DEFAULT now(),
      last_error  text CHECK (length(last_error) <= 1000),
      created_at  timestamptz NOT NULL DEFAULT now(),
      CHECK ((action = 'rrset') = (rr_name IS NOT NULL AND rr_type IS NOT NULL))
    );
    CREATE INDEX dns_outbox_due ON dns_outbox (due_at, id);
    CREATE INDEX dns_outbox_zone ON dns_outbox (zone_name, id);

    CREATE FUNCTION hc_dns_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('hostcloud_dns_due', '');
      RETURN NULL;
    END $$;
    CREATE TRIGGER dns_outbox_notify AFTER INSERT ON dns_outbox FOR EACH STATEMENT EXECUTE FUNCTION hc_dns_outbox_notify();

    -- A released address keeps no PTR: its zone's serial rises and the rrset's removal is queued.
    CREATE FUNCTION hc_dns_release_ptr() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      r record;
    BEGIN
      FOR r IN DELETE FROM dns_records d WHERE d.address = OLD.address RETURNING d.zone_id, d.name LOOP
        WITH z AS (
          UPDATE dns_zones SET serial = CASE WHEN serial >= 4294967295 THEN 1 ELSE serial + 1 END, synced_at = NULL, updated_at = now()
           WHERE id = r.zone_id RETURNING id, name
        )
        INSERT INTO dns_outbox (zone_id, zone_name, action, rr_name, rr_type)
        SELECT z.id, z.name, 'rrset', CASE WHEN r.name = '@' THEN z.name ELSE r.name || '.' || z.name END, 'PTR' FROM z;
      END LOOP;
      RETURN NULL;
    END $$;
    CREATE TRIGGER ip_addresses_release_ptr AFTER UPDATE OF vm_id ON ip_addresses
      FOR EACH ROW WHEN (OLD.vm_id IS NOT NULL AND NEW.vm_id IS NULL) EXECUTE FUNCTION hc_dns_release_ptr();
    CREATE TRIGGER ip_addresses_delete_ptr AFTER DELETE ON ip_addresses
      FOR EACH ROW EXECUTE FUNCTION hc_dns_release_ptr();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER ip_addresses_delete_ptr ON ip_addresses;
    DROP TRIGGER ip_addresses_release_ptr ON ip_addresses;
    DROP FUNCTION hc_dns_release_ptr();
    DROP TABLE dns_outbox;
    DROP TABLE dns_settings;
    DROP FUNCTION hc_dns_outbox_notify();
    DROP TABLE dns_records;
    DROP TABLE dns_zones;
  `.execute(db);
}
