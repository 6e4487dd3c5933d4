// The v2 API: each family lists its routes in its own src/http/v2/<family>/index.ts (one file per
// operation, named after its operationId). The route conventions come first, then the docs, so
// that the OpenAPI generator (scoped to /v2) sees every route registered after it, conventions applied.
import type { FastifyInstance } from 'fastify';
import { type UndocumentedError, applyRouteConventions, checkDocumentedErrors } from '../route-conventions.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { routes as servers } from './servers/index.ts';
import { routes as operations } from './operations/index.ts';
import { routes as events } from './events/index.ts';
import { routes as webhooks } from './webhooks/index.ts';
import { routes as vdc } from './vdc/index.ts';
import { routes as domains } from './domains/index.ts';
import { routes as dns } from './dns/index.ts';
import { routes as webHosting } from './web-hosting/index.ts';
import { routes as catalog } from './catalog/index.ts';
import { routes as billing } from './billing/index.ts';
import { routes as account } from './account/index.ts';
import { routes as tickets } from './tickets/index.ts';
import { routes as subUsers } from './sub-users/index.ts';
import { routes as sshKeys } from './ssh-keys/index.ts';
import { routes as reseller } from './reseller/index.ts';
import * as notImplemented from './not-implemented.ts';

// One entry per family; the order is the order of the OpenAPI document.
const ROUTES: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  ...servers, ...operations, ...events, ...webhooks, ...vdc, ...domains, ...dns, ...webHosting, ...catalog, ...billing, ...account, ...tickets, ...subUsers, ...sshKeys, ...reseller, notImplemented,
];

export interface V2Options extends RouteDeps {
  /**
   * Registers the reference and the OpenAPI generator, before any route (src/http/docs, handed in by
   * app.ts: the docs read the v2 routes' schemas, so v2 imports nothing of them).
   */
  registerDocs(app: TypedApp, deps: RouteDeps): Promise<void>;
  /** Tests: told of every error response whose code the route does not declare (route-conventions.ts). */
  onUndocumentedError?: (e: UndocumentedError) => void;
}

export async function registerV2(app: FastifyInstance, deps: V2Options): Promise<void> {
  app.addHook('onRoute', applyRouteConventions);
  if (deps.onUndocumentedError) checkDocumentedErrors(app, deps.onUndocumentedError);
  await deps.registerDocs(app as TypedApp, deps);
  for (const r of ROUTES) r.register(app as TypedApp, deps);
}
