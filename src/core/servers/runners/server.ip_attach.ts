// server.ip_attach, as the worker sees it: the recovery behind POST /servers/{id}/ips (ips.ts).
// The request holds the operation's lease and finishes it in its own tx2; nothing is queued. If
// the request died between its transactions, the lease lapses, the worker's sweep queues it and the job
// attaches with the request's token (a lease the platform already made is returned, not made
// twice) and stores the address and the keyed answer; if the platform keeps refusing, it undoes
// the purchase with the very code of the request's failure path.
import { forgetIdempotencyKey, saveIdempotentResponse } from '../../../db/queries/idempotency.ts';
import { addToServerPrice, findServerIp, lockServerRow, markIpReleased, setIpAddress } from '../../../db/queries/server-ips.ts';
import type { ServerIp } from '../../../db/schema.ts';
import { refund } from '../../billing/ledger.ts';
import { type Cents, money } from '../../money.ts';
import type { Runner } from '../../operations/runner.ts';
import type { Db } from '../../types.ts';
import { machineRefOf } from '../guards.ts';

export type IpVersion = 4 | 6;

export interface IpEntry {
  address: string;
  version: IpVersion;
  type: 'primary' | 'extra';
  gateway: string | null;
  /** What the address adds to the monthly bill; null for a primary one (part of the server's price). */
  monthlyPriceCents: Cents | null;
}

export const extraEntry = (ip: Pick<ServerIp, 'version' | 'price_cents'> & { address: string }): IpEntry =>
  ({ address: ip.address, version: ip.version, type: 'extra', gateway: null, monthlyPriceCents: ip.price_cents });

/**
 * The 201 body of POST /servers/{id}/ips (add-server-ip.ts answers with it; a list entry has the same
 * shape). Built in the core because the safety net stores it as an Idempotency-Key's answer.
 */
export function ipBody(ip: IpEntry) {
  return {
    address: ip.address, version: ip.version, type: ip.type, gateway: ip.gateway,
    monthly_price: ip.monthlyPriceCents === null ? null : money(ip.monthlyPriceCents),
  };
}

/** The server.ip_attach operation's params: all that finishing or undoing a purchase needs. */
export interface IpAttachParams {
  server_id: string;
  row_id: number;
  version: IpVersion;
  price_cents: Cents;
  charged_cents: Cents;
  /** The reseller discount the address added to what the server holds (undone with the price). */
  discount_cents?: Cents;
  /** The Idempotency-Key whose placeholder awaits the outcome; null without one. */
  idempotency_key: string | null;
}

/** The platform's request token: the same for the request and the safety net, so one address is leased. */
export const attachToken = (rowId: number) => `ip-${rowId}`;

/** Success, in tx2 or the safety net: the address stored, and for a keyed request the 201 its duplicates replay. */
export async function storeAddress(trx: Db, accountId: string, p: IpAttachParams, address: string): Promise<IpEntry> {
  await setIpAddress(trx, p.row_id, address);
  const entry = extraEntry({ ...p, address });
  if (p.idempotency_key !== null) await saveIdempotentResponse(trx, accountId, p.idempotency_key, 'created', ipBody(entry));
  return entry;
}

/** Failure, in tx2 or the safety net's compensation: tx1 undone, and the key freed (a failed request is not stored). */
export async function undoPurchase(trx: Db, accountId: string, p: IpAttachParams, reason: string, now: Date): Promise<void> {
  await markIpReleased(trx, p.row_id, now);
  const server = await lockServerRow(trx, p.server_id);
  // A delete that committed meanwhile already refunded the unused period of the raised price.
  if (server && !server.deleted_at) {
    if (p.price_cents > 0) await addToServerPrice(trx, server.id, -p.price_cents, -(p.discount_cents ?? 0));
    if (p.charged_cents > 0) {
      await refund(trx, accountId, p.charged_cents, `Refund: extra IPv${p.version} address for server ${server.name} (${server.id}) could not be attached (${reason})`, `server/${server.id}`);
    }
  }
  if (p.idempotency_key !== null) await forgetIdempotencyKey(trx, accountId, p.idempotency_key);
}


export const serverIpAttachRunner: Runner<IpAttachParams> = {
  async run(rc, op) {
    const p = op.params;
    const row = await findServerIp(rc.db, p.row_id);
    // Released by a delete of the server, which refunded the rest of the cycle itself.
    if (!row || row.released_at) return { detail: 'Nothing to attach: the server was deleted' };
    const { address } = await rc.compute.attachIp(await machineRefOf(rc.db, p.server_id), p.version, attachToken(p.row_id));
    return { detail: `Attached ${address}`, apply: (trx) => storeAddress(trx, op.account_id, p, address).then(() => {}) };
  },

  compensate(trx, op, reason, now) {
    return undoPurchase(trx, op.account_id, op.params, reason, now);
  },
};
