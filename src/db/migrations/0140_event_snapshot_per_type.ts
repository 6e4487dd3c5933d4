// An event's snapshot is read by one function per resource type, hc_event_snapshot_<type>(id),
// which hc_event_snapshot(type, id) finds by name. Before, hc_event_snapshot was one CASE over
// every type (0041), and each migration that added a type (0042's webhook) had to make the whole
// function again with its arm added - a new family copied everyone's snapshot. Now a family's
// migration creates its own hc_event_snapshot_<type> and touches nothing else; a type without one
// gets { id } as before (hc_emit_event's fallback). The functions below read what 0042's arms
// read, so every event's data stays what it was.
import { type Kysely, sql } from 'kysely';
import { eventSnapshotCase } from './0041_events.ts';
import { WEBHOOK_ARM } from './0042_webhooks.ts';

const TYPES = ['operation', 'server', 'vdc_vm', 'domain', 'web_hosting', 'transaction', 'billing_charge', 'ticket', 'webhook'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Secrets are left out: an operation's params.
    CREATE FUNCTION hc_event_snapshot_operation(p_id text) RETURNS jsonb LANGUAGE sql STABLE AS $$
      SELECT to_jsonb(o) - 'params' FROM operations o WHERE o.id = p_id
    $$;

    -- What GET /v2/servers/{id} reads beside the row: the plan's name, the OS and the extra addresses.
    CREATE FUNCTION hc_event_snapshot_server(p_id text) RETURNS jsonb LANGUAGE sql STABLE AS $$
      SELECT to_jsonb(s) || jsonb_build_object(
               'plan_name', (SELECT p.name FROM plans p WHERE p.id = s.plan_id),
               'os_slug', (SELECT os.slug FROM operating_systems os WHERE os.id = s.os_version_id),
               'extra_ips', coalesce((
                 SELECT jsonb_agg(jsonb_build_object('address', host(ip.address), 'version', ip.version) ORDER BY ip.id)
                   FROM server_ips ip WHERE ip.server_id = s.id AND ip.released_at IS NULL AND ip.address IS NOT NULL), '[]'::jsonb))
        FROM servers s WHERE s.id = p_id
    $$;

    CREATE FUNCTION hc_event_snapshot_vdc_vm(p_id text) RETURNS jsonb LANGUAGE sql STABLE AS $$
      SELECT to_jsonb(v) || jsonb_build_object('os_slug', os.slug, 'os_family', os.family, 'os_version', os.version, 'location_provider', l.provider)
        FROM vdc_vms v JOIN locations l ON l.id = v.location_id LEFT JOIN operating_systems os ON os.id = v.os_version_id
       WHERE v.id = p_id
    $$;

    -- The auth code is a secret; the TLD's prices are what the API shows beside a domain.
    CREATE FUNCTION hc_event_snapshot_domain(p_id text) RETURNS jsonb LANGUAGE sql STABLE AS $$
      SELECT (to_jsonb(d) - 'auth_code') || jsonb_build_object('price', to_jsonb(tp))
        FROM domains d JOIN tld_prices tp ON tp.tld = d.tld WHERE d.id = p_id
    $$;

    CREATE FUNCTION hc_event_snapshot_web_hosting(p_id text) RETURNS jsonb LANGUAGE sql STABLE AS $$
      SELECT to_jsonb(w) || jsonb_build_object('package_name', hp.name, 'quota_mb', hp.disk_quota_mb, 'max_domains', hp.max_domains)
        FROM web_hosting w JOIN hosting_packages hp ON hp.id = w.package_id WHERE w.id = p_id
    $$;

    CREATE FUNCTION hc_event_snapshot_transaction(p_id text) RETURNS jsonb LANGUAGE sql STABLE AS $$
      SELECT to_jsonb(t) FROM transactions t WHERE t.id = p_id::bigint
    $$;

    CREATE FUNCTION hc_event_snapshot_billing_charge(p_id text) RETURNS jsonb LANGUAGE sql STABLE AS $$
      SELECT to_jsonb(bc) FROM billing_charges bc WHERE bc.id = p_id::bigint
    $$;

    CREATE FUNCTION hc_event_snapshot_ticket(p_id text) RETURNS jsonb LANGUAGE sql STABLE AS $$
      SELECT to_jsonb(t) || jsonb_build_object('department_name', dp.name)
        FROM tickets t LEFT JOIN departments dp ON dp.id = t.department_id WHERE t.id = p_id
    $$;

    -- The endpoint's facts for webhook.ping's data; its secrets left out.
    CREATE FUNCTION hc_event_snapshot_webhook(p_id text) RETURNS jsonb LANGUAGE sql STABLE AS $$
      SELECT to_jsonb(w) - 'secret' - 'previous_secret' FROM webhook_endpoints w WHERE w.id = p_id
    $$;

    -- The type names the function: resource types are lower-case words (core/events/catalogue.ts),
    -- and %I quotes anything else, so no type reaches the statement as SQL. Planned at each call
    -- (a dynamic statement), which costs microseconds against the event's insert.
    CREATE OR REPLACE FUNCTION hc_event_snapshot(p_type text, p_id text) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
    DECLARE
      fn text := 'hc_event_snapshot_' || p_type;
      snap jsonb;
    BEGIN
      IF to_regprocedure(format('%I(text)', fn)) IS NULL THEN RETURN NULL; END IF;
      EXECUTE format('SELECT %I($1)', fn) INTO snap USING p_id;
      RETURN snap;
    END $$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(eventSnapshotCase(true, WEBHOOK_ARM)).execute(db);
  for (const t of TYPES) await sql`DROP FUNCTION ${sql.id(`hc_event_snapshot_${t}`)}(text)`.execute(db);
}
