// POST /top-ups {amount, return_url?} → 201 the payment and `checkout_url` (send the customer there);
// GET /top-ups, GET /top-ups/{id}; POST /top-ups/{id}/refresh asks the provider when the customer is
// back before its confirmation (a late webhook).
import { Type } from '@sinclair/typebox';
import { getTopUp, listTopUps, refreshTopUp, startTopUp } from '../../core/payments/top-up.ts';
import { paymentDeps } from '../payments/deps.ts';
import { PaymentSchema, paymentView } from '../payments/views.ts';
import { locate, ok, page, pageOf } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, ListEnvelope, PageQuery, errorResponses } from '../schemas.ts';
import { actor } from './actor.ts';

const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const StartedSchema = Type.Object({ ...PaymentSchema.properties, checkout_url: Type.String() }, { title: 'StartedTopUp' });

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/top-ups', {
    schema: {
      body: Type.Object({
        amount: Type.String({ minLength: 1, maxLength: 20, description: 'What the balance is credited, tax not included ("50.00")' }),
        return_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'Where the customer comes back to (on PUBLIC_URL)' })),
      }, { additionalProperties: false }),
      response: { 201: Envelope(StartedSchema), ...errorResponses('AUTH_REQUIRED', 'AUTH_SCOPE_INSUFFICIENT', 'STATE_CONFLICT', 'RESOURCE_NOT_FOUND', 'UPSTREAM_ERROR') },
    },
  }, async (request, reply) => {
    const started = await startTopUp(paymentDeps(deps, request.log), actor(request), { amount: request.body.amount, returnUrl: request.body.return_url });
    reply.code(201);
    locate(reply, deps.config.publicUrl, ...request.url.split('?')[0]!.split('/').filter(Boolean), started.payment.id);
    return reply.send(ok(request, { ...paymentView(started.payment), checkout_url: started.checkoutUrl }));
  });

  app.get('/top-ups', {
    schema: { querystring: Type.Object({ ...PageQuery() }, { additionalProperties: false }), response: { 200: ListEnvelope(PaymentSchema), ...errorResponses('AUTH_REQUIRED', 'AUTH_SCOPE_INSUFFICIENT') } },
  }, async (request) => page(request, await listTopUps(deps.db, actor(request), pageOf(request.query)), paymentView));

  app.get('/top-ups/:id', {
    schema: { params: Id, response: { 200: Envelope(PaymentSchema), ...errorResponses('AUTH_REQUIRED', 'AUTH_SCOPE_INSUFFICIENT', 'RESOURCE_NOT_FOUND') } },
  }, async (request) => ok(request, paymentView(await getTopUp(deps.db, actor(request), request.params.id))));

  app.post('/top-ups/:id/refresh', {
    schema: { params: Id, response: { 200: Envelope(PaymentSchema), ...errorResponses('AUTH_REQUIRED', 'AUTH_SCOPE_INSUFFICIENT', 'RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'UPSTREAM_ERROR') } },
  }, async (request) => ok(request, paymentView(await refreshTopUp(paymentDeps(deps, request.log), actor(request), request.params.id))));
}
