// The payment services' dependencies as a route builds them from its own.
import type { FastifyBaseLogger } from 'fastify';
import type { PaymentDeps } from '../../core/payments/deps.ts';
import { billingSettings } from '../billing-settings.ts';
import type { RouteDeps } from '../route-types.ts';

export function paymentDeps(deps: RouteDeps, log: FastifyBaseLogger): PaymentDeps {
  return {
    db: deps.db,
    services: deps.services,
    billing: billingSettings(deps),
    topup: { minCents: deps.config.topupMinCents, maxCents: deps.config.topupMaxCents },
    publicUrl: deps.config.publicUrl,
    now: deps.now,
    // The settlement after a credit: the money is in, so this is logged, not answered (the worker's next pass retries).
    onError: (err, what) => log.error({ err, resource: what }, 'a payment needs attention: the settlement after its credit failed (the next billing pass retries it), or the provider reported another amount'),
  };
}
