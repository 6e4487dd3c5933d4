import { Type } from '@sinclair/typebox';

import { CUSTOM_LIMITS } from '../../../core/servers/rules.ts';
import { createVm } from '../../../core/vdc/create.ts';
import { locate, ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, BillableHeaders, IntId, errorResponses } from '../../schemas.ts';
import { operationView } from '../servers/presenters.ts';
import { ADDITION, VdcVmCreatedSchema, vdcVmView } from './presenters.ts';
import { idempotent } from '../../../core/idempotency/service.ts';
import { answerOnce } from '../../idempotent-route.ts';

const Int = (limits: { min: number; max: number }, description: string, example: number) =>
  Type.Integer({ minimum: limits.min, maximum: limits.max, description, examples: [example] });

const CreateVmBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 253, description: 'Host name: letters, digits and hyphens in dot-separated labels.', examples: ['db-1.example.com'] }),
  password: Type.String({ minLength: 1, maxLength: 128, description: 'Root password: at least 8 characters with upper case, lower case, digit and symbol (else 422 `INVALID_PASSWORD`).', examples: ['c0rrect-Horse-battery'] }),
  cpu_cores: Int(CUSTOM_LIMITS.cpu_cores, 'vCPUs, taken from the pool\'s `cpu`.', 2),
  ram_mb: Int(CUSTOM_LIMITS.ram_mb, 'RAM in MB, whole GB (a multiple of 1024), taken from the pool\'s `ram_mb`.', 4096),
  storage_gb: Int(CUSTOM_LIMITS.storage_gb, 'Disk in GB, taken from the pool\'s `storage_gb`.', 80),
  location_id: { ...IntId, description: 'A location from GET /locations.', examples: [1] },
  os_version_id: { ...IntId, description: 'An OS from GET /operating-systems.', examples: [1] },
  user_data: Type.Optional(Type.String({
    maxLength: 65_536,
    description: 'cloud-init user data for the new VM (at most 64 KiB, UTF-8; else 422 naming `user_data`), e.g. a `#cloud-config` document, as `POST /servers` takes. Handed to the machine at its first boot where the platform runs cloud-init (LXD: `cloud-init.user-data`); a platform without cloud-init keeps it only. Not shown again.',
    examples: ['#cloud-config\npackages: [nginx]\n'],
  })),
}, { additionalProperties: false });

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/vdc/vms', {
    config: { area: 'vdc' },
    schema: {
      operationId: 'createVdcVm',
      tags: ['VDC'],
      summary: 'Create a VDC VM',
      description: `${ADDITION}

Creates a VM from your VDC pool — never charged on its own. Its vCPUs, RAM and disk are taken from the pool, with 1 IPv4 address,
and 1 IPv6 address when the pool has IPv6. Answers 201 with the VM (\`pending\`) and the \`vdc_vm.create\` operation to poll; the VM
becomes \`active\` when it completes, or \`failed\` (its resources back in the pool) if provisioning fails.

Checks run in this order: input, then references (location, OS), then the pool: a VM the pool cannot hold is 422 \`QUOTA_EXCEEDED\`,
its \`errors[]\` naming each bucket that falls short (\`cpu\`, \`ram_mb\`, \`storage_gb\`, \`ipv4\`, \`ipv6\`); then the location: no node with
room, or no free address in its pools, is 422 \`CAPACITY_UNAVAILABLE\` and nothing is made (the VM's addresses are taken with the
create itself). Send an \`Idempotency-Key\` so that a retry never creates a second VM.`,
      headers: BillableHeaders,
      body: CreateVmBody,
      response: {
        201: Envelope(VdcVmCreatedSchema),
        ...errorResponses('INVALID_PASSWORD', 'LOCATION_INVALID', 'OS_VERSION_INVALID', 'QUOTA_EXCEEDED', 'CAPACITY_UNAVAILABLE', 'IDEMPOTENCY_KEY_CONFLICT'),
      },
    },
  }, async (request, reply) => {
    // A replay returns the stored body of the first response, which had this very shape.
    const body = await answerOnce<ReturnType<typeof vdcVmView> & { operation: ReturnType<typeof operationView> }>(deps, request, reply,
      (ctx, idem) => idempotent(ctx, idem.key, idem.fingerprint, async (trx) => {
        const { view, operation } = await createVm(ctx, trx, request.body);
        return { outcome: 'created', body: { ...vdcVmView(view), operation: operationView(operation) } };
      }));
    locate(reply, deps.config.publicUrl, 'v2', 'vdc', 'vms', body.id);
    return ok(request, body);
  });
}
