// v2 resources of a server's extras: snapshots, addresses, firewall rules, console sessions,
// metrics and traffic. The spec shows few of their fields; where it is silent the names follow
// the endpoint descriptions (see "other resources").
import { Type } from '@sinclair/typebox';
import type { ConsoleSession } from '../../../core/servers/console.ts';
import { ipBody } from '../../../core/servers/ips.ts';
import { ts } from '../../../core/time.ts';
import type { Snapshot } from '../../../db/schema.ts';
import type { Metrics } from '../../../providers/compute/types.ts';
import { MoneySchema, StringEnum, Timestamp } from '../../schemas.ts';

export const SnapshotSchema = Type.Object({
  id: Type.Integer({ examples: [42] }),
  name: Type.String(),
  status: StringEnum(['creating', 'available'] as const),
  size_gb: Type.Union([Type.Number(), Type.Null()], { description: 'null while the snapshot is being created' }),
  created_at: Timestamp,
}, { title: 'Snapshot' });

export function snapshotView(s: Snapshot) {
  return { id: s.id, name: s.name, status: s.status, size_gb: s.size_gb === null ? null : Number(s.size_gb), created_at: ts(s.created_at) };
}

export const IpEntrySchema = Type.Object({
  address: Type.String({ examples: ['203.0.113.10'] }),
  version: Type.Integer({ enum: [4, 6] }),
  type: StringEnum(['primary', 'extra'] as const, { description: 'primary: part of the server; extra: billed on its own' }),
  gateway: Type.Union([Type.String(), Type.Null()], { description: 'Gateway of a primary address; null for extra ones (routed via the primary)' }),
  monthly_price: Type.Union([Type.Ref(MoneySchema), Type.Null()], { description: 'What an extra address adds to the monthly bill; null for primary ones' }),
}, { title: 'IpAddress' });

/**
 * The core builds this body (ipBody): a purchase's response may be stored for an Idempotency-Key
 * replay by the worker, which has no HTTP layer, and a list entry must look the same.
 */
export const ipView = ipBody;

export const FirewallRuleSchema = Type.Object({
  position: Type.Integer({ description: 'Rules apply in ascending position; the first match decides' }),
  direction: StringEnum(['inbound', 'outbound'] as const),
  protocol: StringEnum(['tcp', 'udp', 'icmp', 'any'] as const),
  port: Type.Union([Type.String({ examples: ['22', '8000-8100'] }), Type.Null()], { description: 'null = every port' }),
  source: Type.String({ examples: ['0.0.0.0/0'] }),
  action: StringEnum(['accept', 'drop'] as const),
}, { title: 'FirewallRule' });

export const ConsoleSessionSchema = Type.Object({
  viewer_url: Type.String({ description: 'Single use, valid for expires_in seconds; opens without an API key' }),
  expires_at: Timestamp,
  expires_in: Type.Integer({ examples: [300] }),
}, { title: 'ConsoleSession' });

export function consoleView(c: ConsoleSession) {
  return { viewer_url: c.viewerUrl, expires_at: ts(c.expiresAt), expires_in: c.expiresIn };
}

const Pct = Type.Number({ minimum: 0, maximum: 100 });

export const MetricsSchema = Type.Object({ cpu_pct: Pct, memory_pct: Pct, disk_pct: Pct, sampled_at: Timestamp }, { title: 'Metrics' });

export function metricsView(m: Metrics) {
  return { cpu_pct: m.cpu_pct, memory_pct: m.memory_pct, disk_pct: m.disk_pct, sampled_at: ts(m.sampled_at) };
}

export const TrafficSchema = Type.Object({
  month: Type.String({ pattern: '^\\d{4}-\\d{2}$', examples: ['2026-11'] }),
  in_bytes: Type.Integer({ minimum: 0 }),
  out_bytes: Type.Integer({ minimum: 0 }),
  quota_bytes: Type.Integer({ minimum: 0, description: "The plan's monthly transfer allowance (decimal GB), or the platform's" }),
}, { title: 'Traffic' });
