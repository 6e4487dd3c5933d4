// The event types' names, in the catalogue's order: a leaf module (it imports nothing), so the
// customer panel's webhook form imports this very list (panel/src/event-types.ts). The catalogue
// (catalogue.ts) must describe exactly these: its type says so.
export const EVENT_TYPE_NAMES = [
  'operation.completed', 'operation.failed',
  'server.created', 'server.deleted', 'server.suspended', 'server.resumed', 'server.cancelled',
  'vdc_vm.created', 'vdc_vm.deleted',
  'domain.registered', 'domain.transferred', 'domain.renewed', 'domain.expiring', 'domain.expired',
  'web_hosting.created', 'web_hosting.suspended', 'web_hosting.resumed', 'web_hosting.cancelled',
  'billing.deposit', 'billing.charge_succeeded', 'billing.refunded', 'billing.charge_failed',
  'ticket.opened', 'ticket.answered', 'ticket.closed',
  'webhook.ping',
  'dns_zone.created', 'dns_zone.deleted',
] as const;

export type EventTypeName = (typeof EVENT_TYPE_NAMES)[number];
