import { Resource, seg } from '../resource.js';
import type { PageIterator } from '../pages.js';
import type { Event, Webhook, WebhookCreate, WebhookDelivery, WebhookUpdate, WebhookWithSecret } from '../pending-types.js';
import type { RequestOptions } from '../transport.js';

/** Endpoints the server POSTs your events to, signed (check them with verifyWebhook). */
export class Webhooks extends Resource {
  list(query?: { page?: number; per_page?: number }, opts?: RequestOptions): PageIterator<Webhook> {
    return this.pages('/webhooks', query, opts);
  }

  get(id: string, opts?: RequestOptions): Promise<Webhook> {
    return this.read(`/webhooks/${seg(id)}`, undefined, opts);
  }

  /** The answer holds the secret: it is shown only here and by rotateSecret. */
  create(body: WebhookCreate, opts?: RequestOptions): Promise<WebhookWithSecret> {
    return this.write('POST', '/webhooks', body, opts);
  }

  update(id: string, body: WebhookUpdate, opts?: RequestOptions): Promise<Webhook> {
    return this.write('PATCH', `/webhooks/${seg(id)}`, body, opts);
  }

  delete(id: string, opts?: RequestOptions): Promise<unknown> {
    return this.write('DELETE', `/webhooks/${seg(id)}`, undefined, opts);
  }

  /** Sends a `webhook.ping` event to the endpoint. */
  ping(id: string, opts?: RequestOptions): Promise<Event> {
    return this.write('POST', `/webhooks/${seg(id)}/ping`, undefined, opts);
  }

  /** A new secret; for 24 hours deliveries are signed with both. */
  rotateSecret(id: string, opts?: RequestOptions): Promise<WebhookWithSecret> {
    return this.write('POST', `/webhooks/${seg(id)}/rotate-secret`, undefined, opts);
  }

  deliveries(id: string, query?: { page?: number; per_page?: number }, opts?: RequestOptions): PageIterator<WebhookDelivery> {
    return this.pages(`/webhooks/${seg(id)}/deliveries`, query, opts);
  }
}
