// What v1 has and v2 gained from it: reverse DNS of server addresses, kept at the platform (the
// simulated one's table) and read back from ours.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE server_reverse_dns (
      server_id  text NOT NULL REFERENCES servers (id),
      address    text NOT NULL,
      hostname   text NOT NULL CHECK (length(hostname) BETWEEN 1 AND 253),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (server_id, address)
    );

    -- One PTR record per address; it goes with the address when the machine releases it.
    CREATE TABLE sim_reverse_dns (
      address    text PRIMARY KEY,
      vm_id      text NOT NULL REFERENCES sim_vms (id),
      hostname   text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX sim_reverse_dns_vm ON sim_reverse_dns (vm_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE sim_reverse_dns, server_reverse_dns`.execute(db);
}
