// POST /servers/{id}/ips with an Idempotency-Key. The request spans two transactions around the
// platform call, so the key's record cannot simply wrap one transaction (holding it open would
// also hold a second pool connection per request, and a burst of requests would starve the
// pool). Instead the record commits with tx1 holding a placeholder; tx2 replaces it with the
// final response, or deletes it if the platform refused (a failed request is not stored). A
// duplicate that finds the placeholder waits for the outcome, as with any other key.
import { forgetIdempotencyKey, saveIdempotentResponse } from '../../db/queries/idempotency.ts';
import type { Ctx } from '../context.ts';
import { ApiError } from '../errors.ts';
import { IDEMPOTENCY_WAIT_MS, type StoredResponse, idempotent } from '../idempotency/service.ts';
import { type IpEntry, type IpVersion, type Reserved, attachReserved, reserveIp } from './ips.ts';

/** The placeholder's status: no HTTP status is 0, so it can never be taken for an answer. */
const IN_FLIGHT = 0;
const POLL_MS = 100;

export async function addIpOnce(
  ctx: Ctx, serverId: string, version: IpVersion, key: string, fingerprint: string, respond: (entry: IpEntry) => StoredResponse,
): Promise<StoredResponse & { replayed: boolean }> {
  const deadline = Date.now() + IDEMPOTENCY_WAIT_MS;
  for (;;) {
    const claim: { reserved?: Reserved } = {};
    const stored = await idempotent(ctx, key, fingerprint, async (trx) => {
      claim.reserved = await reserveIp(ctx, trx, serverId, version);
      return { status: IN_FLIGHT, body: null };
    });
    if (claim.reserved) {
      const entry = await attachReserved(ctx, claim.reserved, {
        attached: (trx, e) => {
          const answer = respond(e);
          return saveIdempotentResponse(trx, ctx.accountId, key, answer.status, answer.body);
        },
        failed: (trx) => forgetIdempotencyKey(trx, ctx.accountId, key),
      });
      return { ...respond(entry), replayed: false };
    }
    if (stored.status !== IN_FLIGHT) return stored;
    // The first request is between its transactions (or died there): wait, then look again —
    // it may have finished, or failed and freed the key for this one.
    if (Date.now() >= deadline) {
      throw new ApiError('IDEMPOTENCY_KEY_CONFLICT', 'A request with this Idempotency-Key is still being processed; retry shortly');
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
