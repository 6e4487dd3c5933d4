// Webhook endpoints and their delivery log (migration 0042), as the customer manages and reads them.
// The sender's statements (claiming due deliveries, recording outcomes) are in webhook-deliveries.ts.
import { type Insertable, sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { WebhookDelivery, WebhookDeliveryStatus, WebhookEndpoint, WebhookEndpointsTable } from '../schema.ts';
import { takeTurn } from '../take-turn.ts';

/** Serialises the account's webhook writes for the rest of the transaction (the per-account limit is counted under it). */
export async function lockAccountWebhooks(trx: Db, accountId: string): Promise<void> {
  await takeTurn(trx, `webhooks:${accountId}`);
}

export async function countAccountWebhooks(db: Db, accountId: string): Promise<number> {
  const r = await db.selectFrom('webhook_endpoints').select(sql<number>`count(*)::int`.as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
  return r.n;
}

export function insertWebhook(trx: Db, row: Insertable<WebhookEndpointsTable>): Promise<WebhookEndpoint> {
  return trx.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow();
}

/** One page of the account's endpoints, oldest first (there are at most a few), and their number. */
export async function listWebhooksPage(db: Db, accountId: string, limit: number, offset: number): Promise<{ rows: WebhookEndpoint[]; total: number }> {
  const [rows, total] = await Promise.all([
    db.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute(),
    countAccountWebhooks(db, accountId),
  ]);
  return { rows, total };
}

export function findAccountWebhook(db: Db, accountId: string, id: string): Promise<WebhookEndpoint | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
}

export function lockAccountWebhook(trx: Db, accountId: string, id: string): Promise<WebhookEndpoint | undefined> {
  return trx.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).where('account_id', '=', accountId).forUpdate().executeTakeFirst();
}

export type WebhookPatch = Partial<Pick<WebhookEndpoint, 'url' | 'events' | 'description' | 'enabled' | 'secret' | 'previous_secret'
  | 'previous_secret_expires_at' | 'disabled_reason' | 'failing_since'>>;

export function updateWebhookRow(trx: Db, id: string, patch: WebhookPatch, now: Date): Promise<WebhookEndpoint> {
  return trx.updateTable('webhook_endpoints').set({ ...patch, updated_at: now }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteWebhookRow(trx: Db, id: string): Promise<void> {
  await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
}

/** Pending deliveries of a disabled endpoint end as failed, saying why. */
export async function failPendingDeliveries(trx: Db, webhookId: string, error: string): Promise<number> {
  const r = await trx.updateTable('webhook_deliveries').set({ status: 'failed', error, finished_at: sql<Date>`now()` })
    .where('webhook_id', '=', webhookId).where('status', '=', 'pending').executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** A webhook.ping event delivered to `webhookId` alone; its delivery. */
export async function insertPing(trx: Db, accountId: string, webhookId: string): Promise<WebhookDelivery> {
  const r = await sql<{ id: string }>`SELECT hc_emit_event(${accountId}, 'webhook.ping', 'webhook', ${webhookId}, NULL, ${webhookId}) AS id`.execute(trx);
  return trx.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', r.rows[0]!.id).where('webhook_id', '=', webhookId).executeTakeFirstOrThrow();
}

/** One page of an endpoint's deliveries, newest first, and their number. */
export async function listDeliveriesPage(
  db: Db, webhookId: string, status: WebhookDeliveryStatus | undefined, limit: number, offset: number,
): Promise<{ rows: WebhookDelivery[]; total: number }> {
  let q = db.selectFrom('webhook_deliveries').where('webhook_id', '=', webhookId);
  if (status !== undefined) q = q.where('status', '=', status);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}
