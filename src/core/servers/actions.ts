// POST /servers/{id}/actions/{verb}. Every verb starts an operation in one transaction with its
// checks and charges, in the API's check order (docs/architecture.md, "Check order"): input, references, state, balance. The worker does
// the work (the runners next to this file); the customer polls the operation.
import { requireImage } from '../catalog/customer-lists.ts';
import { findCatalogRow } from '../../db/queries/catalog.ts';
import { updateServerRow } from '../../db/queries/servers.ts';
import { inTransaction } from '../../db/transaction.ts';
import { resourceWrite } from '../one-at-a-time.ts';
import type { PowerAction } from '../../providers/compute/types.ts';
import type { Ctx } from '../context.ts';
import { ApiError } from '../errors.ts';
import { checkVerbFields, powerStateDuring } from '../machines/action-rules.ts';
import { startMigration } from '../nodes/migrate.ts';
import { startOperation } from '../operations/service.ts';
import type { Db } from '../types.ts';
import { cloneServer } from './clone.ts';
import { lockServer, refuseWhileBuilding, requireActive } from './guards.ts';
import { generatePassword } from './password.ts';
import { resizeServer } from './resize.ts';
import { checkPassword } from './rules.ts';
import type { ActionInput, ActionResult } from './action-types.ts';

export const VERBS = ['start', 'stop', 'reboot', 'reset_password', 'reinstall', 'resize', 'clone', 'migrate'] as const;
export type Verb = (typeof VERBS)[number];

export type { ActionInput, ActionResult } from './action-types.ts';

export const VERB_FIELDS: Record<Verb, readonly (keyof ActionInput)[]> = {
  start: [], stop: [], reboot: [],
  reset_password: ['password'],
  reinstall: ['os_version_id'],
  resize: ['cpu', 'ram_gb', 'disk_gb'],
  clone: ['hostname'],
  migrate: ['mode', 'location_id'],
};

type Handler = (ctx: Ctx, trx: Db, id: string, input: ActionInput) => Promise<ActionResult>;

export async function serverAction(ctx: Ctx, id: string, verb: Verb, input: ActionInput): Promise<ActionResult> {
  checkVerbFields(verb, input, VERB_FIELDS[verb]);
  return resourceWrite(ctx, 'server', id, () => inTransaction(ctx.db, (trx) => HANDLERS[verb](ctx, trx, id, input)));
}

function power(action: PowerAction): Handler {
  return async (ctx, trx, id) => {
    const server = await lockServer(ctx, trx, id);
    await refuseWhileBuilding(trx, server);
    requireActive(server);
    const during = powerStateDuring(`Server ${id}`, server.power_state, action);
    const operation = await startOperation(ctx, trx, {
      type: `server.${action}`, resourceId: id, params: { action }, detail: `Queued: ${action}`,
    });
    await updateServerRow(trx, id, { power_state: during });
    return { operation };
  };
}

const resetPassword: Handler = async (ctx, trx, id, input) => {
  if (input.password !== undefined) checkPassword(input.password);
  const server = await lockServer(ctx, trx, id);
  await refuseWhileBuilding(trx, server);
  requireActive(server);
  const password = input.password ?? generatePassword();
  // The operation carries the password to the worker; finishing the operation erases it.
  const operation = await startOperation(ctx, trx, {
    type: 'server.reset_password', resourceId: id, params: { password }, detail: 'Queued: set the root password',
  });
  return input.password === undefined ? { operation, password } : { operation };
};

const reinstall: Handler = async (ctx, trx, id, input) => {
  const server = await lockServer(ctx, trx, id);
  const osId = input.os_version_id ?? server.os_version_id;
  const os = osId === null ? undefined : await findCatalogRow(trx, 'operating_systems', osId);
  if (!os || !os.available) {
    const message = input.os_version_id === undefined
      ? 'the server\'s current OS is no longer offered; choose one (see GET /operating-systems)'
      : 'no such OS version (see GET /operating-systems)';
    throw new ApiError('OS_VERSION_INVALID', `OS version ${osId ?? '(none)'} is not available`, [{ field: 'os_version_id', code: 'INVALID', message }]);
  }
  requireImage(os, os.id, ctx.compute.capabilities?.osImages === true);
  await refuseWhileBuilding(trx, server);
  requireActive(server);
  const operation = await startOperation(ctx, trx, {
    type: 'server.reinstall', resourceId: id,
    params: { os_version_id: os.id, os_slug: os.slug }, detail: `Queued: reinstall with ${os.slug}`,
  });
  return { operation };
};

const HANDLERS: Record<Verb, Handler> = {
  start: power('start'),
  stop: power('stop'),
  reboot: power('reboot'),
  reset_password: resetPassword,
  reinstall,
  resize: resizeServer,
  clone: cloneServer,
  migrate: async (ctx, trx, id, input) => {
    const server = await lockServer(ctx, trx, id);
    return { operation: await startMigration(ctx, trx, server, { mode: input.mode, location_id: input.location_id }, false) };
  },
};
