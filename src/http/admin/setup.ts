// GET /admin/v1/setup: what the installation still lacks before a customer can buy a server
// (locations, plans, OS images, nodes, IP pools, invoice settings, SMTP), each with the command
// that provides it. `hostcloud serve` prints the missing ones as it starts.
import { Type } from '@sinclair/typebox';
import { SETUP_ITEMS, setupReadiness } from '../../core/setup/readiness.ts';
import { ok } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, StringEnum, errorResponses } from '../schemas.ts';

const SetupSchema = Type.Object({
  ready: Type.Boolean({ description: 'true when every check is ready' }),
  compute_driver: StringEnum(['simulated', 'lxd'] as const),
  checks: Type.Array(Type.Object({
    item: StringEnum(SETUP_ITEMS),
    ready: Type.Boolean(),
    detail: Type.String(),
    fix: Type.Union([Type.String(), Type.Null()], { description: 'The command or setting that provides it; null when ready' }),
  })),
}, { title: 'SetupReadiness' });

export function register(app: TypedApp, { db, config }: RouteDeps) {
  app.get('/setup', {
    config: { auth: 'admin', rateLimit: false, right: 'settings' },
    schema: {
      operationId: 'getSetup', tags: ['Admin setup'],
      description: 'What the installation lacks before a customer can buy a server, each part with the command that provides it.',
      response: { 200: Envelope(SetupSchema), ...errorResponses() },
    },
  }, async (request) => {
    const r = await setupReadiness(db, { computeDriver: config.computeDriver, smtpConfigured: config.smtpUrl !== undefined, payments: config.payments });
    return ok(request, { ready: r.ready, compute_driver: config.computeDriver, checks: r.checks });
  });
}
