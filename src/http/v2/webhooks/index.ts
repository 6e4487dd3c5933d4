// The webhooks routes, in the order of the OpenAPI document (registered by ../index.ts).
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import * as createWebhook from './create-webhook.ts';
import * as deleteWebhook from './delete-webhook.ts';
import * as getWebhook from './get-webhook.ts';
import * as listWebhookDeliveries from './list-webhook-deliveries.ts';
import * as listWebhooks from './list-webhooks.ts';
import * as pingWebhook from './ping-webhook.ts';
import * as rotateWebhookSecret from './rotate-webhook-secret.ts';
import * as updateWebhook from './update-webhook.ts';

export const routes: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  listWebhooks, createWebhook, getWebhook, updateWebhook, deleteWebhook, rotateWebhookSecret, pingWebhook, listWebhookDeliveries,
];
