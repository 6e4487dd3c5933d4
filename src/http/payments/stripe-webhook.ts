// POST /payments/stripe/webhook: Stripe's events about our Checkout Sessions. The raw body and the
// Stripe-Signature header are checked by the `stripe` package (STRIPE_WEBHOOK_SECRET, at most
// 300 s old); a bad signature, an old timestamp or a replay of the very same request answers 400
// and credits nothing. A valid event answers 200 once it is applied (Stripe retries anything
// else): the first `checkout.session.completed` of a paid session credits its deposit and issues
// the invoice, every later delivery of it finds the payment paid.
import { ApiError } from '../../core/errors.ts';
import { receiveWebhook } from '../../core/payments/confirm.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { paymentDeps } from './deps.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/stripe/webhook', { config: { auth: 'none' }, schema: { hide: true } }, async (request) => {
    const body = request.body;
    if (!Buffer.isBuffer(body)) throw new ApiError('REQUEST_MALFORMED', 'The body must be the JSON event Stripe sent');
    const signature = request.headers['stripe-signature'];
    const r = await receiveWebhook(paymentDeps(deps, request.log), 'stripe', body, typeof signature === 'string' ? signature : undefined);
    return { received: true, event_id: r.eventId, outcome: r.outcome?.kind ?? 'ignored' };
  });
}
