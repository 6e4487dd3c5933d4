// Versioned migrations, listed here in order (a static list works the same from TypeScript
// source and from a bundle). Never edit a migration that has shipped: add the next one.
import { type Kysely, type Migration, Migrator } from 'kysely';
import * as m0001 from './migrations/0001_initial.ts';
import * as m0002 from './migrations/0002_servers.ts';
import * as m0003 from './migrations/0003_unclaimed_jobs.ts';
import * as m0005 from './migrations/0005_notifications.ts';
import * as m0006 from './migrations/0006_domains.ts';
import * as m0007 from './migrations/0007_web_hosting.ts';
import * as m0008 from './migrations/0008_vdc.ts';
import * as m0009 from './migrations/0009_account_extras.ts';
import * as m0010 from './migrations/0010_nodes.ts';
import * as m0011 from './migrations/0011_v1.ts';
import * as m0013 from './migrations/0013_recurring_billing.ts';
import * as m0014 from './migrations/0014_perf.ts';
import * as m0015 from './migrations/0015_server_node_holds.ts';
import * as m0016 from './migrations/0016_sim_lease_function.ts';
import * as m0017 from './migrations/0017_node_holds_when_changed.ts';
import * as m0018 from './migrations/0018_worker_hot_path.ts';
import * as m0019 from './migrations/0019_abort_statement.ts';
import * as m0020 from './migrations/0020_sim_plans_by_index.ts';
import * as m0030 from './migrations/0030_lxd.ts';
import * as m0031 from './migrations/0031_ip_reservation.ts';
import * as m0032 from './migrations/0032_console_attach.ts';
import * as m0060 from './migrations/0060_payments_invoices.ts';
import * as m0061 from './migrations/0061_payment_refunds.ts';
import * as m0062 from './migrations/0062_payment_sweep.ts';
import * as m0040 from './migrations/0040_operation_finished_notify.ts';
import * as m0041 from './migrations/0041_events.ts';
import * as m0042 from './migrations/0042_webhooks.ts';
import * as m0043 from './migrations/0043_webhook_delivery_leases.ts';
import * as m0050 from './migrations/0050_panel.ts';
import * as m0070 from './migrations/0070_ip_pools_out_of_sim.ts';
import * as m0100 from './migrations/0100_dns.ts';
import * as m0080 from './migrations/0080_operation_cancel.ts';
import * as m0085 from './migrations/0085_panel_sign_up_without_password.ts';
import * as m0110 from './migrations/0110_hosting_nodes.ts';
import * as m0120 from './migrations/0120_registrar_messages.ts';
import * as m0140 from './migrations/0140_event_snapshot_per_type.ts';
import * as m0160 from './migrations/0160_hosting_page.ts';
import * as m0170 from './migrations/0170_registrar_contact_sync.ts';
import * as m0190 from './migrations/0190_staff.ts';
import * as m0230 from './migrations/0230_dns_outbox_serial.ts';
import * as m0250 from './migrations/0250_ticket_assignment.ts';
import * as m0255 from './migrations/0255_impersonation.ts';
import * as m0260 from './migrations/0260_branding.ts';

const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_servers': m0002,
  '0003_unclaimed_jobs': m0003,
  '0005_notifications': m0005,
  '0006_domains': m0006,
  '0007_web_hosting': m0007,
  '0008_vdc': m0008,
  '0009_account_extras': m0009,
  '0010_nodes': m0010,
  '0011_v1': m0011,
  '0013_recurring_billing': m0013,
  '0014_perf': m0014,
  '0015_server_node_holds': m0015,
  '0016_sim_lease_function': m0016,
  '0017_node_holds_when_changed': m0017,
  '0018_worker_hot_path': m0018,
  '0019_abort_statement': m0019,
  '0020_sim_plans_by_index': m0020,
  '0030_lxd': m0030,
  '0031_ip_reservation': m0031,
  '0032_console_attach': m0032,
  '0060_payments_invoices': m0060,
  '0061_payment_refunds': m0061,
  '0062_payment_sweep': m0062,
  '0040_operation_finished_notify': m0040,
  '0041_events': m0041,
  '0042_webhooks': m0042,
  '0043_webhook_delivery_leases': m0043,
  '0050_panel': m0050,
  '0070_ip_pools_out_of_sim': m0070,
  '0100_dns': m0100,
  '0080_operation_cancel': m0080,
  '0085_panel_sign_up_without_password': m0085,
  '0110_hosting_nodes': m0110,
  '0120_registrar_messages': m0120,
  '0140_event_snapshot_per_type': m0140,
  '0160_hosting_page': m0160,
  '0170_registrar_contact_sync': m0170,
  '0190_staff': m0190,
  '0230_dns_outbox_serial': m0230,
  '0250_ticket_assignment': m0250,
  '0255_impersonation': m0255,
  '0260_branding': m0260,
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works on any schema
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // Numbers are handed to branches developed side by side and land in merge order, so a database
  // migrated before a merge may lack a lower number (0006 after 0008 and 0009 ran): it runs then.
  // Each migration adds only its own tables and columns, so their order does not matter.
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
