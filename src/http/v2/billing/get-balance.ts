import { getBalance } from '../../../core/billing/ledger.ts';
import { CURRENCY, money } from '../../../core/money.ts';
import { ok } from '../../reply.ts';
import { type RouteDeps, type TypedApp, callerOf } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { BalanceSchema } from '../presenters.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  app.get('/billing/balance', {
    config: { area: 'billing' },
    schema: {
      operationId: 'getBalance',
      tags: ['Billing'],
      summary: 'Get the balance',
      description: 'The prepaid balance in USD. Billable operations draw on it; top-ups are done in the web panel.',
      response: { 200: Envelope(BalanceSchema), ...errorResponses() },
    },
  }, async (request) => {
    const cents = await getBalance(db, callerOf(request).accountId);
    return ok(request, { balance: money(cents), currency: CURRENCY });
  });
}
