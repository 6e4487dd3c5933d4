import { Type } from '@sinclair/typebox';
import { deleteVm } from '../../../core/vdc/delete.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1message } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1MessageSaying } from '../schemas.ts';
import { VmParams } from './schemas.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'DELETE', url: '/vms/:vm_id', area: 'vdc', operationId: 'deleteVm', tag: 'VDC',
    summary: 'Delete a VM',
    description: 'Deletes the VM and its snapshots; its resources go back to the pool at once. `confirm_vm_name` must be the VM\'s name '
      + 'exactly (else 422 naming it, and nothing happens). A VM still being created or busy with another action is 422 `STATE_CONFLICT`.',
    params: VmParams,
    body: Type.Object({
      confirm_vm_name: Type.String({ minLength: 1, maxLength: 253, description: 'The VM\'s name, to confirm.', examples: ['db-1.example.com'] }),
    }, { additionalProperties: false }),
    response: V1MessageSaying('VM is being deleted'),
    errors: ['RESOURCE_NOT_FOUND', 'STATE_CONFLICT'],
    handler: async (request) => {
      await withCtx(deps, request, (ctx) => deleteVm(ctx, request.params.vm_id, { name: request.body.confirm_vm_name, field: 'confirm_vm_name' }));
      return v1message('VM is being deleted');
    },
  });
}
