// What a resource family declares about itself, in its own src/core/<family>/family.ts: the kinds
// of operation it runs (with their runners, whose types fix each one's params), the API area whose
// scopes guard it, the prefix of the ids it makes and what recurring billing charges of it. The
// families are listed once, in src/core/families.ts, and every central table is derived from there.
import type { BillableType } from '../db/schema-billing.ts';
import type { RecurringCharges } from './billing/upcoming.ts';
import type { EventType } from './events/catalogue.ts';
import type { CatalogueEntry } from './operations/catalogue.ts';
import type { Area } from './scope-names.ts';

export interface FamilyManifest {
  /** Its folder under src/core (and src/http/v2). */
  name: string;
  /** The API area whose `<area>:read` and `:write` scopes guard its routes and operations; none for operations, read with their family's. */
  area?: Area;
  /** The prefix of the ids its resources get (newId), when it makes any. */
  idPrefix?: string;
  /**
   * The kinds of resource its operations act on (an operation's `resource.type`), each with what the
   * reference says of it: which operation types act on it.
   */
  operationResources?: Readonly<Record<string, string>>;
  /** Its operation types (`<resource>.<verb>`), each with its runner and the kind of resource it acts on. */
  operations?: Readonly<Record<string, CatalogueEntry>>;
  /** The event types it writes (described in the event catalogue, src/core/events/catalogue.ts). */
  events?: readonly EventType[];
  /**
   * What recurring billing charges of it (billing_charges.resource_type), each with what it will
   * charge (the upcoming charges, a resource's next charge: src/core/billing/upcoming.ts).
   */
  billable?: Readonly<Partial<Record<BillableType, RecurringCharges>>>;
}
