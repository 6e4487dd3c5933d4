// The customer's billing routes for the panel: top-up, the account's payments, invoices and their
// PDFs, monthly statements. Who is asking comes from the panel's session (`actorOf`, given where
// the routes are mounted: AppDeps.panelBilling); each route calls the core with that actor, which
// checks the billing:read / billing:write permission of a sub-user and keeps to the account's own
// data (another account's id is not found). Envelope and errors as v2. Writes are form-free JSON
// POSTs; the panel's CSRF protection belongs to its session layer (actorOf may refuse).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BillingActor } from '../../core/payments/access.ts';
import './actor.ts';
import { applyRouteConventions } from '../route-conventions.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import * as invoices from './invoices.ts';
import * as statements from './statements.ts';
import * as topUps from './top-ups.ts';

/** The signed-in customer of a request; throws an ApiError (AUTH_REQUIRED…) when there is none. */
export type ActorOf = (request: FastifyRequest) => Promise<BillingActor>;

export interface PanelBillingDeps extends RouteDeps {
  actorOf: ActorOf;
}

export async function registerPanelBillingRoutes(app: FastifyInstance, deps: PanelBillingDeps): Promise<void> {
  app.addHook('onRoute', applyRouteConventions);
  app.decorateRequest('billingActor', null);
  app.addHook('preValidation', async (request) => {
    request.billingActor = await deps.actorOf(request);
  });
  for (const r of [topUps, invoices, statements]) r.register(app as TypedApp, deps);
}
