import { Type } from '@sinclair/typebox';
import { VERBS, serverAction } from '../../../core/servers/actions.ts';
import { CUSTOM_LIMITS } from '../../../core/servers/rules.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, IntId, StringEnum, errorResponses } from '../../schemas.ts';
import { OperationSchema, ServerParams, ServerSchema, operationView, serverView } from './presenters.ts';

const Int = (min: number, max: number, description: string) => Type.Integer({ minimum: min, maximum: max, description });

// One body for every verb, as the spec's table has it; the core refuses a field of another verb.
const ActionBody = Type.Object({
  password: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'reset_password: the new root password (generated and shown once if omitted)' })),
  os_version_id: Type.Optional({ ...IntId, description: 'reinstall: the OS to install (default: the current one)' }),
  cpu: Type.Optional(Int(CUSTOM_LIMITS.cpu_cores.min, CUSTOM_LIMITS.cpu_cores.max, 'resize: new vCPU count (custom servers only)')),
  ram_gb: Type.Optional(Int(CUSTOM_LIMITS.ram_mb.min / 1024, CUSTOM_LIMITS.ram_mb.max / 1024, 'resize: new RAM in GB')),
  disk_gb: Type.Optional(Int(CUSTOM_LIMITS.storage_gb.min, CUSTOM_LIMITS.storage_gb.max, 'resize: new disk in GB; disks only grow')),
  hostname: Type.Optional(Type.String({ minLength: 1, maxLength: 253, description: 'clone: host name of the new server (default: the source name with -clone after its first label, e.g. web-1-clone.example.com)' })),
}, { additionalProperties: false });

const Accepted = Type.Object({
  operation: OperationSchema,
  password: Type.Optional(Type.String({ description: 'reset_password without a password: the generated one. Shown only here, once.' })),
  /** clone: the new server, pending until the operation completes. */
  server: Type.Optional(ServerSchema),
});

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/servers/:id/actions/:verb', {
    config: { area: 'servers' },
    // Verbs without fields are usually sent without a body; validate those as an empty one.
    preValidation: async (request) => {
      request.body ??= {};
    },
    schema: {
      tags: ['Servers'],
      summary: 'Start an action (202 with the operation to poll). resize and clone are billable; an unknown verb is 422 naming `verb`.',
      params: Type.Object({
        ...ServerParams.properties,
        verb: StringEnum(VERBS, { description: 'The action' }),
      }),
      body: ActionBody,
      response: { 202: Envelope(Accepted), ...errorResponses },
    },
  }, async (request, reply) => {
    const result = await withCtx(deps, request, (ctx) => serverAction(ctx, request.params.id, request.params.verb, request.body));
    reply.code(202);
    return ok(request, {
      operation: operationView(result.operation),
      ...(result.password !== undefined ? { password: result.password } : {}),
      ...(result.server ? { server: serverView(result.server) } : {}),
    });
  });
}
