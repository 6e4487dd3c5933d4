// The operator's power actions on any account's server (POST /admin/v1/servers/{id}/actions): the
// customer's own verbs, run for the account that owns the server, so the operation, its event,
// webhook and checks are exactly those of the customer's request.
import { findServerById } from '../../db/queries/servers.ts';
import type { Operation } from '../../db/schema.ts';
import type { Services } from '../context.ts';
import { notFound } from '../errors.ts';
import type { Db } from '../types.ts';
import { serverAction } from './actions.ts';

export const OPERATOR_POWER = ['start', 'stop', 'reboot'] as const;
export type OperatorPower = (typeof OPERATOR_POWER)[number];

export interface OperatorPowerDeps {
  db: Db;
  services: Services;
  now: () => Date;
}

export async function powerServerAsOperator(deps: OperatorPowerDeps, id: string, type: OperatorPower): Promise<Operation> {
  const server = await findServerById(deps.db, id);
  if (!server || server.deleted_at) throw notFound('Server');
  const ctx = { ...deps.services, db: deps.db, accountId: server.account_id, sandbox: false, now: deps.now() };
  return (await serverAction(ctx, id, type, {})).operation;
}
