// Servers in v1's shape (a list item, and the detail):
// `server_id` is the v2 id; money is a number; the status folds v2's status and power state
// into v1's values.
import { Type } from '@sinclair/typebox';
import type { HeldAddress } from '../../../core/servers/addresses.ts';
import type { ServerView } from '../../../core/servers/read.ts';
import { BYTES_PER_GB, type TrafficSummary } from '../../../core/servers/telemetry.ts';
import type { PowerState, Server, ServerStatus, Snapshot } from '../../../db/schema.ts';
import type { ServerListRow } from '../../../db/queries/servers.ts';
import { intIdOr404 } from '../ids.ts';
import { Nullable, V1Money, V1Timestamp } from '../schemas.ts';
import { v1money, v1time } from '../reply.ts';

/** v1's status values (its filter takes the first three); `pending` and `cancelled` are v2's own. */
export const V1_STATUSES = ['active', 'stopped', 'suspended', 'pending', 'cancelled'] as const;
export type V1Status = (typeof V1_STATUSES)[number];

export function v1Status(status: ServerStatus, power: PowerState): V1Status {
  if (status === 'active' && power === 'stopped') return 'stopped';
  return status;
}

/** v1's filter → the core's (status and whether powered off). */
export function statusFilter(v1: 'active' | 'stopped' | 'suspended' | undefined): { status?: ServerStatus; stopped?: boolean } {
  if (v1 === 'active') return { status: 'active', stopped: false };
  if (v1 === 'stopped') return { status: 'active', stopped: true };
  if (v1 === 'suspended') return { status: 'suspended' };
  return {};
}

export const ServerIdParams = Type.Object({
  server_id: Type.String({ minLength: 1, maxLength: 64, description: 'The server id (the same as v2\'s `id`).', examples: ['srv_8fJ2kLmN4pQ7rS1t'] }),
});

const status = Type.String({ enum: [...V1_STATUSES], description: '`active` (running or starting), `stopped` (powered off), `suspended` (unpaid); `pending` while being created.' });

export const V1ServerListItem = Type.Object({
  server_id: Type.String({ examples: ['srv_8fJ2kLmN4pQ7rS1t'] }),
  name: Type.String({ examples: ['web-1.example.com'] }),
  status,
  ip_address: Nullable(Type.String({ description: 'Primary IPv4 address; null until provisioned.', examples: ['10.1.0.23'] })),
  package: Nullable(Type.Object({ id: Type.Integer({ examples: [1] }), name: Type.String({ examples: ['Cloud S'] }) }, { description: 'null for a server sized per unit (v2 custom mode).' })),
  amount: V1Money('Monthly price, USD.'),
  next_billing_date: V1Timestamp,
});

export function v1ListItem(s: ServerListRow) {
  return {
    server_id: s.id,
    name: s.name,
    status: v1Status(s.status, s.power_state),
    ip_address: s.ipv4_address,
    package: s.plan_id === null ? null : { id: s.plan_id, name: s.plan_name ?? '' },
    amount: v1money(s.price_cents),
    next_billing_date: v1time(s.next_billing_at),
  };
}

// --- detail, addresses, snapshots --------------------------------------------------------------

const IpType = Type.String({ enum: ['IPv4', 'IPv6'], examples: ['IPv4'] });
const ipTypeOf = (version: 4 | 6) => (version === 4 ? 'IPv4' : 'IPv6');

export const V1IpEntry = Type.Object({
  ip_address: Type.String({ examples: ['10.1.0.42'] }),
  type: IpType,
  rdns: Nullable(Type.String({ description: 'The PTR name; null when none is set.', examples: ['mail.example.com'] })),
});

export function v1IpEntry(address: string, version: 4 | 6, rdns: Map<string, string>) {
  return { ip_address: address, type: ipTypeOf(version), rdns: rdns.get(address) ?? null };
}

export const V1ServerDetail = Type.Object({
  server_id: Type.String({ examples: ['srv_8fJ2kLmN4pQ7rS1t'] }),
  name: Type.String({ examples: ['web-1.example.com'] }),
  status,
  primary_ip: Nullable(Type.Object({
    ip_address: Type.String({ examples: ['10.1.0.23'] }),
    rdns: Nullable(Type.String({ examples: ['web-1.example.com'] })),
  }, { description: 'The primary IPv4 address and its PTR name; null until provisioned.' })),
  extra_ips: Type.Array(V1IpEntry),
  traffic_usage: Type.Object({
    upload_used: Nullable(Type.Integer({ minimum: 0, description: 'Bytes sent this month; null while the platform cannot say.', examples: [1048576] })),
    download_used: Nullable(Type.Integer({ minimum: 0, description: 'Bytes received this month; null while the platform cannot say.', examples: [52428800] })),
    upload_limit: Nullable(Type.Number({ minimum: 0, description: 'Monthly transfer allowance, in upload_limit_unit.', examples: [1000] })),
    upload_limit_unit: Type.String({ enum: ['GB'], description: 'Decimal gigabytes (10^9 bytes).' }),
  }),
});

export interface DetailParts {
  view: ServerView;
  rdns: Map<string, string>;
  traffic: TrafficSummary;
}

export function v1Detail({ view, rdns, traffic }: DetailParts) {
  const s = view.server;
  const v4 = s.network?.ipv4?.address;
  return {
    server_id: s.id,
    name: s.name,
    status: v1Status(s.status, view.power === null || view.power === 'unknown' ? s.power_state : view.power),
    primary_ip: v4 ? { ip_address: v4, rdns: rdns.get(v4) ?? null } : null,
    extra_ips: view.extraIps.map((ip) => v1IpEntry(ip.address, ip.version, rdns)),
    traffic_usage: {
      upload_used: traffic.out_bytes,
      download_used: traffic.in_bytes,
      upload_limit: traffic.quota_bytes === null ? null : traffic.quota_bytes / BYTES_PER_GB,
      upload_limit_unit: 'GB' as const,
    },
  };
}

export const V1IpList = Type.Object({
  server_id: Type.String({ examples: ['srv_8fJ2kLmN4pQ7rS1t'] }),
  primary_ip: Nullable(Type.Object({
    ip_address: Type.String({ examples: ['10.1.0.23'] }),
    type: IpType,
    rdns: Nullable(Type.String({ examples: ['web-1.example.com'] })),
  }, { description: 'The primary IPv4 address; null until provisioned.' })),
  extra_ips: Type.Array(V1IpEntry),
  ipv6_address: Nullable(Type.String({ description: 'The primary IPv6 address; null without one.', examples: ['2001:db8:1::17'] })),
});

export function v1IpList(server: Server, held: HeldAddress[], rdns: Map<string, string>) {
  const primary = held.find((a) => a.type === 'primary' && a.version === 4);
  return {
    server_id: server.id,
    primary_ip: primary ? v1IpEntry(primary.address, 4, rdns) : null,
    extra_ips: held.filter((a) => a.type === 'extra').map((a) => v1IpEntry(a.address, a.version, rdns)),
    ipv6_address: held.find((a) => a.type === 'primary' && a.version === 6)?.address ?? null,
  };
}

export const V1Rdns = Type.Object({
  ip_address: Type.String({ examples: ['10.1.0.23'] }),
  rdns: Nullable(Type.String({ examples: ['mail.example.com'] })),
});

export const V1Snapshot = Type.Object({
  id: Type.String({ description: 'The snapshot id (v2\'s integer id, as a string).', examples: ['42'] }),
  name: Type.String({ examples: ['before-upgrade'] }),
  created_at: V1Timestamp,
});

export function v1Snapshot(s: Snapshot) {
  return { id: String(s.id), name: s.name, created_at: v1time(s.created_at) };
}

export const SnapshotParams = Type.Object({
  ...ServerIdParams.properties,
  snapshot_id: Type.String({ minLength: 1, maxLength: 20, description: 'The snapshot id.', examples: ['42'] }),
});

/** v1 path ids are strings: one that cannot be a snapshot id names no snapshot (404, as an unknown one). */
export function snapshotIdOf(text: string): number {
  return intIdOr404(text, 'Snapshot');
}

export const AddressParams = Type.Object({
  ...ServerIdParams.properties,
  ip_address: Type.String({ minLength: 1, maxLength: 64, description: 'An address of the server, IPv4 or IPv6.', examples: ['10.1.0.42'] }),
});
