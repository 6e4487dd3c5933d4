// The legacy v1 API: same keys, scopes, rate limits, sandbox and core as v2, in v1's envelope,
// names and statuses. Everything under /v1 answers in the v1 envelope, including unknown paths
// (404), known paths with another method (405) and unreadable bodies (400). Every route file
// registers itself here (one file per operation, named after its operationId).
import type { FastifyInstance } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { ApiError } from '../../core/errors.ts';
import type { UndocumentedError } from '../route-conventions.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { DOCUMENT_CACHE, type StaticAsset, sendAsset, staticAsset } from '../static-asset.ts';
import { sendV1Error } from './errors.ts';
import { v1Document } from './openapi.ts';
import * as listServers from './servers/list-servers.ts';
import * as createServer from './servers/create-server.ts';
import * as getServer from './servers/get-server.ts';
import * as deleteServer from './servers/delete-server.ts';
import * as upgradeServer from './servers/upgrade-server.ts';
import * as resetServerPassword from './servers/reset-server-password.ts';
import * as reinstallServer from './servers/reinstall-server.ts';
import * as openServerVnc from './servers/open-server-vnc.ts';
import * as listServerIps from './servers/list-server-ips.ts';
import * as purchaseServerIp from './servers/purchase-server-ip.ts';
import * as getServerIpRdns from './servers/get-server-ip-rdns.ts';
import * as updateServerIpRdns from './servers/update-server-ip-rdns.ts';
import * as cancelServerIp from './servers/cancel-server-ip.ts';
import * as listServerSnapshots from './servers/list-server-snapshots.ts';
import * as createServerSnapshot from './servers/create-server-snapshot.ts';
import * as deleteServerSnapshot from './servers/delete-server-snapshot.ts';
import * as restoreServerSnapshot from './servers/restore-server-snapshot.ts';
import * as restartServer from './servers/restart-server.ts';
import * as startServer from './servers/start-server.ts';
import * as stopServer from './servers/stop-server.ts';
// One line per family below; the order is the order of the v1 document.

// v1b's families (catalog, VDC, tickets, sub-users, balance, package families): one list per family file.
import { BILLING_ROUTES } from './billing/routes.ts';
import { CATALOG_ROUTES, PACKAGE_FAMILY_ROUTES } from './catalog/routes.ts';
import { SUB_USERS_ROUTES } from './sub-users/routes.ts';
import { TICKETS_ROUTES } from './tickets/routes.ts';
import { VDC_ROUTES } from './vdc/routes.ts';

const ROUTES: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  listServers, startServer, stopServer, restartServer,
  createServer, getServer, deleteServer, upgradeServer, resetServerPassword, reinstallServer, openServerVnc,
  listServerIps, purchaseServerIp, getServerIpRdns, updateServerIpRdns, cancelServerIp,
  listServerSnapshots, createServerSnapshot, deleteServerSnapshot, restoreServerSnapshot,
  // v1b
  ...CATALOG_ROUTES, ...VDC_ROUTES, ...TICKETS_ROUTES, ...SUB_USERS_ROUTES, ...BILLING_ROUTES, ...PACKAGE_FAMILY_ROUTES,
];

export interface V1Options extends RouteDeps {
  /** Tests: told of every error response whose code the route does not declare. */
  onUndocumentedError?: (e: UndocumentedError) => void;
}

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

export async function registerV1(app: FastifyInstance, deps: V1Options): Promise<void> {
  app.setErrorHandler((err, request, reply) => sendV1Error(err, request, reply));

  const router = FindMyWay();
  app.addHook('onRoute', (r) => {
    for (const m of [r.method].flat()) {
      try {
        router.on(m.toUpperCase() as HTTPMethod, r.url, () => {});
      } catch {
        // Already known (the HEAD mirror of a GET route).
      }
    }
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = METHODS.filter((m) => m !== request.method && router.find(m, path));
    if (allowed.length > 0) {
      return sendV1Error(new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}`, [], { allow: allowed }), request, reply);
    }
    return sendV1Error(new ApiError('ENDPOINT_NOT_FOUND', `No endpoint ${request.method} ${path}`), request, reply);
  });

  // The sandbox is invisible in v1's envelope, so test-key answers say so in a header.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.caller?.sandbox) reply.header('X-Sandbox', 'true');
    return payload;
  });

  const report = deps.onUndocumentedError;
  if (report) {
    app.addHook('onSend', async (request, reply, payload) => {
      const declared = request.routeOptions.config?.v1ErrorCodes;
      if (reply.statusCode < 400 || !declared || typeof payload !== 'string') return payload;
      let code = '(no error envelope)';
      try {
        code = String((JSON.parse(payload) as { error?: { code?: unknown } }).error?.code ?? code);
      } catch {
        // Not JSON: reported as it is.
      }
      if (!(declared[String(reply.statusCode)] as string[] | undefined)?.includes(code)) {
        report({ method: request.method, route: request.routeOptions.url ?? request.url, status: reply.statusCode, code });
      }
      return payload;
    });
  }

  let doc: StaticAsset | undefined;
  app.get('/openapi.json', { config: { auth: 'none' }, schema: { hide: true } },
    async (request, reply) => sendAsset(request, reply, doc ??= staticAsset(JSON.stringify(v1Document(deps.config)), 'application/json; charset=utf-8', DOCUMENT_CACHE)));
  for (const r of ROUTES) r.register(app as TypedApp, deps);
}
