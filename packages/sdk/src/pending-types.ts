// Events and webhooks, typed by hand as the server's contract describes them, until the
// generated types (npm run sdk:types) include them: then these names become aliases of the
// generated schemas and this file goes.

/** Something that happened to one of your resources. `data` is the resource as it was then (for `operation.*`, the operation). */
export interface Event {
  /** `evt_…`; also the `webhook-id` of its deliveries. */
  id: string;
  /** e.g. `operation.completed`, `server.created`, `billing.deposit`. */
  type: string;
  created_at: string;
  resource: { type: string; id: string };
  data: unknown;
}

export interface EventQuery {
  page?: number;
  per_page?: number;
  type?: string;
  resource_type?: string;
  resource_id?: string;
}

export interface Webhook {
  /** `whk_…` */
  id: string;
  url: string;
  /** Event types delivered; `["*"]` is every type. */
  events: string[];
  description: string | null;
  enabled: boolean;
  created_at: string;
}

/** The answer of a create or a secret rotation: the only times the secret is shown. */
export interface WebhookWithSecret extends Webhook {
  /** `whsec_<base64>`: give it to verifyWebhook. */
  secret: string;
}

export interface WebhookCreate {
  url: string;
  events?: string[];
  description?: string;
}

export interface WebhookUpdate {
  url?: string;
  events?: string[];
  enabled?: boolean;
  description?: string;
}

export interface WebhookDelivery {
  id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status: 'pending' | 'succeeded' | 'failed';
  response_status: number | null;
  error: string | null;
  created_at: string;
  next_attempt_at: string | null;
}
