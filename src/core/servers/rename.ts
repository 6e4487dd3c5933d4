// PATCH /servers/{id}: only the name changes. The platform is not told: the host name is our
// label for the server (the machine's own hostname is the customer's to set inside it).
import { isUniqueViolation } from '../../db/refusals.ts';
import { updateServerRow } from '../../db/queries/servers.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { hostnameInUse } from './create.ts';
import { lockServer } from './guards.ts';
import { type ServerView, viewOf } from './read.ts';
import { checkHostname } from './rules.ts';

export async function renameServer(ctx: Ctx, id: string, name: string): Promise<ServerView> {
  checkHostname(name);
  return inTransaction(ctx.db, async (trx) => {
    const server = await lockServer(ctx, trx, id);
    if (server.name === name) return viewOf(trx, server);
    try {
      return viewOf(trx, (await updateServerRow(trx, id, { name }))!);
    } catch (e) {
      // The unique index decides, so two renames racing to one name cannot both win.
      if (isUniqueViolation(e, 'hostname_taken')) throw hostnameInUse(name);
      throw e;
    }
  });
}
