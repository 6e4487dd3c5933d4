import { Type } from '@sinclair/typebox';
import { createServerRequest } from '../../../core/servers/create-request.ts';
import { CUSTOM_LIMITS } from '../../../core/servers/rules.ts';
import { locate, ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, BillableHeaders, IntId, errorResponses } from '../../schemas.ts';
import { ServerCreatedSchema, operationView, serverView } from './presenters.ts';
import { answerOnce } from '../../idempotent-route.ts';

const Int = (min: number, max: number, description: string, example: number) => Type.Integer({ minimum: min, maximum: max, description, examples: [example] });

const common = { name: 'web-1.example.com', location_id: 1, password: 'c0rrect-Horse-battery' };

const MODES = `Send the fields of exactly one mode:

| mode | fields | also required |
|---|---|---|
| package | \`plan_id\` (GET /plans) | \`os_version_id\` |
| custom | \`cpu_cores\` + \`ram_mb\` + \`storage_gb\`, priced per unit | \`os_version_id\` |
| from source | \`source\`: \`{"snapshot_id"}\` or \`{"backup_id"}\` | nothing more: size and OS come from the snapshot |

\`name\`, \`location_id\` and \`password\` are required in every mode. Mixing modes, or leaving out a field of the
chosen mode, is 422 \`VALIDATION_FAILED\` naming the field.`;

export const CreateServerBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 253, description: 'Host name: letters, digits and hyphens in dot-separated labels.', examples: ['web-1.example.com'] }),
  location_id: { ...IntId, description: 'A location from GET /locations.', examples: [1] },
  plan_id: Type.Optional({ ...IntId, description: 'Package mode: a plan from GET /plans.', examples: [2] }),
  cpu_cores: Type.Optional(Int(CUSTOM_LIMITS.cpu_cores.min, CUSTOM_LIMITS.cpu_cores.max, 'Custom mode: vCPUs.', 2)),
  ram_mb: Type.Optional(Int(CUSTOM_LIMITS.ram_mb.min, CUSTOM_LIMITS.ram_mb.max, 'Custom mode: RAM in MB, whole GB (a multiple of 1024).', 4096)),
  storage_gb: Type.Optional(Int(CUSTOM_LIMITS.storage_gb.min, CUSTOM_LIMITS.storage_gb.max, 'Custom mode: disk in GB.', 80)),
  os_version_id: Type.Optional({ ...IntId, description: 'Package and custom modes: an OS from GET /operating-systems.', examples: [1] }),
  password: Type.String({ minLength: 1, maxLength: 128, description: 'Root password: at least 8 characters with upper case, lower case, digit and symbol (else 422 `INVALID_PASSWORD`).', examples: [common.password] }),
  source: Type.Optional(Type.Object({
    snapshot_id: Type.Optional({ ...IntId, description: 'An available snapshot of one of your servers (GET /servers/{id}/snapshots).', examples: [42] }),
    backup_id: Type.Optional({ ...IntId, description: 'A backup (none are kept by this platform yet: always 422 `SOURCE_NOT_FOUND`).' }),
  }, { additionalProperties: false, description: 'From-source mode: exactly one of `snapshot_id` or `backup_id`.' })),
  ipv4_count: Type.Optional(Int(1, 16, 'IPv4 addresses, default 1; each beyond the first is billed monthly.', 1)),
  ipv6_count: Type.Optional(Int(0, 16, 'IPv6 addresses, default 1 (0 = none); each beyond the first is billed monthly.', 1)),
  ssh_key_ids: Type.Optional(Type.Array({ ...IntId, examples: [12] }, {
    maxItems: 20,
    description: 'Your SSH keys (GET /ssh-keys) to install for root on the new server, in any mode. An id that is not one of your keys is 422 naming `ssh_key_ids`.',
    examples: [[12]],
  })),
  user_data: Type.Optional(Type.String({
    maxLength: 65_536,
    description: '**Addition to the Hosting Cloud API v2**: cloud-init user data for the new server (at most 64 KiB, UTF-8), e.g. a `#cloud-config` document. Handed to the machine at its first boot where the platform runs cloud-init (LXD: `cloud-init.user-data`); a platform without cloud-init keeps it only. Not shown again.',
    examples: ['#cloud-config\npackages: [nginx]\n'],
  })),
}, {
  additionalProperties: false,
  description: MODES,
  'x-examples': {
    package: { summary: 'Package mode: a plan', value: { ...common, plan_id: 2, os_version_id: 1 } },
    custom: { summary: 'Custom mode: vCPUs, RAM and disk', value: { ...common, cpu_cores: 2, ram_mb: 4096, storage_gb: 80, os_version_id: 1, ipv4_count: 2, ssh_key_ids: [12] } },
    source: { summary: 'From a snapshot', value: { ...common, name: 'web-2.example.com', source: { snapshot_id: 42 } } },
  },
});

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/servers', {
    config: { area: 'servers' },
    schema: {
      operationId: 'createServer',
      tags: ['Servers'],
      summary: 'Create a server',
      description: `**Billable**: the first monthly cycle is charged from the balance now. Answers 201 with the new server (\`pending\`) and
the \`server.create\` operation to poll; the server becomes \`active\` when it completes, or \`cancelled\` and refunded if it fails.
Send an \`Idempotency-Key\` so that a retry never buys twice.

Three modes — package, custom and from a snapshot — take different fields: see the request body.
Checks run in this order: input, then references (plan, location, OS, source), then state (host name), then balance —
a request that fails validation never reports \`INSUFFICIENT_BALANCE\`.`,
      headers: BillableHeaders,
      body: CreateServerBody,
      response: {
        201: Envelope(ServerCreatedSchema),
        ...errorResponses('INVALID_PASSWORD', 'PLAN_NOT_FOUND', 'LOCATION_INVALID', 'OS_VERSION_INVALID', 'SOURCE_NOT_FOUND',
          'HOSTNAME_IN_USE', 'CAPACITY_UNAVAILABLE', 'INSUFFICIENT_BALANCE', 'IDEMPOTENCY_KEY_CONFLICT', 'UPSTREAM_ERROR'),
      },
    },
  }, async (request, reply) => {
    // A replay returns the stored body of the first response, which had this very shape.
    const body = await answerOnce<ReturnType<typeof serverView> & { operation: ReturnType<typeof operationView> }>(deps, request, reply, (ctx, idem) =>
      createServerRequest(ctx, idem.key, idem.fingerprint, request.body, ({ view, operation }) => ({ ...serverView(view), operation: operationView(operation) })));
    locate(reply, deps.config.publicUrl, 'v2', 'servers', body.id);
    return ok(request, body);
  });
}
