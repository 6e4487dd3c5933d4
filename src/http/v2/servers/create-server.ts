import { Type } from '@sinclair/typebox';
import { idempotent, parseIdempotencyKey, requestFingerprint } from '../../../core/idempotency/service.ts';
import { createServer } from '../../../core/servers/create.ts';
import { CUSTOM_LIMITS } from '../../../core/servers/rules.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, IntId, errorResponses } from '../../schemas.ts';
import { OperationSchema, ServerSchema, operationView, serverView } from './presenters.ts';

const Int = (min: number, max: number, description: string) => Type.Integer({ minimum: min, maximum: max, description });

export const CreateServerBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 253, description: 'Host name, e.g. web-1.example.com' }),
  location_id: { ...IntId, description: 'A location from GET /locations (must route to the primary platform)' },
  plan_id: Type.Optional({ ...IntId, description: 'Package mode: a plan from GET /plans' }),
  cpu_cores: Type.Optional(Int(CUSTOM_LIMITS.cpu_cores.min, CUSTOM_LIMITS.cpu_cores.max, 'Custom mode: vCPUs')),
  ram_mb: Type.Optional(Int(CUSTOM_LIMITS.ram_mb.min, CUSTOM_LIMITS.ram_mb.max, 'Custom mode: RAM in MB, whole GB')),
  storage_gb: Type.Optional(Int(CUSTOM_LIMITS.storage_gb.min, CUSTOM_LIMITS.storage_gb.max, 'Custom mode: disk in GB')),
  os_version_id: Type.Optional({ ...IntId, description: 'Required in package and custom modes (GET /operating-systems)' }),
  password: Type.String({ minLength: 1, maxLength: 128, description: 'At least 8 characters with upper case, lower case, digit and symbol' }),
  source: Type.Optional(Type.Object({
    snapshot_id: Type.Optional(IntId),
    backup_id: Type.Optional(IntId),
  }, { additionalProperties: false, description: 'From-source mode: exactly one of snapshot_id or backup_id' })),
  ipv4_count: Type.Optional(Int(1, 16, 'IPv4 addresses (default 1); each beyond the first is billed monthly')),
  ipv6_count: Type.Optional(Int(0, 16, 'IPv6 addresses (default 1; 0 = none); each beyond the first is billed monthly')),
}, { additionalProperties: false });

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/servers', {
    config: { area: 'servers' },
    schema: {
      tags: ['Servers'],
      summary: 'Create a server (billable: the first monthly cycle is charged now). Accepts Idempotency-Key.',
      headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ description: 'A UUID; retries with the same key and body replay the first response' })) }),
      body: CreateServerBody,
      response: {
        201: Envelope(Type.Intersect([ServerSchema, Type.Object({ operation: OperationSchema })])),
        ...errorResponses,
      },
    },
  }, async (request, reply) => {
    const key = parseIdempotencyKey(request.headers['idempotency-key']);
    const fingerprint = requestFingerprint('POST', '/v2/servers', request.body);
    const result = await withCtx(deps, request, (ctx) => idempotent(ctx, key, fingerprint, async (trx) => {
      const { view, operation } = await createServer(ctx, trx, request.body);
      return { status: 201, body: { ...serverView(view), operation: operationView(operation) } };
    }));
    if (result.replayed) reply.header('Idempotent-Replayed', 'true');
    reply.code(result.status);
    // A replay returns the stored body of the first response, which had this very shape.
    return ok(request, result.body as ReturnType<typeof serverView> & { operation: ReturnType<typeof operationView> });
  });
}
