// Every resource family, listed once. Each declares its own facts in src/core/<family>/family.ts
// (operations with their runners, events, billable types with their charges, scope area, id prefix;
// src/core/family.ts); the central tables are derived here: the upcoming charges' sources and the billing pass's parts, the operation catalogue (registered with core/operations,
// which imports no family, and added to its OperationRegistry type), the worker's runner map, the
// areas the operations route admits. The lists a leaf module must keep for the panel or the database
// (AREAS in scope-names.ts, the event type names, BILLABLE_TYPES) are checked against the families
// below at compile time: a family's area, event or billable type that the list lacks, or a list's
// entry no family claims, does not compile.
import type { BillableType } from '../db/schema-billing.ts';
import { accountsFamily } from './accounts/family.ts';
import { billingFamily } from './billing/family.ts';
import { registerRecurringBilling } from './billing/pass.ts';
import type { RecurringChargesByType } from './billing/upcoming.ts';
import { catalogFamily } from './catalog/family.ts';
import { dnsFamily } from './dns/family.ts';
import { domainsFamily } from './domains/family.ts';
import type { EVENT_CATALOGUE, EventType } from './events/catalogue.ts';
import { eventsFamily } from './events/family.ts';
import type { FamilyManifest } from './family.ts';
import { hostingFamily } from './hosting/family.ts';
import { type CatalogueEntry, type RunnerMap, registerOperations } from './operations/catalogue.ts';
import { operationsFamily } from './operations/family.ts';
import { resellerFamily } from './reseller/family.ts';
import type { Area } from './scope-names.ts';
import { serversFamily } from './servers/family.ts';
import { sshKeysFamily } from './ssh-keys/family.ts';
import { subUsersFamily } from './sub-users/family.ts';
import { ticketsFamily } from './tickets/family.ts';
import { vdcFamily } from './vdc/family.ts';
import { webhooksFamily } from './webhooks/family.ts';

/** The families, in the order their operation types are listed (the admin API's enum). */
export const FAMILIES = [
  operationsFamily, serversFamily, vdcFamily, domainsFamily, hostingFamily, billingFamily, accountsFamily, ticketsFamily,
  subUsersFamily, sshKeysFamily, resellerFamily, catalogFamily, eventsFamily, webhooksFamily, dnsFamily,
] as const satisfies readonly FamilyManifest[];

type Family = (typeof FAMILIES)[number];
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type OperationsOf<F> = F extends { operations: infer O } ? O : never;

/** Every family's operation types with their entries: the literal types of each. */
export type AllOperations = UnionToIntersection<OperationsOf<Family>>;

export const OPERATIONS = Object.assign({}, ...FAMILIES.map((f) => ('operations' in f ? f.operations : {}))) as AllOperations;

declare module './operations/catalogue.ts' {
  // The types of every family's operations, for startOperation's params (the registry is empty until here).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface OperationRegistry extends AllOperations {}
}

registerOperations(OPERATIONS as Record<string, CatalogueEntry>);

/** The worker's runners, by operation type (startWorker, executeOperation). */
export const RUNNERS: RunnerMap = new Map(Object.entries(OPERATIONS as Record<string, CatalogueEntry>).map(([type, e]) => [type, e.runner]));

type OperationType = keyof AllOperations;

/** What recurring billing will charge, by billable type (the upcoming charges: src/core/billing/upcoming.ts). */
export const BILLABLE_HOOKS = Object.assign({}, ...FAMILIES.map((f) => ('billable' in f ? f.billable : {}))) as RecurringChargesByType;

// The billing pass charges each billable type through its family's part (RecurringPass).
registerRecurringBilling(BILLABLE_HOOKS);

/** The operation types whose `completed` event is about another kind of resource than the operation's own (none, or the line below fails to compile). */
type CompletionAboutAnother = {
  [T in OperationType]: AllOperations[T] extends { completed: infer E extends EventType }
    ? ((typeof EVENT_CATALOGUE)[E]['resource'] extends AllOperations[T]['resource'] ? never : T)
    : never;
}[OperationType];
const _completionsAboutTheirResource: [CompletionAboutAnother] extends [never] ? true : CompletionAboutAnother = true;

/** The resource event of an operation that completed, by operation type (migration 0041's hc_completion_event). */
export const COMPLETION_EVENTS: Readonly<Partial<Record<OperationType, EventType>>> = Object.fromEntries(
  Object.entries(OPERATIONS as Record<string, CatalogueEntry>).flatMap(([type, entry]) => (entry.completed ? [[type, entry.completed]] : [])),
);

type Resources<F> = F extends { operationResources: infer R } ? R : never;
type AllResources = UnionToIntersection<Resources<Family>>;
/** What an operation acts on (`resource.type` of an operation): the families' `operationResources`. */
export type OperationResourceType = keyof AllResources & string;
const RESOURCES = Object.assign({}, ...FAMILIES.map((f) => ('operationResources' in f ? f.operationResources : {}))) as Record<OperationResourceType, string>;
/** Every kind of resource an operation acts on, in catalogue order (the document's enum). */
export const OPERATION_RESOURCE_TYPES = Object.keys(RESOURCES) as OperationResourceType[];
/** Each kind with the operation types that act on it, as the reference describes `resource.type`. */
export const OPERATION_RESOURCE_DESCRIPTIONS: readonly string[] = OPERATION_RESOURCE_TYPES.map((kind) => `\`${kind}\` (${RESOURCES[kind]})`);
/** An operation's resource no family declares among its `operationResources` (the line fails to compile, naming it). */
const _everyResourceDeclared: Unclaimed<AllOperations[OperationType]['resource'], OperationResourceType> = true;

/** The areas whose scope reads some operation: the operations route admits any of them. */
export const OPERATION_AREAS: readonly Area[] = [...new Set(Object.values(OPERATIONS as Record<string, CatalogueEntry>).map((e) => e.area))];

/** Each family of operation types (the type's prefix: `server` of `server.create`) with the area whose scope reads it, in catalogue order. */
export const OPERATION_FAMILY_AREAS: readonly { family: string; area: Area }[] = [
  ...new Map(Object.entries(OPERATIONS as Record<string, CatalogueEntry>).map(([type, e]) => [type.slice(0, type.indexOf('.')), e.area] as const)),
].map(([family, area]) => ({ family, area }));

// The leaf lists agree with the families (each line fails to compile, naming what is missing).
type Unclaimed<All, Claimed> = [Exclude<All, Claimed>] extends [never] ? true : Exclude<All, Claimed>;
type Claimed<K extends 'area' | 'events'> = Family extends infer F ? (F extends { [k in K]: infer V } ? (V extends readonly (infer E)[] ? E : V) : never) : never;
type ClaimedBillable = Family extends infer F ? (F extends { billable: infer B } ? keyof B : never) : never;
/** An area (scope-names.ts AREAS) no family guards. */
const _everyAreaHasAFamily: Unclaimed<Area, Claimed<'area'>> = true;
/** An event type (events/type-names.ts) no family writes. */
const _everyEventHasAFamily: Unclaimed<EventType, Claimed<'events'>> = true;
/** A billable type (db/schema-billing.ts BILLABLE_TYPES) no family is charged for. */
const _everyBillableHasAFamily: Unclaimed<BillableType, ClaimedBillable> = true;
