import { Type } from '@sinclair/typebox';

import { createServerRequest } from '../../../core/servers/create-request.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { IdempotencyKeyHeaders } from '../../schemas.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { createdDetail } from './detail.ts';
import { V1ServerDetail } from './presenters.ts';
import { answerOnce } from '../../idempotent-route.ts';

const Id = (description: string, example: number) => Type.Integer({ minimum: 1, maximum: 2_147_483_647, description, examples: [example] });

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'POST',
    url: '/servers',
    area: 'servers',
    operationId: 'createServer',
    tag: 'Servers',
    summary: 'Create a server',
    description: 'Billable: the package\'s first month is charged from the balance now (422 `INSUFFICIENT_BALANCE` when it does not suffice). '
      + 'Answers with the new server (`pending`); it becomes `active` once provisioned. `description` is accepted and not kept. '
      + 'An optional `Idempotency-Key` header (a UUID) makes a retry replay the first answer instead of buying twice.',
    headers: IdempotencyKeyHeaders,
    body: Type.Object({
      package_id: Id('A package (GET /packages).', 1),
      version_id: Id('An operating system version (GET /operating-systems).', 1),
      location_id: Id('A location (GET /locations).', 1),
      server_name: Type.String({ minLength: 1, maxLength: 253, description: 'Host name: letters, digits and hyphens in dot-separated labels.', examples: ['web-1.example.com'] }),
      password: Type.String({ minLength: 1, maxLength: 128, description: 'Root password: at least 8 characters with upper case, lower case, digit and symbol.', examples: ['c0rrect-Horse-battery'] }),
      description: Type.Optional(Type.String({ maxLength: 1000, description: 'Free text (accepted for compatibility; not stored).' })),
    }, { additionalProperties: false }),
    response: V1Data(V1ServerDetail),
    errors: ['INVALID_PASSWORD', 'PLAN_NOT_FOUND', 'LOCATION_INVALID', 'OS_VERSION_INVALID', 'HOSTNAME_IN_USE', 'INSUFFICIENT_BALANCE',
      'IDEMPOTENCY_KEY_CONFLICT', 'CAPACITY_UNAVAILABLE', 'UPSTREAM_ERROR'],
    renames: { name: 'server_name', plan_id: 'package_id', os_version_id: 'version_id' },
    handler: async (request, reply) => {
      const b = request.body;
      // v2's create, package mode: the same entry point, the same two ways (create-request.ts).
      const input = { name: b.server_name, location_id: b.location_id, plan_id: b.package_id, os_version_id: b.version_id, password: b.password };
      return answerOnce(deps, request, reply, (ctx, idem) =>
        createServerRequest(ctx, idem.key, idem.fingerprint, input, (created) => v1ok(createdDetail(created), 'Server is being created')));
    },
  });
}
