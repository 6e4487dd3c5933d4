// Server and operation resources of v2, shared by the server route files.
import { Type } from '@sinclair/typebox';
import { CURRENCY, formatCents } from '../../../core/money.ts';
import { OPERATIONS, OPERATION_RESOURCE_DESCRIPTIONS, OPERATION_RESOURCE_TYPES, type OperationResourceType } from '../../../core/families.ts';
import { operationDetail } from '../../../core/operations/service.ts';
import type { ServerListEntry, ServerView } from '../../../core/servers/read.ts';
import { ts } from '../../../core/time.ts';
import type { Operation, Server } from '../../../db/schema.ts';
import { NullableTimestamp, StringEnum, Timestamp, component, ref } from '../../schemas.ts';
import { NextChargeField } from '../billing/presenters.ts';

const STATUSES = ['active', 'suspended', 'pending', 'cancelled'] as const;
const POWER_STATES = ['running', 'stopped', 'starting', 'stopping', 'provisioning', 'migrating', 'error', 'unknown'] as const;
const NullableString = Type.Union([Type.String(), Type.Null()]);

const Specs = Type.Object({
  cpu_cores: Type.Integer({ examples: [2] }),
  ram_mb: Type.Integer({ examples: [4096] }),
  storage_gb: Type.Integer({ examples: [80] }),
});
const PlanRef = Type.Union([
  Type.Object({ id: Type.Integer({ examples: [2] }), name: Type.String({ examples: ['Cloud M'] }) }),
  Type.Null(),
], { description: 'The package; null for a custom-size server.' });
const Billing = Type.Object({
  amount: Type.String({
    description: 'The server\'s monthly price, decimal USD: the machine (its package or custom size) plus its extra addresses. Snapshot fees are '
      + 'priced on their own and billed in the same cycle: `next_charge` (detail) shows the whole charge, with a `breakdown` into these parts.',
    examples: ['15.00'],
  }),
  currency: Type.String({ examples: ['USD'] }),
  cycle: Type.String({ examples: ['monthly'] }),
  next_billing_at: Timestamp,
});

/** `server.<verb>`: create, start, …; one group a prefix, from the catalogue. */
function operationTypesByFamily(): string {
  const verbs = new Map<string, string[]>();
  for (const type of Object.keys(OPERATIONS)) {
    const [prefix, verb] = type.split('.') as [string, string];
    verbs.set(prefix, [...(verbs.get(prefix) ?? []), verb]);
  }
  return [...verbs].map(([prefix, list]) => `\`${prefix}.<verb>\`: ${list.join(', ')}`).join('; ');
}

export const OperationSchema = component('Operation', Type.Object({
  id: Type.String({ examples: ['op_4Kq9vX2mLp8RtY1z'] }),
  type: Type.String({
    description: `${operationTypesByFamily()} (recurring billing's suspensions and the operator's migrations included).`,
    examples: ['server.create'],
  }),
  status: StringEnum(['queued', 'running', 'completed', 'failed'] as const, { description: 'queued → running → completed, or failed (see `detail`).' }),
  resource: Type.Object({
    type: StringEnum(OPERATION_RESOURCE_TYPES, {
      description: `What the operation acts on: ${OPERATION_RESOURCE_DESCRIPTIONS.join(', ')}.`,
    }),
    id: Type.String({ description: 'The id of that resource: `srv_…`, `vm_…`, `dom_…`, `wh_…`, or an address\'s number.', examples: ['srv_8fJ2kLmN4pQ7rS1t'] }),
  }),
  progress_pct: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'Present while running (and 100 once completed).', examples: [40] })),
  detail: Type.String({ description: 'Progress text; for a failed operation, why it failed.', examples: ['Queued for provisioning'] }),
  created_at: Timestamp,
  updated_at: Timestamp,
}, {
  description: 'Asynchronous work (a create, an action, a snapshot). Poll GET /operations/{id} until it is `completed` or `failed`.',
  // One whole operation as answered when it starts (a sample built field by field would mix states).
  examples: [{
    id: 'op_4Kq9vX2mLp8RtY1z', type: 'server.create', status: 'queued', resource: { type: 'server', id: 'srv_8fJ2kLmN4pQ7rS1t' },
    detail: 'Queued for provisioning', created_at: '2026-11-22T08:30:00Z', updated_at: '2026-11-22T08:30:00Z',
  }],
}));

export function operationView(op: Operation) {
  return {
    id: op.id,
    type: op.type,
    status: op.status,
    // Written only through startOperation, whose type admits these alone.
    resource: { type: op.resource_type as OperationResourceType, id: op.resource_id },
    ...(op.status === 'running' || op.status === 'completed' ? { progress_pct: op.progress_pct } : {}),
    detail: operationDetail(op),
    created_at: ts(op.created_at),
    updated_at: ts(op.updated_at),
  };
}

export const ServerListItemSchema = component('ServerListItem', Type.Object({
  id: Type.String({ examples: ['srv_8fJ2kLmN4pQ7rS1t'] }),
  name: Type.String({ examples: ['web-1.example.com'] }),
  status: StringEnum(STATUSES),
  power_state: Type.Union([StringEnum(POWER_STATES), Type.Null()], {
    description: 'null in lists, unless the list was asked with `include=power_state`: then the live power state, as the detail reads it (`unknown` when the platform did not answer).',
  }),
  location_id: Type.Optional(Type.Integer({ examples: [1], description: 'Only with `include=location`.' })),
  primary_ip: Type.Optional(Type.Union([Type.String({ examples: ['10.1.0.23'] }), Type.Null()], { description: 'Only with `include=primary_ip`: the primary IPv4 address; null until provisioned.' })),
  specs: Specs,
  plan: PlanRef,
  billing: Billing,
}, { description: 'A server as lists show it: no live state (`power_state` is null) unless asked for with `include=power_state`.' }));

const Network = Type.Object({
  ipv4: Type.Union([Type.Object({
    address: Type.String({ examples: ['10.1.0.23'] }),
    gateway: Type.String({ examples: ['10.1.0.1'] }),
    netmask: Type.String({ examples: ['255.255.255.0'] }),
    subnet: Type.String({ examples: ['10.1.0.0/24'] }),
  }), Type.Null()], { description: 'null until provisioned.' }),
  ipv6: Type.Union([Type.Object({
    address: Type.String({ examples: ['2001:db8:1::17'] }),
    gateway: NullableString,
    subnet: Type.String({ examples: ['2001:db8:1::/64'] }),
  }), Type.Null()], { description: 'null until provisioned, or when created with `ipv6_count: 0`.' }),
  extra_ips: Type.Array(Type.Object({ address: Type.String({ examples: ['10.1.0.42'] }), version: Type.Integer({ enum: [4, 6] }) })),
});

export const ServerSchema = component('Server', Type.Object({
  id: Type.String({ examples: ['srv_8fJ2kLmN4pQ7rS1t'] }),
  name: Type.String({ description: 'Host name.', examples: ['web-1.example.com'] }),
  status: StringEnum(STATUSES, { description: 'pending until provisioned, then active; cancelled if provisioning failed (and refunded).' }),
  power_state: Type.Union([StringEnum(POWER_STATES), Type.Null()], { description: 'Live from the platform; `unknown` if it does not answer in time.' }),
  os: Type.Union([Type.String({ examples: ['ubuntu-24.04'] }), Type.Null()], { description: 'OS slug.' }),
  location_id: Type.Integer({ examples: [1] }),
  specs: Specs,
  network: Network,
  plan: PlanRef,
  billing: Billing,
  created_at: NullableTimestamp,
  next_charge: NextChargeField,
}, { description: 'A virtual server, with its live state as far as the platform reports it.' }));

export const ServerCreatedSchema = component('ServerCreated', Type.Intersect([
  ref(ServerSchema),
  Type.Object({ operation: ref(OperationSchema) }),
], {
  description: 'The new server (pending) and the `server.create` operation provisioning it.',
  // The answer as it is: pending, provisioning, no address yet (the Server schema's own samples show a running one).
  examples: [{
    id: 'srv_8fJ2kLmN4pQ7rS1t', name: 'web-1.example.com', status: 'pending', power_state: 'provisioning', os: 'ubuntu-24.04', location_id: 1,
    specs: { cpu_cores: 2, ram_mb: 4096, storage_gb: 80 }, network: { ipv4: null, ipv6: null, extra_ips: [] }, plan: { id: 2, name: 'Cloud M' },
    billing: { amount: '15.00', currency: 'USD', cycle: 'monthly', next_billing_at: '2026-12-22T08:30:00Z' }, created_at: '2026-11-22T08:30:00Z',
    operation: {
      id: 'op_4Kq9vX2mLp8RtY1z', type: 'server.create', status: 'queued', resource: { type: 'server', id: 'srv_8fJ2kLmN4pQ7rS1t' },
      detail: 'Queued for provisioning', created_at: '2026-11-22T08:30:00Z', updated_at: '2026-11-22T08:30:00Z',
    },
  }],
}));

function billingOf(s: Pick<Server, 'price_cents' | 'cycle' | 'next_billing_at'>) {
  return { amount: formatCents(s.price_cents), currency: CURRENCY, cycle: s.cycle, next_billing_at: ts(s.next_billing_at) };
}

const specsOf = (s: Pick<Server, 'cpu_cores' | 'ram_mb' | 'storage_gb'>) => ({ cpu_cores: s.cpu_cores, ram_mb: s.ram_mb, storage_gb: s.storage_gb });

export function serverListItemView(s: ServerListEntry, extras: { location?: boolean; primaryIp?: boolean } = {}) {
  return {
    id: s.id, name: s.name, status: s.status, power_state: s.live_power ?? null,
    ...(extras.location ? { location_id: s.location_id } : {}),
    ...(extras.primaryIp ? { primary_ip: s.ipv4_address } : {}),
    specs: specsOf(s),
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
export const ServerParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'Server id (`srv_…`).', examples: ['srv_8fJ2kLmN4pQ7rS1t'] }) });
