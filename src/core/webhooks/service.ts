// Webhook endpoints, the customer's side: register a URL for some event types (all by default),
// read, change, remove; rotate the signing secret; ping; read the delivery log. The secret is
// answered only by the create and the rotation. At most WEBHOOK_MAX_PER_ACCOUNT endpoints.
import {
  type WebhookPatch, countAccountWebhooks, deleteWebhookRow, failPendingDeliveries, findAccountWebhook, insertPing, insertWebhook,
  listDeliveriesPage, listWebhooksPage, lockAccountWebhook, lockAccountWebhooks, updateWebhookRow,
} from '../../db/queries/webhooks.ts';
import type { WebhookDelivery, WebhookDeliveryStatus, WebhookEndpoint } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { afterCommit } from '../events.ts';
import type { Ctx } from '../context.ts';
import { ApiError, type FieldError, notFound } from '../errors.ts';
import { isEventPattern } from '../events/catalogue.ts';
import { newId } from '../ids.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import { ROTATION_OVERLAP_MS, newSecret } from './signing.ts';
import { type UrlPolicy, checkWebhookUrl } from './url.ts';

export const DESCRIPTION_MAX = 500;
export const EVENTS_MAX = 100;
export const DEFAULT_MAX_PER_ACCOUNT = 10;

export interface WebhookRules {
  urls: UrlPolicy;
  /** WEBHOOK_MAX_PER_ACCOUNT */
  maxPerAccount: number;
}

type Scope = Pick<Ctx, 'db' | 'accountId' | 'now'>;

export interface NewWebhook {
  url: string;
  events?: string[];
  description?: string | null;
}

export interface WebhookChange {
  url?: string;
  events?: string[];
  enabled?: boolean;
  description?: string | null;
}

/** The endpoint and its secret: the only answers that show it. */
export interface WebhookWithSecret {
  webhook: WebhookEndpoint;
  secret: string;
}

/** `*`, `<family>.*` or known types, each once; 422 naming `events[i]` otherwise. */
function checkEvents(list: readonly string[]): string[] {
  const errors: FieldError[] = [];
  list.forEach((p, i) => {
    if (!isEventPattern(p)) errors.push({ field: `events[${i}]`, code: 'INVALID', message: `"${p.slice(0, 100)}" is not an event type, "<family>.*" or "*" (the reference lists the types)` });
  });
  if (list.length === 0) errors.push({ field: 'events', code: 'INVALID', message: 'must name at least one event type (or "*")' });
  if (errors.length) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
  return [...new Set(list)];
}

function describe(d: string | null | undefined): string | null {
  const text = d?.trim();
  return text ? text : null;
}

export async function createWebhook(s: Scope, input: NewWebhook, rules: WebhookRules): Promise<WebhookWithSecret> {
  const events = checkEvents(input.events ?? ['*']);
  const url = await checkWebhookUrl(input.url, rules.urls);
  return inTransaction(s.db, async (trx) => {
    await lockAccountWebhooks(trx, s.accountId);
    if ((await countAccountWebhooks(trx, s.accountId)) >= rules.maxPerAccount) {
      throw new ApiError('QUOTA_EXCEEDED', `An account may register at most ${rules.maxPerAccount} webhook endpoints; delete one, or subscribe one endpoint to more event types`);
    }
    const secret = newSecret();
    const webhook = await insertWebhook(trx, {
      id: newId('whk'), account_id: s.accountId, url, events, description: describe(input.description), secret, created_at: s.now, updated_at: s.now,
    });
    return { webhook, secret };
  });
}

export async function listWebhooks(s: Pick<Ctx, 'db' | 'accountId'>, page: PageRequest): Promise<Paged<WebhookEndpoint>> {
  const { rows, total } = await listWebhooksPage(s.db, s.accountId, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

/** The caller's endpoint; another account's id is simply not found. */
export async function getWebhook(s: Pick<Ctx, 'db' | 'accountId'>, id: string): Promise<WebhookEndpoint> {
  const w = await findAccountWebhook(s.db, s.accountId, id);
  if (!w) throw notFound('Webhook');
  return w;
}

/**
 * PATCH: a new URL is checked as at create; `enabled: true` also clears what disabled it (a 410,
 * days of failures) and starts its failure count afresh; `enabled: false` fails its pending
 * deliveries (a disabled endpoint is sent nothing, and nothing is kept for later).
 */
export async function updateWebhook(s: Scope, id: string, change: WebhookChange, rules: WebhookRules): Promise<WebhookEndpoint> {
  const patch: WebhookPatch = {};
  if (change.events !== undefined) patch.events = checkEvents(change.events);
  if (change.url !== undefined) patch.url = await checkWebhookUrl(change.url, rules.urls);
  if (change.description !== undefined) patch.description = describe(change.description);
  if (change.enabled === true) Object.assign(patch, { enabled: true, disabled_reason: null, failing_since: null });
  if (change.enabled === false) patch.enabled = false;
  return inTransaction(s.db, async (trx) => {
    const before = await lockAccountWebhook(trx, s.accountId, id);
    if (!before) throw notFound('Webhook');
    if (change.enabled === true && before.enabled) delete patch.failing_since;
    const after = await updateWebhookRow(trx, id, patch, s.now);
    if (before.enabled && !after.enabled) await failPendingDeliveries(trx, id, 'The endpoint was disabled');
    return after;
  });
}

/** Removes the endpoint and its delivery log; answers it as it was. */
export async function deleteWebhook(s: Scope, id: string): Promise<WebhookEndpoint> {
  return inTransaction(s.db, async (trx) => {
    const w = await lockAccountWebhook(trx, s.accountId, id);
    if (!w) throw notFound('Webhook');
    await deleteWebhookRow(trx, id);
    return w;
  });
}

/**
 * A new secret; the one it replaces keeps signing for 24 hours beside it (each delivery carries
 * both signatures), so receivers can switch without losing a delivery.
 */
export async function rotateWebhookSecret(s: Scope, id: string): Promise<WebhookWithSecret> {
  return inTransaction(s.db, async (trx) => {
    const w = await lockAccountWebhook(trx, s.accountId, id);
    if (!w) throw notFound('Webhook');
    const secret = newSecret();
    const webhook = await updateWebhookRow(trx, id, {
      secret, previous_secret: w.secret, previous_secret_expires_at: new Date(s.now.getTime() + ROTATION_OVERLAP_MS),
    }, s.now);
    return { webhook, secret };
  });
}

/** A webhook.ping event, delivered to this endpoint only; its (pending) delivery. A disabled endpoint is 409. */
export async function pingWebhook(s: Scope, id: string): Promise<WebhookDelivery> {
  return inTransaction(s.db, async (trx) => {
    const w = await lockAccountWebhook(trx, s.accountId, id);
    if (!w) throw notFound('Webhook');
    if (!w.enabled) throw new ApiError('STATE_CONFLICT', `Webhook ${id} is disabled${w.disabled_reason ? ` (${w.disabled_reason})` : ''}; enable it (PATCH enabled: true) to ping it`);
    const delivery = await insertPing(trx, s.accountId, id);
    afterCommit(trx, { kind: 'event', type: 'webhook.ping' });
    return delivery;
  });
}

export async function listWebhookDeliveries(
  s: Pick<Ctx, 'db' | 'accountId'>, id: string, status: WebhookDeliveryStatus | undefined, page: PageRequest,
): Promise<Paged<WebhookDelivery>> {
  await getWebhook(s, id);
  const { rows, total } = await listDeliveriesPage(s.db, id, status, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}
