// server.delete: destroys the machine. The server is already gone for the customer (and refunded);
// this only frees the platform. Destroying twice is harmless, so a retried run is too. There is
// nothing to compensate: if it finally fails, the failed operation is the operator's cue.
import { findServerById } from '../../../db/queries/servers.ts';
import type { Runner } from '../../operations/runner.ts';

export const serverDeleteRunner: Runner = {
  async run(rc, op) {
    const server = await findServerById(rc.db, op.resource_id);
    if (!server?.provider_ref) return { detail: 'Server removed (it had no machine)' };
    await rc.progress(10, 'Destroying the machine');
    await rc.compute.destroy(server.provider_ref, op.id);
    return { detail: 'Server removed' };
  },
};
