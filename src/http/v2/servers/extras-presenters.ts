// v2 resources of a server's extras: snapshots, addresses, firewall rules, console sessions,
// metrics and traffic. Most of their field names are this service's own, chosen to say what each
// endpoint answers; the reference at /docs is where customers read them.
import { Type } from '@sinclair/typebox';
import type { ConsoleSession } from '../../../core/servers/console.ts';
import { ipBody } from '../../../core/servers/ips.ts';
import { ts } from '../../../core/time.ts';
import type { Snapshot } from '../../../db/schema.ts';
import type { Metrics } from '../../../providers/compute/types.ts';
import { MoneySchema, StringEnum, Timestamp, component, ref } from '../../schemas.ts';

export const SnapshotSchema = component('Snapshot', Type.Object({
  id: Type.Integer({ description: 'The `source.snapshot_id` of POST /servers.', examples: [42] }),
  name: Type.String({ examples: ['before-upgrade'] }),
  status: StringEnum(['creating', 'available'] as const),
  size_gb: Type.Union([Type.Number({ examples: [12.5] }), Type.Null()], { description: 'null while the snapshot is being created' }),
  created_at: Timestamp,
}, { description: 'A snapshot of a server\'s disk; billed monthly (the protection fee) until deleted.' }));

export function snapshotView(s: Snapshot) {
  return { id: s.id, name: s.name, status: s.status, size_gb: s.size_gb === null ? null : Number(s.size_gb), created_at: ts(s.created_at) };
}

export const IpEntrySchema = component('IpAddress', Type.Object({
  address: Type.String({ examples: ['203.0.113.10'] }),
  version: Type.Integer({ enum: [4, 6], examples: [4] }),
  type: StringEnum(['primary', 'extra'] as const, { description: 'primary: part of the server; extra: billed on its own' }),
  gateway: Type.Union([Type.String(), Type.Null()], { description: 'Gateway of a primary address; null for extra ones (routed via the primary)' }),
  monthly_price: Type.Union([ref(MoneySchema), Type.Null()], { description: 'What an extra address adds to the monthly bill; null for primary ones' }),
}, { description: 'An address of a server.' }));

/**
 * The core builds this body (ipBody): a purchase's response may be stored for an Idempotency-Key
 * replay by the worker, which has no HTTP layer, and a list entry must look the same.
 */
export const ipView = ipBody;

export const FirewallRuleSchema = component('FirewallRule', Type.Object({
  position: Type.Integer({ description: 'Rules apply in ascending position; the first match decides', examples: [1] }),
  direction: StringEnum(['inbound', 'outbound'] as const),
  protocol: StringEnum(['tcp', 'udp', 'icmp', 'any'] as const),
  port: Type.Union([Type.String({ examples: ['22', '8000-8100'] }), Type.Null()], { description: 'null = every port' }),
  source: Type.String({ examples: ['0.0.0.0/0'] }),
  action: StringEnum(['accept', 'drop'] as const),
}, { description: 'A stateful firewall rule of a server.' }));

export const ConsoleSessionSchema = component('ConsoleSession', Type.Object({
  viewer_url: Type.String({ description: 'Single use, valid for expires_in seconds; opens without an API key', examples: ['https://api.example.net/v2/console/tkt_9Qw2?expires=1795338900&signature=5d1f…'] }),
  expires_at: Timestamp,
  expires_in: Type.Integer({ examples: [300] }),
}, { description: 'A one-time link to the server\'s console.' }));

export function consoleView(c: ConsoleSession) {
  return { viewer_url: c.viewerUrl, expires_at: ts(c.expiresAt), expires_in: c.expiresIn };
}

const Pct = Type.Number({ minimum: 0, maximum: 100, examples: [12.5] });

export const MetricsSchema = component('Metrics', Type.Object(
  { cpu_pct: Pct, memory_pct: Pct, disk_pct: Pct, sampled_at: Timestamp },
  { description: 'Utilization in percent, the latest sample from the platform.' },
));

export function metricsView(m: Metrics) {
  return { cpu_pct: m.cpu_pct, memory_pct: m.memory_pct, disk_pct: m.disk_pct, sampled_at: ts(m.sampled_at) };
}

export const TrafficSchema = component('Traffic', Type.Object({
  month: Type.String({ pattern: '^\\d{4}-\\d{2}$', examples: ['2026-11'] }),
  in_bytes: Type.Integer({ minimum: 0, examples: [1250000000] }),
  out_bytes: Type.Integer({ minimum: 0, examples: [380000000] }),
  quota_bytes: Type.Integer({ minimum: 0, description: "The plan's monthly transfer allowance (decimal GB), or the platform's", examples: [2000000000000] }),
}, { description: 'This month\'s (UTC) traffic of a server.' }));
