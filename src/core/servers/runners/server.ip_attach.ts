// server.ip_attach, as the worker sees it: the recovery behind POST /servers/{id}/ips (ips.ts).
// The request holds the operation's lease and finishes it in its own tx2; nothing is queued. If
// the request died between its transactions, the lease lapses, the worker's sweep queues it and the job
// attaches with the request's token (a lease the platform already made is returned, not made
// twice) and stores the address and the keyed answer; if the platform keeps refusing, it undoes
// the purchase with the very code of the request's failure path.
import { findServerIp } from '../../../db/queries/server-ips.ts';
import type { Runner } from '../../operations/runner.ts';
import { machineRefOf } from '../guards.ts';
import { type IpAttachParams, attachToken, storeAddress, undoPurchase } from '../ips.ts';

export const serverIpAttachRunner: Runner = {
  async run(rc, op) {
    const p = op.params as unknown as IpAttachParams;
    const row = await findServerIp(rc.db, p.row_id);
    // Released by a delete of the server, which refunded the rest of the cycle itself.
    if (!row || row.released_at) return { detail: 'Nothing to attach: the server was deleted' };
    const { address } = await rc.compute.attachIp(await machineRefOf(rc.db, p.server_id), p.version, attachToken(p.row_id));
    return { detail: `Attached ${address}`, apply: (trx) => storeAddress(trx, op.account_id, p, address).then(() => {}) };
  },

  compensate(trx, op, reason, now) {
    return undoPurchase(trx, op.account_id, op.params as unknown as IpAttachParams, reason, now);
  },
};
