// Events (core/events/catalogue.ts): what changed for a customer, written in the transaction of
// the change. `data` holds the resource's facts at that moment - its row and what its API
// representation reads beside it (a server's plan name, OS and addresses; a domain's prices) - and
// the API version that shows the event presents them (http/v2/events/presenters.ts). Secrets are
// left out (a domain's auth code, an operation's params).
//
// hc_emit_event(account, type, resource type, resource id[, data]) writes one: `data` given, or
// read by hc_event_snapshot from the resource's row as it stands in the transaction. Two triggers
// call it where every path meets:
//  - operations: at the commit that finishes one (a DEFERRED constraint trigger: it runs when the
//    transaction commits, so the resource is read with every change of that transaction applied -
//    the worker's one-statement completion writes the server's addresses in a sibling part of the
//    same statement, which a plain trigger on the operation's update could not see), the operation's
//    event and, for the types hc_completion_event names, the resource's own;
//  - transactions (the ledger): the billing event of each row.
// A rolled-back transaction (the sandbox's, a refused create) commits no event.
import { type Kysely, sql } from 'kysely';

// The snapshot as one CASE over every resource type (replaced by one function a type in 0140).
// 0042 and 0140's down make it again with one more arm; shipped, so its text stays as it is.
export function eventSnapshotCase(orReplace: boolean, moreArms = ''): string {
  return `
    CREATE ${orReplace ? 'OR REPLACE ' : ''}FUNCTION hc_event_snapshot(p_type text, p_id text) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
    DECLARE
      snap jsonb;
    BEGIN
      CASE p_type
        WHEN 'operation' THEN
          SELECT to_jsonb(o) - 'params' INTO snap FROM operations o WHERE o.id = p_id;
        WHEN 'server' THEN
          SELECT to_jsonb(s) || jsonb_build_object(
                   'plan_name', (SELECT p.name FROM plans p WHERE p.id = s.plan_id),
                   'os_slug', (SELECT os.slug FROM operating_systems os WHERE os.id = s.os_version_id),
                   'extra_ips', coalesce((
                     SELECT jsonb_agg(jsonb_build_object('address', host(ip.address), 'version', ip.version) ORDER BY ip.id)
                       FROM server_ips ip WHERE ip.server_id = s.id AND ip.released_at IS NULL AND ip.address IS NOT NULL), '[]'::jsonb))
            INTO snap FROM servers s WHERE s.id = p_id;
        WHEN 'vdc_vm' THEN
          SELECT to_jsonb(v) || jsonb_build_object('os_slug', os.slug, 'os_family', os.family, 'os_version', os.version, 'location_provider', l.provider)
            INTO snap FROM vdc_vms v JOIN locations l ON l.id = v.location_id LEFT JOIN operating_systems os ON os.id = v.os_version_id
           WHERE v.id = p_id;
        WHEN 'domain' THEN
          SELECT (to_jsonb(d) - 'auth_code') || jsonb_build_object('price', to_jsonb(tp))
            INTO snap FROM domains d JOIN tld_prices tp ON tp.tld = d.tld WHERE d.id = p_id;
        WHEN 'web_hosting' THEN
          SELECT to_jsonb(w) || jsonb_build_object('package_name', hp.name, 'quota_mb', hp.disk_quota_mb, 'max_domains', hp.max_domains)
            INTO snap FROM web_hosting w JOIN hosting_packages hp ON hp.id = w.package_id WHERE w.id = p_id;
        WHEN 'transaction' THEN
          SELECT to_jsonb(t) INTO snap FROM transactions t WHERE t.id = p_id::bigint;
        WHEN 'billing_charge' THEN
          SELECT to_jsonb(bc) INTO snap FROM billing_charges bc WHERE bc.id = p_id::bigint;
        WHEN 'ticket' THEN
          SELECT to_jsonb(t) || jsonb_build_object('department_name', dp.name)
            INTO snap FROM tickets t LEFT JOIN departments dp ON dp.id = t.department_id WHERE t.id = p_id;
${moreArms}        ELSE
          snap := NULL;
      END CASE;
      RETURN snap;
    END $$;
`;
}

// The event's row, its data given or read (0042's hc_emit_event writes it alike).
export const WRITE_EVENT = `    DECLARE
      v_id text := hc_new_id('evt');
    BEGIN
      INSERT INTO events (id, account_id, type, resource_type, resource_id, data)
      VALUES (v_id, p_account, p_type, p_resource_type, p_resource_id,
              coalesce(p_data, hc_event_snapshot(p_resource_type, p_resource_id), jsonb_build_object('id', p_resource_id)));
`;

// hc_emit_event as 0041 made it; 0042's down makes it again.
export const EMIT_EVENT = `
    CREATE FUNCTION hc_emit_event(p_account text, p_type text, p_resource_type text, p_resource_id text, p_data jsonb DEFAULT NULL)
    RETURNS text LANGUAGE plpgsql AS $$
${WRITE_EVENT}      RETURN v_id;
    END $$;
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- A public id as core/ids.ts makes them: the prefix, "_" and 16 base62 characters - here the
    -- base64 of two random UUIDs with "+", "/" and "=" left out (what remains is uniform over the 62
    -- others; the UUIDs' few fixed version bits cost an id a bit or two of its ~95). One expression
    -- rather than a loop per character: it is computed for every event.
    CREATE FUNCTION hc_new_id(prefix text) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
    DECLARE
      chars text;
    BEGIN
      LOOP
        chars := translate(encode(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()), 'base64'), '+/=', '');
        -- 44 characters less those three: fewer than 16 left is all but impossible, but not quite.
        IF length(chars) >= 16 THEN RETURN prefix || '_' || left(chars, 16); END IF;
      END LOOP;
    END $$;

    CREATE TABLE events (
      id            text PRIMARY KEY,
      -- Insertion order: lists go newest first by it.
      seq           bigint GENERATED ALWAYS AS IDENTITY,
      account_id    text NOT NULL REFERENCES accounts (id),
      type          text NOT NULL CHECK (type ~ '^[a-z][a-z0-9_]*[.][a-z][a-z0-9_]*$'),
      resource_type text NOT NULL,
      resource_id   text NOT NULL,
      data          jsonb NOT NULL,
      created_at    timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX events_account_newest ON events (account_id, seq DESC);
    CREATE INDEX events_account_type_newest ON events (account_id, type, seq DESC);
    CREATE INDEX events_account_resource_newest ON events (account_id, resource_id, seq DESC);
    -- Retention (EVENT_RETENTION_DAYS) finds the oldest: rows arrive in created_at order, so a BRIN
    -- index (a few pages, next to nothing to maintain per insert) serves it.
    CREATE INDEX events_created ON events USING brin (created_at);

${sql.raw(eventSnapshotCase(false))}

${sql.raw(EMIT_EVENT)}

    -- core/events/catalogue.ts COMPLETION_EVENTS.
    CREATE FUNCTION hc_completion_event(p_operation_type text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
      SELECT CASE p_operation_type
        WHEN 'server.create' THEN 'server.created'
        WHEN 'vdc_vm.create' THEN 'vdc_vm.created'
        WHEN 'domain.register' THEN 'domain.registered'
        WHEN 'domain.transfer' THEN 'domain.transferred'
        WHEN 'domain.renew' THEN 'domain.renewed'
        WHEN 'hosting.create' THEN 'web_hosting.created'
      END
    $$;

    -- core/events/catalogue.ts LEDGER_EVENTS.
    CREATE FUNCTION hc_ledger_event_type(p_transaction_type text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
      SELECT CASE p_transaction_type
        WHEN 'deposit' THEN 'billing.deposit'
        WHEN 'withdraw' THEN 'billing.charge_succeeded'
        WHEN 'refund' THEN 'billing.refunded'
      END
    $$;

    CREATE FUNCTION hc_operation_finished_events() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      op operations;
      resource_event text;
    BEGIN
      -- As it stands at commit.
      SELECT * INTO op FROM operations WHERE id = NEW.id;
      IF op.status NOT IN ('completed', 'failed') THEN RETURN NULL; END IF;
      PERFORM hc_emit_event(op.account_id, 'operation.' || op.status, 'operation', op.id, to_jsonb(op) - 'params');
      IF op.status = 'completed' THEN
        resource_event := hc_completion_event(op.type);
        IF resource_event IS NOT NULL THEN
          PERFORM hc_emit_event(op.account_id, resource_event, op.resource_type, op.resource_id);
        END IF;
      END IF;
      RETURN NULL;
    END $$;

    CREATE CONSTRAINT TRIGGER operations_finished_events
      AFTER UPDATE OF status ON operations
      DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW
      WHEN (NEW.status IN ('completed', 'failed') AND OLD.status IS DISTINCT FROM NEW.status)
      EXECUTE FUNCTION hc_operation_finished_events();

    CREATE FUNCTION hc_ledger_event() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM hc_emit_event(NEW.account_id, hc_ledger_event_type(NEW.type), 'transaction', NEW.id::text, to_jsonb(NEW));
      RETURN NULL;
    END $$;

    CREATE TRIGGER transactions_event
      AFTER INSERT ON transactions
      FOR EACH ROW EXECUTE FUNCTION hc_ledger_event();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER transactions_event ON transactions;
    DROP FUNCTION hc_ledger_event();
    DROP TRIGGER operations_finished_events ON operations;
    DROP FUNCTION hc_operation_finished_events();
    DROP FUNCTION hc_ledger_event_type(text);
    DROP FUNCTION hc_completion_event(text);
    DROP FUNCTION hc_emit_event(text, text, text, text, jsonb);
    DROP FUNCTION hc_event_snapshot(text, text);
    DROP TABLE events;
    DROP FUNCTION hc_new_id(text);
  `.execute(db);
}
