import { Type } from '@sinclair/typebox';
import { listTransactions } from '../../../core/billing/ledger.ts';
import { page, pageOf } from '../../reply.ts';
import { type RouteDeps, type TypedApp, callerOf } from '../../route-types.ts';
import { ListEnvelope, PageQuery, StringEnum, errorResponses } from '../../schemas.ts';
import { TransactionSchema, transactionView } from '../presenters.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  app.get('/billing/transactions', {
    config: { area: 'billing' },
    schema: {
      operationId: 'listTransactions',
      tags: ['Billing'],
      summary: 'List transactions',
      description: 'The ledger of the account, newest first: deposits, charges (`withdraw`) and refunds.',
      querystring: Type.Object({
        ...PageQuery(),
        type: Type.Optional(StringEnum(['deposit', 'withdraw', 'refund'] as const, { description: 'Only transactions of this type.' })),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(TransactionSchema), ...errorResponses() },
    },
  }, async (request) => {
    const result = await listTransactions(db, callerOf(request).accountId, { type: request.query.type }, pageOf(request.query));
    return page(request, result, transactionView);
  });
}
