import { Type } from '@sinclair/typebox';
import { getBalance } from '../../../core/billing/ledger.ts';
import { CURRENCY, money } from '../../../core/money.ts';
import { ok } from '../../reply.ts';
import { type RouteDeps, type TypedApp, callerOf } from '../../route-types.ts';
import { Envelope, MoneySchema, errorResponses } from '../../schemas.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  app.get('/billing/balance', {
    config: { area: 'billing' },
    schema: {
      tags: ['Billing'],
      summary: 'Current balance',
      response: { 200: Envelope(Type.Object({ balance: Type.Ref(MoneySchema), currency: Type.String() }, { title: 'Balance' })), ...errorResponses },
    },
  }, async (request) => {
    const cents = await getBalance(db, callerOf(request).accountId);
    return ok(request, { balance: money(cents), currency: CURRENCY });
  });
}
