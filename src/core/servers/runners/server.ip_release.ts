// server.ip_release: the platform's part of cancelling an extra address (ip-cancel.ts); the
// address already left the bill and was refunded in the request's transaction.
import { findServerById } from '../../../db/queries/servers.ts';
import type { Runner } from '../../operations/runner.ts';

export interface IpReleaseParams {
  server_id: string;
  address: string;
}

/** server.ip_release: gives the address back to the platform (a repeated release is harmless). */
export const serverIpReleaseRunner: Runner<IpReleaseParams> = {
  async run(rc, op) {
    const p = op.params;
    const server = await findServerById(rc.db, p.server_id);
    // A deleted server's machine is destroyed with all its addresses.
    if (!server?.provider_ref || server.deleted_at || !p.address) return { detail: 'Nothing to release: the machine is gone' };
    await rc.compute.releaseIp(server.provider_ref, p.address);
    return { detail: `Released ${p.address}` };
  },
};
