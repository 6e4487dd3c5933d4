// /payments: what the payment provider reaches (Stripe's webhook) or shows the customer (the
// simulated provider's checkout page). Outside the APIs: no key, no envelope of success; errors
// in the v2 envelope. Only the routes of the provider PAYMENTS picks exist. Bodies are read here
// as the provider sends them: the webhook's raw bytes (its signature covers them exactly) and the
// checkout page's form.
import type { FastifyInstance } from 'fastify';
import fastQuerystring from 'fast-querystring';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import * as simulatedCheckout from './simulated-checkout.ts';
import * as stripeWebhook from './stripe-webhook.ts';

export async function registerPaymentRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, { ...fastQuerystring.parse(body as string) });
  });
  if (deps.config.payments === 'stripe') stripeWebhook.register(app as TypedApp, deps);
  if (deps.config.payments === 'simulated') simulatedCheckout.register(app as TypedApp, deps);
}
