// The v2 API's types as the SDK has them: generated from the server's OpenAPI document
// (packages/sdk/src/generated/v2.ts, `npm run sdk:types`), never written by hand here, so a
// change to the API that a page does not follow is a type error (`npm run check`).
// Data<'getServer'> is the `data` of that operation's answer, Item<'listServers'> one item of a
// list, Body<'createServer'> what it takes.
export type { Body, Data, Item, Query } from '../../packages/sdk/src/types.ts';
export type {
  Domain, DnsRecord, DnsZone, Money, Operation, Server, ServerListItem, SshKey, Ticket, TicketDetail, Webhook, WebhookDelivery,
} from '../../packages/sdk/src/types.ts';
