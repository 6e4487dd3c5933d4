import { getAccount } from '../../../core/accounts/service.ts';
import { ok } from '../../reply.ts';
import { type RouteDeps, type TypedApp, callerOf } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { AccountSchema, accountView } from '../presenters.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  app.get('/account', {
    config: { area: 'account' },
    schema: {
      operationId: 'getAccount',
      tags: ['Account'],
      summary: 'Get your account',
      description: 'The profile of the customer the key belongs to, with its balance. Editing it is done in the web panel.',
      response: { 200: Envelope(AccountSchema), ...errorResponses() },
    },
  }, async (request) => ok(request, accountView(await getAccount(db, callerOf(request).accountId))));
}
