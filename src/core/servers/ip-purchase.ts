// POST /servers/{id}/ips with an Idempotency-Key. The request spans two transactions around the
// platform call, so the key's record cannot simply wrap one transaction (holding it open would
// also hold a second pool connection per request, and a burst of requests would starve the
// pool). Instead the record commits with tx1 holding a placeholder (idempotentSteps); tx2 replaces
// it with the final response, or deletes it if the platform refused (a failed request is not
// stored). A duplicate that finds the placeholder waits for the outcome, as with any other key.
// The key travels in the operation's params, so if this request dies between its transactions,
// the safety net (runners/server.ip_attach.ts) replaces the placeholder with the 201 the route would have
// answered — the customer holds and pays for that address, so a retry must replay it rather than
// buy a second one — or deletes it along with the refund.
import type { Ctx } from '../context.ts';
import { type Idempotency, type Replayable, idempotentSteps } from '../idempotency/service.ts';
import { type IpVersion, addIp, attachReserved, ipBody, reserveIp } from './ips.ts';

/** POST /servers/{id}/ips: the address added (created), once per Idempotency-Key when there is one. */
export async function addIpOnce(ctx: Ctx, serverId: string, version: IpVersion, idem: Idempotency): Promise<Replayable> {
  if (idem.key === undefined) return { outcome: 'created', body: ipBody(await addIp(ctx, serverId, version)), replayed: false };
  const step = await idempotentSteps(ctx, idem.key, idem.fingerprint, (trx, recordKey) => reserveIp(ctx, trx, serverId, version, recordKey));
  if ('stored' in step) return step.stored;
  // tx2 saves the answer under the key, or forgets the key (reserveIp put it in the params).
  return { outcome: 'created', body: ipBody(await attachReserved(ctx, step.claimed)), replayed: false };
}
