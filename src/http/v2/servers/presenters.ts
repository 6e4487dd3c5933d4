// Server and operation resources of v2, shared by the server route files.
import { Type } from '@sinclair/typebox';
import { CURRENCY, formatCents } from '../../../core/money.ts';
import type { ServerView } from '../../../core/servers/read.ts';
import { ts } from '../../../core/time.ts';
import type { Operation, Server } from '../../../db/schema.ts';
import type { ServerListRow } from '../../../db/queries/servers.ts';
import { NullableTimestamp, StringEnum, Timestamp } from '../../schemas.ts';

const STATUSES = ['active', 'suspended', 'pending', 'cancelled'] as const;
const POWER_STATES = ['running', 'stopped', 'starting', 'stopping', 'provisioning', 'migrating', 'error', 'unknown'] as const;
const NullableString = Type.Union([Type.String(), Type.Null()]);

const Specs = Type.Object({ cpu_cores: Type.Integer(), ram_mb: Type.Integer(), storage_gb: Type.Integer() });
const PlanRef = Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()]);
const Billing = Type.Object({
  amount: Type.String({ description: 'Monthly amount, decimal USD', examples: ['15.00'] }),
  currency: Type.String(),
  cycle: Type.String({ examples: ['monthly'] }),
  next_billing_at: Timestamp,
});

export const OperationSchema = Type.Object({
  id: Type.String({ examples: ['op_4Kq9vX2mLp8RtY1z'] }),
  type: Type.String({ examples: ['server.create'] }),
  status: StringEnum(['queued', 'running', 'completed', 'failed'] as const),
  resource: Type.Object({ type: Type.String(), id: Type.String() }),
  progress_pct: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'Present while running (and 100 once completed).' })),
  detail: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
}, { title: 'Operation' });

export function operationView(op: Operation) {
  return {
    id: op.id,
    type: op.type,
    status: op.status,
    resource: { type: op.resource_type, id: op.resource_id },
    ...(op.status === 'running' || op.status === 'completed' ? { progress_pct: op.progress_pct } : {}),
    detail: op.detail,
    created_at: ts(op.created_at),
    updated_at: ts(op.updated_at),
  };
}

export const ServerListItemSchema = Type.Object({
  id: Type.String({ examples: ['srv_8fJ2kLmN4pQ7rS1t'] }),
  name: Type.String(),
  status: StringEnum(STATUSES),
  power_state: Type.Null({ description: 'Always null in lists; read the server for its live state.' }),
  specs: Specs,
  plan: PlanRef,
  billing: Billing,
}, { title: 'ServerListItem' });

const Network = Type.Object({
  ipv4: Type.Union([Type.Object({ address: Type.String(), gateway: Type.String(), netmask: Type.String(), subnet: Type.String() }), Type.Null()]),
  ipv6: Type.Union([Type.Object({ address: Type.String(), gateway: NullableString, subnet: Type.String() }), Type.Null()]),
  extra_ips: Type.Array(Type.Object({ address: Type.String(), version: Type.Integer({ enum: [4, 6] }) })),
});

export const ServerSchema = Type.Object({
  id: Type.String({ examples: ['srv_8fJ2kLmN4pQ7rS1t'] }),
  name: Type.String(),
  status: StringEnum(STATUSES),
  power_state: Type.Union([StringEnum(POWER_STATES), Type.Null()]),
  os: NullableString,
  location_id: Type.Integer(),
  specs: Specs,
  network: Network,
  plan: PlanRef,
  billing: Billing,
  created_at: NullableTimestamp,
}, { title: 'Server' });

function billingOf(s: Server) {
  return { amount: formatCents(s.price_cents), currency: CURRENCY, cycle: s.cycle, next_billing_at: ts(s.next_billing_at) };
}

const specsOf = (s: Server) => ({ cpu_cores: s.cpu_cores, ram_mb: s.ram_mb, storage_gb: s.storage_gb });

export function serverListItemView(s: ServerListRow) {
  return {
    id: s.id, name: s.name, status: s.status, power_state: null, specs: specsOf(s),
    plan: s.plan_id === null ? null : { id: s.plan_id, name: s.plan_name ?? '' }, billing: billingOf(s),
  };
}

export function serverView(v: ServerView) {
  const s = v.server;
  return {
    id: s.id,
    name: s.name,
    status: s.status,
    power_state: v.power,
    os: v.os,
    location_id: s.location_id,
    specs: specsOf(s),
    network: { ipv4: s.network?.ipv4 ?? null, ipv6: s.network?.ipv6 ?? null, extra_ips: v.extraIps },
    plan: v.plan,
    billing: billingOf(s),
    created_at: ts(s.created_at),
  };
}

/** Path parameter of every server route. */
export const ServerParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'Server id (srv_…)' }) });
