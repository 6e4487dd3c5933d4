import { Resource, seg } from '../resource.js';
import type { PageIterator } from '../pages.js';
import type { RequestOptions } from '../transport.js';
import type {
  Query, Webhook, WebhookCreate, WebhookDelivery, WebhookDeliveryQuery, WebhookRotatedSecret, WebhookUpdate, WebhookWithSecret,
} from '../types.js';

/** Endpoints the server POSTs your events to, signed (check them with verifyWebhook). Reads need `webhooks:read`, changes and ping `webhooks:write`. */
export class Webhooks extends Resource {
  list(query?: Query<'listWebhooks'>, opts?: RequestOptions): PageIterator<Webhook> {
    return this.pages('/webhooks', query, opts);
  }

  get(id: string, opts?: RequestOptions): Promise<Webhook> {
    return this.read(`/webhooks/${seg(id)}`, undefined, opts);
  }

  /** The answer holds the secret: it is shown only here and by rotateSecret. `events` defaults to `["*"]`. */
  create(body: WebhookCreate, opts?: RequestOptions): Promise<WebhookWithSecret> {
    return this.write('POST', '/webhooks', body, opts);
  }

  /** `enabled: true` also turns back on an endpoint the service disabled; `description: null` removes the note. */
  update(id: string, body: WebhookUpdate, opts?: RequestOptions): Promise<Webhook> {
    return this.write('PATCH', `/webhooks/${seg(id)}`, body, opts);
  }

  /** Removes the endpoint and its delivery log; answers the endpoint as it was. */
  delete(id: string, opts?: RequestOptions): Promise<Webhook> {
    return this.write('DELETE', `/webhooks/${seg(id)}`, undefined, opts);
  }

  /** Queues a `webhook.ping` event to this endpoint alone; answers its delivery, `pending` (follow it with deliveries). */
  ping(id: string, opts?: RequestOptions): Promise<WebhookDelivery> {
    return this.write('POST', `/webhooks/${seg(id)}/ping`, undefined, opts);
  }

  /** A new secret; for 24 hours (`previous_secret_expires_at`) deliveries are signed with both. */
  rotateSecret(id: string, opts?: RequestOptions): Promise<WebhookRotatedSecret> {
    return this.write('POST', `/webhooks/${seg(id)}/rotate-secret`, undefined, opts);
  }

  /** The delivery log, newest first; filter by `status`. */
  deliveries(id: string, query?: WebhookDeliveryQuery, opts?: RequestOptions): PageIterator<WebhookDelivery> {
    return this.pages(`/webhooks/${seg(id)}/deliveries`, query, opts);
  }
}
