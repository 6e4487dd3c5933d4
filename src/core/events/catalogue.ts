// The events a customer can see (GET /v2/events, webhooks): every type, what it carries and when
// it is written. Each is written in the transaction of the change it reports, so an event exists
// exactly when its change committed; a sandbox request (always rolled back) leaves none.
//
// Three ways in, each at one central point:
//  - an operation finishing: operation.completed or operation.failed, and for the creates and
//    renewals the resource's own event (the operation catalogue's `completed`, operations/events.ts),
//    written at the commit that finishes the operation (the database's trigger of migration 0041,
//    so every path that finishes one — the worker's batched completions, a request finishing its
//    own work, a failure — writes them);
//  - a ledger row: the billing event of LEDGER_EVENTS (the same migration's trigger on
//    `transactions`, the one table every movement of money goes through);
//  - everything else, where the core makes the change (recordEvent, record.ts): deletions,
//    suspensions and resumptions, cancellations (a create that failed for good included), a
//    clone's new server, failed charges, domain expiry, tickets, pings.
// The two SQL mappings mirror the tables below (test/v2/events.test.ts checks them).
import type { TransactionType } from '../../db/schema.ts';
import { EVENT_TYPE_NAMES, type EventTypeName } from './type-names.ts';

/** What an event's `resource` can be; `data` is that resource as the API shows it. */
export const EVENT_RESOURCE_TYPES = ['operation', 'server', 'vdc_vm', 'domain', 'web_hosting', 'transaction', 'billing_charge', 'ticket', 'webhook', 'dns_zone'] as const;
export type EventResourceType = (typeof EVENT_RESOURCE_TYPES)[number];

export interface EventTypeInfo {
  resource: EventResourceType;
  /** When it is written, for people (the reference's catalogue). */
  when: string;
}

export const EVENT_CATALOGUE = {
  'operation.completed': { resource: 'operation', when: 'An operation of any family completed (`data` is the operation).' },
  'operation.failed': { resource: 'operation', when: 'An operation failed for good; its `detail` says why, and anything it charged was refunded.' },
  'server.created': { resource: 'server', when: 'A server is provisioned and active: its `server.create` operation completed, or the `server.clone` operation that made it.' },
  'server.deleted': { resource: 'server', when: 'A server was deleted (it leaves every list; its machine is destroyed by a `server.delete` operation).' },
  'server.suspended': { resource: 'server', when: 'A server was suspended for non-payment (powered off).' },
  'server.resumed': { resource: 'server', when: 'A suspended server was resumed: a deposit paid its due charge.' },
  'server.cancelled': { resource: 'server', when: 'A server was cancelled: unpaid past the grace period (machine destroyed, addresses released), or its create (or clone) failed for good and was refunded.' },
  'vdc_vm.created': { resource: 'vdc_vm', when: 'A VDC VM is provisioned (its `vdc_vm.create` operation completed).' },
  'vdc_vm.deleted': { resource: 'vdc_vm', when: 'A VDC VM was deleted; its share of the pool is free again.' },
  'domain.registered': { resource: 'domain', when: 'A domain registration completed: the domain is `active`.' },
  'domain.transferred': { resource: 'domain', when: 'A transfer in completed: the domain is `active` with us.' },
  'domain.renewed': { resource: 'domain', when: 'A domain was renewed (on request, or by auto-renewal); `expires_at` moved.' },
  'domain.expiring': { resource: 'domain', when: 'A domain expires within 30 days, then within 7 (once each), and has not been renewed.' },
  'domain.expired': { resource: 'domain', when: 'A domain reached its expiry without being renewed.' },
  'web_hosting.created': { resource: 'web_hosting', when: 'A web hosting account is provisioned and active (its `hosting.create` operation completed).' },
  'web_hosting.suspended': { resource: 'web_hosting', when: 'A web hosting account was suspended for non-payment.' },
  'web_hosting.resumed': { resource: 'web_hosting', when: 'A suspended web hosting account was resumed: a deposit paid its due charge.' },
  'web_hosting.cancelled': { resource: 'web_hosting', when: 'A web hosting account was cancelled: by the customer, unpaid past the grace period, or its create failed for good and was refunded.' },
  'billing.deposit': { resource: 'transaction', when: 'Money was deposited to the balance (`data` is the ledger row).' },
  'billing.charge_succeeded': { resource: 'transaction', when: 'The balance was charged: a create, a renewal, recurring billing (`data` is the ledger row).' },
  'billing.refunded': { resource: 'transaction', when: 'Money came back to the balance: a deletion, a cancellation, a failed operation (`data` is the ledger row).' },
  'billing.charge_failed': { resource: 'billing_charge', when: 'A recurring charge could not be paid from the balance; it stays due and is retried every billing pass.' },
  'ticket.opened': { resource: 'ticket', when: 'A ticket was opened (through the API or the panel, by the account or one of its sub-users).' },
  'ticket.answered': { resource: 'ticket', when: 'Support answered a ticket.' },
  'ticket.closed': { resource: 'ticket', when: 'A ticket was closed (by the customer or by support).' },
  'webhook.ping': { resource: 'webhook', when: 'Sent to one endpoint only, by `POST /webhooks/{id}/ping`, to test it.' },
  'dns_zone.created': { resource: 'dns_zone', when: 'A DNS zone was made: by `POST /dns/zones`, or for a domain registered or transferred in.' },
  'dns_zone.deleted': { resource: 'dns_zone', when: 'A DNS zone was deleted with its records (`DELETE /dns/zones/{id}`).' },
} as const satisfies Record<EventTypeName, EventTypeInfo>;

export type EventType = keyof typeof EVENT_CATALOGUE;
export const EVENT_TYPES: EventType[] = [...EVENT_TYPE_NAMES];

/** The event of each ledger row, by its type (migration 0041's trigger on `transactions`). */
export const LEDGER_EVENTS: Readonly<Record<TransactionType, EventType>> = {
  deposit: 'billing.deposit',
  withdraw: 'billing.charge_succeeded',
  refund: 'billing.refunded',
};

/** The families (`server`, `billing`, …): a subscription may name `<family>.*`. */
export const EVENT_FAMILIES = [...new Set(EVENT_TYPES.map((t) => t.split('.')[0]!))];

export const isEventType = (s: string): s is EventType => Object.hasOwn(EVENT_CATALOGUE, s);

/** Whether a subscription entry is valid: `*`, `<family>.*`, or one type. */
export function isEventPattern(s: string): boolean {
  if (s === '*') return true;
  if (s.endsWith('.*')) return EVENT_FAMILIES.includes(s.slice(0, -2));
  return isEventType(s);
}

/** Whether an endpoint subscribed to `patterns` receives `type` (the same rule as the fan-out's SQL, migration 0042). */
export function subscribed(patterns: readonly string[], type: string): boolean {
  return patterns.includes('*') || patterns.includes(type) || patterns.includes(`${type.split('.')[0]}.*`);
}
