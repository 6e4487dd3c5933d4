// Names for the generated types: the request body, query and answer `data` of an operation
// (by its operationId in the OpenAPI document), and the document's schemas under short names.
import type { components, operations } from './generated/v2.js';

type Ops = operations;
export type OperationId = keyof Ops;

/** The JSON body an operation takes. */
export type Body<K extends OperationId> = NonNullable<Ops[K]['requestBody']> extends { content: { 'application/json': infer B } } ? B : never;

/** The query parameters an operation takes. */
export type Query<K extends OperationId> = Ops[K]['parameters'] extends { query?: infer Q } ? NonNullable<Q> : never;

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Success<R> = R extends { 200: infer A } ? Json<A> : R extends { 201: infer A } ? Json<A> : R extends { 202: infer A } ? Json<A> : never;

/** The `data` of an operation's successful answer. */
export type Data<K extends OperationId> = Success<Ops[K]['responses']> extends { data: infer D } ? D : never;

/** One item of a list operation's `data`. */
export type Item<K extends OperationId> = Data<K> extends (infer I)[] ? I : never;

type S = components['schemas'];
export type Money = S['Money'];
export type Operation = S['Operation'];
export type Server = S['Server'];
export type ServerListItem = S['ServerListItem'];
export type ServerCreated = S['ServerCreated'];
export type ServerDeleteResult = S['ServerDeleteResult'];
export type Snapshot = S['Snapshot'];
export type IpAddress = S['IpAddress'];
export type VdcResources = S['VdcResources'];
export type VdcVm = S['VdcVm'];
export type Domain = S['Domain'];
export type DomainAvailability = S['DomainAvailability'];
export type TldPrice = S['TldPrice'];
export type BulkResult = S['BulkResult'];
export type WebHosting = S['WebHosting'];
export type Plan = S['Plan'];
export type Package = S['Package'];
export type OperatingSystem = S['OperatingSystem'];
export type Location = S['Location'];
export type WebHostingPackage = S['WebHostingPackage'];
export type Department = S['Department'];
export type Balance = S['Balance'];
export type Transaction = S['Transaction'];
export type Account = S['Account'];
export type ApiKey = S['ApiKey'];
export type Ticket = S['Ticket'];
export type TicketDetail = S['TicketDetail'];
export type SubUser = S['SubUser'];
export type SshKey = S['SshKey'];
export type ResellerStatus = S['ResellerStatus'];
export type ResellerTiers = S['ResellerTiers'];
export type Event = S['Event'];
export type EventType = Event['type'];
export type EventQuery = Query<'listEvents'>;
export type BillingCharge = S['BillingCharge'];
export type DnsZone = S['DnsZone'];
export type DnsZoneCreate = Body<'createDnsZone'>;
export type DnsRecord = S['DnsRecord'];
export type DnsRecordCreate = Body<'createDnsRecord'>;
export type DnsRecordUpdate = Body<'updateDnsRecord'>;
export type DnsRecordQuery = Query<'listDnsRecords'>;
export type Webhook = S['Webhook'];
/** The answer of a create: the only time (with a rotation) the secret is shown. */
export type WebhookWithSecret = S['WebhookWithSecret'];
/** The answer of a secret rotation: the new secret, and until when the old one signs too. */
export type WebhookRotatedSecret = S['WebhookRotatedSecret'];
export type WebhookCreate = Body<'createWebhook'>;
export type WebhookUpdate = Body<'updateWebhook'>;
export type WebhookDelivery = S['WebhookDelivery'];
export type WebhookDeliveryQuery = Query<'listWebhookDeliveries'>;

/** The operation of an answer that started one (`data.operation`), when the answer says which. */
export type WithOperation = { operation: Operation };
