// POST /servers/{id}/ips with an Idempotency-Key. The request spans two transactions around the
// platform call, so the key's record cannot simply wrap one transaction (holding it open would
// also hold a second pool connection per request, and a burst of requests would starve the
// pool). Instead the record commits with tx1 holding a placeholder; tx2 replaces it with the
// final response, or deletes it if the platform refused (a failed request is not stored). A
// duplicate that finds the placeholder waits for the outcome, as with any other key.
// The key travels in the operation's params, so if this request dies between its transactions,
// the safety net (ip-attach-runner.ts) replaces the placeholder with the 201 the route would have
// answered — the customer holds and pays for that address, so a retry must replay it rather than
// buy a second one — or deletes it along with the refund.
import type { Ctx } from '../context.ts';
import { ApiError } from '../errors.ts';
import { IDEMPOTENCY_WAIT_MS, type StoredResponse, idempotent } from '../idempotency/service.ts';
import { type IpVersion, type Reserved, attachReserved, ipBody, reserveIp } from './ips.ts';

/** The placeholder's status: no HTTP status is 0, so it can never be taken for an answer. */
const IN_FLIGHT = 0;
const POLL_MS = 100;

export async function addIpOnce(
  ctx: Ctx, serverId: string, version: IpVersion, key: string, fingerprint: string,
): Promise<StoredResponse & { replayed: boolean }> {
  const deadline = Date.now() + IDEMPOTENCY_WAIT_MS;
  for (;;) {
    const claim: { reserved?: Reserved } = {};
    const stored = await idempotent(ctx, key, fingerprint, async (trx) => {
      claim.reserved = await reserveIp(ctx, trx, serverId, version, key);
      return { status: IN_FLIGHT, body: null };
    });
    // tx2 saves the answer under the key, or forgets the key (reserveIp put it in the params).
    if (claim.reserved) return { status: 201, body: ipBody(await attachReserved(ctx, claim.reserved)), replayed: false };
    if (stored.status !== IN_FLIGHT) return stored;
    // The first request is between its transactions (or died there): wait, then look again —
    // it may have finished, or failed and freed the key for this one.
    if (Date.now() >= deadline) {
      throw new ApiError('IDEMPOTENCY_KEY_CONFLICT', 'A request with this Idempotency-Key is still being processed; retry shortly');
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
