import { getBalanceSummary } from '../../../core/billing/ledger.ts';
import { type RouteDeps, type TypedApp, callerOf } from '../../route-types.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { V1Balance } from './schemas.ts';
import { v1Balance } from './views.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  v1Route(app, {
    method: 'GET', url: '/balance', area: 'billing', operationId: 'getBalance', tag: 'Billing',
    summary: 'Get the balance',
    description: 'The prepaid balance with what came in and went out over the whole ledger (balance = deposits − withdrawals).',
    response: V1Data(V1Balance),
    handler: async (request) => v1ok(v1Balance(await getBalanceSummary(db, callerOf(request).accountId))),
  });
}
