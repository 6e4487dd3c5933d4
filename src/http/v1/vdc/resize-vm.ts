import { Type } from '@sinclair/typebox';
import { vmAction } from '../../../core/vdc/actions.ts';
import { getVm } from '../../../core/vdc/read.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { SizeField, V1VmDetail, VM_RENAMES, VmParams } from './schemas.ts';
import { v1VmDetail } from './views.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'POST', url: '/vms/:vm_id/resize', area: 'vdc', operationId: 'resizeVm', tag: 'VDC',
    summary: 'Resize a VM',
    description: `Starts resizing the VM to the size given (fields left out keep their value; disks only grow) and answers with the VM as it
stands: the new size shows once the resize completes. Growth is taken from the pool at once (422 \`QUOTA_EXCEEDED\` naming each field that
falls short); a shrink is given back when it completes. Never charged.`,
    params: VmParams,
    body: Type.Object({
      cpu_cores: Type.Optional(SizeField('cpu_cores', 'New vCPU count.', 4)),
      ram_gb: Type.Optional(SizeField('ram_gb', 'New RAM in GB.', 8)),
      disk_gb: Type.Optional(SizeField('disk_gb', 'New disk in GB; disks only grow.', 160)),
    }, { additionalProperties: false, minProperties: 1 }),
    response: V1Data(V1VmDetail),
    errors: ['RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'QUOTA_EXCEEDED', 'CAPACITY_UNAVAILABLE'],
    renames: VM_RENAMES,
    handler: async (request) => {
      const b = request.body;
      const view = await withCtx(deps, request, async (ctx) => {
        await vmAction(ctx, request.params.vm_id, 'resize', {
          ...(b.cpu_cores !== undefined ? { cpu_cores: b.cpu_cores } : {}),
          ...(b.ram_gb !== undefined ? { ram_mb: b.ram_gb * 1024 } : {}),
          ...(b.disk_gb !== undefined ? { storage_gb: b.disk_gb } : {}),
        });
        return getVm(ctx, request.params.vm_id);
      });
      return v1ok(v1VmDetail(view), 'VM resize started');
    },
  });
}
