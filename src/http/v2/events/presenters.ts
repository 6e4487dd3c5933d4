// Events as v2 shows them (GET /v2/events, webhook deliveries): `data` is the resource's v2
// representation at the moment of the event, presented from the facts the event stored
// (hc_event_snapshot_<type>, migration 0140) with the same presenter its own GET uses. The facts are
// JSON: timestamps arrive as text and are revived before presenting.
import { type Static, Type } from '@sinclair/typebox';
import { EVENT_RESOURCE_TYPES, EVENT_TYPES, type EventResourceType, type EventType } from '../../../core/events/catalogue.ts';
import { money } from '../../../core/money.ts';
import { ts } from '../../../core/time.ts';
import { recordedView } from '../../../core/vdc/read.ts';
import type { VdcVmRow } from '../../../db/queries/vdc-vms.ts';
import type { DomainRow } from '../../../db/queries/domains.ts';
import type { TicketRow } from '../../../db/queries/tickets.ts';
import type { WebHostingRow } from '../../../db/queries/web-hosting.ts';
import type { BillingCharge, EventRow, Operation, PowerState, Server, Transaction, WebhookEndpoint } from '../../../db/schema.ts';
import { BILLABLE_TYPES } from '../../../db/schema-billing.ts';
import { MoneySchema, StringEnum, Timestamp, component, ref } from '../../schemas.ts';
import { TransactionSchema, transactionView } from '../presenters.ts';
import { DomainSchema, domainView } from '../domains/presenters.ts';
import { OperationSchema, ServerSchema, operationView, serverView } from '../servers/presenters.ts';
import { TicketSchema, ticketView } from '../tickets/presenters.ts';
import { VdcVmSchema, vdcVmView } from '../vdc/presenters.ts';
import { WebHostingSchema, webHostingView } from '../web-hosting/presenters.ts';
import { WebhookSchema, webhookView } from '../webhooks/presenters.ts';
import { DnsZoneSchema, type ZoneFacts, zoneView } from '../dns/presenters.ts';

export const BillingChargeSchema = component('BillingCharge', Type.Object({
  id: Type.String({ examples: ['4711'] }),
  resource: Type.Object({
    type: StringEnum(BILLABLE_TYPES, { description: 'What is billed.' }),
    id: Type.String({ examples: ['srv_8fJ2kLmN4pQ7rS1t'] }),
  }),
  description: Type.String({ description: 'What the ledger row will say once paid.', examples: ['Server web-1 (srv_8fJ2kLmN4pQ7rS1t): monthly cycle 2026-12-22 → 2027-01-22'] }),
  amount: ref(MoneySchema),
  period_start: Timestamp,
  period_end: Timestamp,
  status: StringEnum(['due', 'paid', 'void'] as const, { description: 'due: not paid yet, retried every billing pass; paid; void: the service ended.' }),
  due_since: Timestamp,
  attempts: Type.Integer({ minimum: 0, description: 'Billing passes that tried to pay it.', examples: [1] }),
  reason: Type.Union([Type.String(), Type.Null()], { description: 'Why the last attempt failed.', examples: ['Balance 1.00 USD is less than the 5.00 USD this costs'] }),
}, { description: 'One charge of recurring billing: a resource and the period it pays for.' }));

function billingChargeView(c: BillingCharge) {
  return {
    id: String(c.id), resource: { type: c.resource_type, id: c.resource_id }, description: c.description, amount: money(c.amount_cents),
    period_start: ts(c.period_start), period_end: ts(c.period_end), status: c.status, due_since: ts(c.due_since), attempts: c.attempts, reason: c.last_error,
  };
}

/** The schema of `data` for each resource type (the document's catalogue and the union below). */
export const EVENT_DATA_SCHEMAS = {
  operation: OperationSchema,
  server: ServerSchema,
  vdc_vm: VdcVmSchema,
  domain: DomainSchema,
  web_hosting: WebHostingSchema,
  transaction: TransactionSchema,
  billing_charge: BillingChargeSchema,
  ticket: TicketSchema,
  webhook: WebhookSchema,
  dns_zone: DnsZoneSchema,
} as const satisfies Record<EventResourceType, { $id: string }>;

const DATA_TEXT = 'The resource as the API shows it, at the moment of the event: an `Operation` for `operation.*`, a `Server` for `server.*`, '
  + 'a `VdcVm`, `Domain`, `WebHosting`, a `Transaction` (the ledger row) for `billing.deposit`, `billing.charge_succeeded` and `billing.refunded`, '
  + 'a `BillingCharge` for `billing.charge_failed`, a `Ticket`, a `Webhook` for `webhook.ping`, a `DnsZone` for `dns_zone.*`. `resource.type` says which.';

export const EventSchema = component('Event', Type.Object({
  id: Type.String({ description: 'Unique; also the `webhook-id` of its deliveries, to deduplicate by.', examples: ['evt_2Nf8sKq4Lm7Xp1Zr'] }),
  type: StringEnum(EVENT_TYPES, { description: 'What happened (the catalogue in the introduction says when each is written).' }),
  created_at: Timestamp,
  resource: Type.Object({
    type: StringEnum(EVENT_RESOURCE_TYPES),
    id: Type.String({ examples: ['srv_8fJ2kLmN4pQ7rS1t'] }),
  }, { description: 'What the event is about.' }),
  data: Type.Union(Object.values(EVENT_DATA_SCHEMAS).map((s) => ref(s)), { description: DATA_TEXT }),
}, {
  description: 'Something that changed for the account, written in the same transaction as the change: an event exists exactly when its change '
    + 'committed. Kept `EVENT_RETENTION_DAYS` (30 by default). Test keys (the sandbox) make none.',
  examples: [{
    id: 'evt_2Nf8sKq4Lm7Xp1Zr', type: 'operation.completed', created_at: '2026-11-22T08:31:04Z', resource: { type: 'operation', id: 'op_4Kq9vX2mLp8RtY1z' },
    data: {
      id: 'op_4Kq9vX2mLp8RtY1z', type: 'server.create', status: 'completed', resource: { type: 'server', id: 'srv_8fJ2kLmN4pQ7rS1t' },
      progress_pct: 100, detail: 'Server provisioned', created_at: '2026-11-22T08:30:00Z', updated_at: '2026-11-22T08:31:04Z',
    },
  }],
}));

// Row facts as JSON: every `…_at` (and `lease_until`) is a timestamp.
const DATE_KEY = /(_at|^lease_until|^period_start|^period_end|^due_since)$/;

function revive<T>(facts: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(facts)) out[k] = typeof v === 'string' && DATE_KEY.test(k) ? new Date(v) : v;
  return out as T;
}

type Facts = Record<string, unknown>;

const PRESENT: Record<EventResourceType, (f: Facts) => unknown> = {
  operation: (f) => operationView(revive<Operation>(f)),
  server: (f) => {
    const s = revive<Server & { plan_name: string | null; os_slug: string | null; extra_ips: { address: string; version: 4 | 6 }[] }>(f);
    return serverView({
      server: s, plan: s.plan_id === null ? null : { id: s.plan_id, name: s.plan_name ?? '' },
      power: s.power_state as PowerState, os: s.os_slug, extraIps: s.extra_ips,
    });
  },
  vdc_vm: (f) => vdcVmView(recordedView(revive<VdcVmRow>(f))),
  domain: (f) => domainView(revive<DomainRow>(f)),
  web_hosting: (f) => webHostingView({ hosting: revive<WebHostingRow>(f), usedMb: null }),
  transaction: (f) => transactionView(revive<Transaction>(f)),
  billing_charge: (f) => billingChargeView(revive<BillingCharge>(f)),
  ticket: (f) => ticketView(revive<TicketRow>(f)),
  webhook: (f) => webhookView(revive<WebhookEndpoint>(f)),
  dns_zone: (f) => zoneView(revive<ZoneFacts>(f)),
};

/** `data` of an event: its resource's v2 representation from the stored facts. */
export function eventData(e: Pick<EventRow, 'resource_type' | 'resource_id' | 'data'>): unknown {
  const present = Object.hasOwn(PRESENT, e.resource_type) ? PRESENT[e.resource_type as EventResourceType] : undefined;
  try {
    if (present) return present(e.data);
  } catch {
    // Facts a presenter can no longer read (a resource whose row was gone when the event was written).
  }
  return { id: e.resource_id };
}

export function eventView(e: EventRow) {
  return {
    id: e.id,
    type: e.type as EventType,
    created_at: ts(e.created_at),
    resource: { type: e.resource_type as EventResourceType, id: e.resource_id },
    // Presented by the resource's own presenter (typed there), per `resource.type`.
    data: eventData(e) as Static<typeof EventSchema>['data'],
  };
}

/** The body of a webhook delivery: the event as GET /v2/events/{id} shows it (the worker is handed this, it does not import the HTTP layer). */
export const renderV2Event = (e: EventRow) => JSON.stringify(eventView(e));

/** Path parameter of GET /events/{id}. */
export const EventParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'Event id (`evt_…`).', examples: ['evt_2Nf8sKq4Lm7Xp1Zr'] }) });
