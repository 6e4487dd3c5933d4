// Row types of events and webhooks (kept apart from schema.ts, which lists them in DB).
import type { ColumnType, Selectable } from 'kysely';
import type { CreatedAt } from './schema-columns.ts';

export interface EventsTable {
  /** `evt_…` */
  id: string;
  /** Insertion order (lists are newest first by it). */
  seq: ColumnType<number, never, never>;
  account_id: string;
  type: string;
  resource_type: string;
  resource_id: string;
  /** The resource's facts when the event was written (hc_event_snapshot_<type>, migration 0140). */
  data: ColumnType<Record<string, unknown>, string, string>;
  created_at: CreatedAt;
}

export type EventRow = Selectable<EventsTable>;

export interface WebhookEndpointsTable {
  /** `whk_…` */
  id: string;
  account_id: string;
  url: string;
  /** `*`, `<family>.*` or event types. */
  events: string[];
  description: string | null;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  /** `whsec_<base64>` */
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  disabled_reason: string | null;
  failing_since: Date | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export type WebhookEndpoint = Selectable<WebhookEndpointsTable>;

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveriesTable {
  id: ColumnType<number, never, never>;
  webhook_id: string;
  event_id: string;
  event_type: string;
  status: ColumnType<WebhookDeliveryStatus, WebhookDeliveryStatus | undefined, WebhookDeliveryStatus>;
  attempt: ColumnType<number, number | undefined, number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  response_status: number | null;
  error: string | null;
  created_at: CreatedAt;
  last_attempt_at: Date | null;
  finished_at: Date | null;
  /** While a sender has the delivery in flight: the end of its claim's lease (null otherwise). */
  leased_until: ColumnType<Date | null, never, Date | null>;
}

export type WebhookDelivery = Selectable<WebhookDeliveriesTable>;
