import { Type } from '@sinclair/typebox';

import { createVm } from '../../../core/vdc/create.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { IdempotencyKeyHeaders } from '../../schemas.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { SizeField, V1VmDetail, VM_RENAMES } from './schemas.ts';
import { v1VmDetail } from './views.ts';
import { idempotent } from '../../../core/idempotency/service.ts';
import { answerOnce } from '../../idempotent-route.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'POST', url: '/vms', area: 'vdc', operationId: 'createVm', tag: 'VDC',
    summary: 'Create a VM',
    description: `Creates a VM in the VDC from the pool — never charged on its own — and answers with it (\`pending\`; it becomes
\`active\` when provisioned). It takes its vCPUs, RAM and disk from the pool, 1 IPv4 address, and 1 IPv6 address when the pool has IPv6.
\`location_name\` is a location's name or code (GET /locations), \`os_id\` an id from an OS's \`versions[]\` (GET /operating-systems).
Checks run input, then references, then the pool: a VM the pool cannot hold is 422 \`QUOTA_EXCEEDED\` naming each field that falls short;
then the location: no node with room, or no free address in its pools, is 422 \`CAPACITY_UNAVAILABLE\` and nothing is made.
An \`Idempotency-Key\` header (a UUID) makes a retry answer the first VM instead of making a second.`,
    body: Type.Object({
      vm_name: Type.String({ minLength: 1, maxLength: 253, description: 'Host name: letters, digits and hyphens in dot-separated labels.', examples: ['db-1.example.com'] }),
      password: Type.String({ minLength: 1, maxLength: 128, description: 'Root password: 8+ characters with upper case, lower case, digit and symbol.', examples: ['c0rrect-Horse-battery'] }),
      cpu_cores: SizeField('cpu_cores', 'vCPUs.', 2),
      ram_gb: SizeField('ram_gb', 'RAM in GB.', 4),
      disk_gb: SizeField('disk_gb', 'Disk in GB.', 80),
      location_name: Type.String({ minLength: 1, maxLength: 100, description: 'A location\'s name or code.', examples: ['Frankfurt'] }),
      os_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'An OS version id.', examples: [1] }),
    }, { additionalProperties: false }),
    headers: IdempotencyKeyHeaders,
    response: V1Data(V1VmDetail),
    errors: ['INVALID_PASSWORD', 'LOCATION_INVALID', 'OS_VERSION_INVALID', 'QUOTA_EXCEEDED', 'CAPACITY_UNAVAILABLE', 'IDEMPOTENCY_KEY_CONFLICT'],
    renames: VM_RENAMES,
    handler: async (request, reply) => {
      const b = request.body;
      return answerOnce(deps, request, reply, (ctx, idem) => idempotent(ctx, idem.key, idem.fingerprint, async (trx) => {
        const { view } = await createVm(ctx, trx, {
          name: b.vm_name, password: b.password, cpu_cores: b.cpu_cores, ram_mb: b.ram_gb * 1024, storage_gb: b.disk_gb,
          location_name: b.location_name, os_version_id: b.os_id,
        });
        return { outcome: 'created', body: v1ok(v1VmDetail(view), 'VM is being created') };
      }));
    },
  });
}
