import { Type } from '@sinclair/typebox';
import { listTransactions } from '../../../core/billing/ledger.ts';
import { type RouteDeps, type TypedApp, callerOf } from '../../route-types.ts';
import { v1page } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1List, V1PageQuery } from '../schemas.ts';
import { V1Transaction } from './schemas.ts';
import { v1Transaction } from './views.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  v1Route(app, {
    method: 'GET', url: '/balance/transactions', area: 'billing', operationId: 'listTransactions', tag: 'Billing',
    summary: 'List transactions',
    description: 'The ledger, newest first: deposits (refunds among them) and withdrawals (negative amounts).',
    querystring: Type.Object({ ...V1PageQuery('per_page') }, { additionalProperties: false }),
    response: V1List(V1Transaction),
    handler: async (request) => {
      const r = await listTransactions(db, callerOf(request).accountId, {}, { page: request.query.page, perPage: request.query.per_page });
      return v1page(r, v1Transaction);
    },
  });
}
