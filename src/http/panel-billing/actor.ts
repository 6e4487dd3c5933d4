// The customer of a panel billing route, as the panel's session told (index.ts sets it first).
import type { FastifyRequest } from 'fastify';
import type { BillingActor } from '../../core/payments/access.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The customer of a panel billing route (set before its handler runs). */
    billingActor: BillingActor | null;
  }
}

export function actor(request: FastifyRequest): BillingActor {
  return request.billingActor!;
}
