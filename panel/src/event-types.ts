// The event types an endpoint can subscribe to, as the webhook form offers them: the same names
// as the server's catalogue (test/panel/webhooks.test.ts keeps the two lists equal).
export const EVENT_TYPES = [
  'operation.completed', 'operation.failed',
  'server.created', 'server.deleted', 'server.suspended', 'server.resumed', 'server.cancelled',
  'vdc_vm.created', 'vdc_vm.deleted',
  'domain.registered', 'domain.transferred', 'domain.renewed', 'domain.expiring', 'domain.expired',
  'web_hosting.created', 'web_hosting.suspended', 'web_hosting.resumed', 'web_hosting.cancelled',
  'billing.deposit', 'billing.charge_succeeded', 'billing.refunded', 'billing.charge_failed',
  'ticket.opened', 'ticket.answered', 'ticket.closed',
  'webhook.ping',
] as const;
