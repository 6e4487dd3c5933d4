// /payments: what the payment provider reaches (Stripe's webhook) or shows the customer (the
// simulated provider's checkout page). Outside the APIs: no key, no envelope of success; errors
// in the v2 envelope. Only the routes of the provider PAYMENTS picks exist. Bodies are read here
// as the provider sends them: the webhook's raw bytes (its signature covers them exactly) and the
// checkout page's form.
import type { FastifyInstance } from 'fastify';
import { parseFormBody, parseJsonBody } from '../input-text.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import * as simulatedCheckout from './simulated-checkout.ts';
import * as stripeWebhook from './stripe-webhook.ts';

export async function registerPaymentRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  app.removeAllContentTypeParsers();
  // Stripe's signature covers the exact bytes, so its webhook gets them as they came; any other
  // route here reads JSON as the API does (UTF-8 only, depth bound, every string's text checked).
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    if (req.routeOptions.url?.endsWith('/stripe/webhook')) return done(null, body);
    try {
      done(null, parseJsonBody(req.headers['content-type'], body as Buffer));
    } catch (e) {
      done(e as Error, undefined);
    }
  });
  // The checkout page's form: the same rules of text as a JSON body (UTF-8 bytes only, no lone
  // surrogate in a name or a value), so a form is never a way around them.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (req, body, done) => {
    try {
      done(null, parseFormBody(req.headers['content-type'], body as Buffer));
    } catch (e) {
      done(e as Error, undefined);
    }
  });
  if (deps.config.payments === 'stripe') stripeWebhook.register(app as TypedApp, deps);
  if (deps.config.payments === 'simulated') simulatedCheckout.register(app as TypedApp, deps);
}
