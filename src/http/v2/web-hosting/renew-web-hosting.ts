import { Type } from '@sinclair/typebox';
import { renewHosting } from '../../../core/hosting/renew.ts';
import { idempotent } from '../../../core/idempotency/service.ts';
import { money } from '../../../core/money.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, BillableHeaders, errorResponses } from '../../schemas.ts';
import { WebHostingParams, WebHostingRenewedSchema, webHostingView } from './presenters.ts';
import { answerOnce } from '../../idempotent-route.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/web-hosting/:id/renew', {
    config: { area: 'hosting' },
    schema: {
      operationId: 'renewWebHosting',
      tags: ['Web hosting'],
      summary: 'Renew a web hosting account',
      description: '**Billable**: one more cycle of the account (its price at order, monthly or yearly) is charged now and '
        + '`billing.next_billing_at` moves one cycle later. Only an `active` account renews; any other is 409 `STATE_CONFLICT`. '
        + 'No body is needed. Send an `Idempotency-Key` so that a retry never pays twice.',
      headers: BillableHeaders,
      params: WebHostingParams,
      body: Type.Object({}, { additionalProperties: false, description: 'Nothing to send (an empty object, or no body at all).' }),
      response: {
        200: Envelope(WebHostingRenewedSchema),
        ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'INSUFFICIENT_BALANCE', 'IDEMPOTENCY_KEY_CONFLICT'),
      },
    },
  }, async (request, reply) => {
    return ok(request, await answerOnce<ReturnType<typeof webHostingView> & { charged: ReturnType<typeof money> }>(deps, request, reply,
      (ctx, idem) => idempotent(ctx, idem.key, idem.fingerprint, async (trx) => {
        const { hosting, chargedCents } = await renewHosting(ctx, trx, request.params.id);
        return { outcome: 'done', body: { ...webHostingView({ hosting, usedMb: null }), charged: money(chargedCents) } };
      })));
  });
}
