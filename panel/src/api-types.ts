// The v2 API's types as the SDK has them: generated from the server's OpenAPI document
// (packages/sdk/src/generated/v2.ts, `npm run sdk:types`), never written by hand here, so a
// change to the API that a page does not follow is a type error (`npm run check`).
// Data<'getServer'> is the `data` of that operation's answer, Item<'listServers'> one item of a
// list, Body<'createServer'> what it takes.
export type { Body, Data, Item, Query } from '../../packages/sdk/src/types.ts';
export type {
  Domain, DnsRecord, DnsZone, Money, Operation, Server, ServerListItem, SshKey, Ticket, TicketDetail, Webhook, WebhookDelivery,
} from '../../packages/sdk/src/types.ts';

// The panel's own API (/panel/api) the same way, generated from its route schemas
// (panel/src/generated/panel-api.ts, also by `npm run sdk:types`): PanelData<'GET /me'> is the
// `data` of that route's answer, PanelItem<'GET /sessions'> one item of a list.
import type { paths as PanelPaths } from './generated/panel-api.ts';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type PanelJson<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type PanelSuccess<R> = R extends { 200: infer A } ? PanelJson<A> : R extends { 201: infer A } ? PanelJson<A> : R extends { 202: infer A } ? PanelJson<A> : never;
type OpOf<P extends keyof PanelPaths, M extends Method> = PanelPaths[P] extends { [k in M]: infer O } ? O : never;

/** Every route of the panel's API as `<METHOD> <path>`, the path after /panel/api with `{name}` parameters. */
export type PanelRoute = { [P in keyof PanelPaths & string]: { [M in Method]: [OpOf<P, M>] extends [never] ? never : `${Uppercase<M>} ${P}` }[Method] }[keyof PanelPaths & string];

type Split<R extends string> = R extends `${infer M} ${infer P}` ? [Lowercase<M> & Method, P & keyof PanelPaths] : never;
/** The `data` of a /panel/api route's success answer. */
export type PanelData<R extends PanelRoute> = PanelSuccess<OpOf<Split<R>[1], Split<R>[0]> extends { responses: infer Rs } ? Rs : never> extends { data: infer D } ? D : never;
/** One item of a /panel/api list. */
export type PanelItem<R extends PanelRoute> = PanelData<R> extends (infer I)[] ? I : never;
