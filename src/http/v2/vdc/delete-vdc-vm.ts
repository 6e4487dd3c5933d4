import { Type } from '@sinclair/typebox';
import { deleteVm } from '../../../core/vdc/delete.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { operationView } from '../servers/presenters.ts';
import { ADDITION, VdcVmDeletedSchema, VmParams } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.delete('/vdc/vms/:id', {
    config: { area: 'vdc' },
    schema: {
      operationId: 'deleteVdcVm',
      tags: ['VDC'],
      summary: 'Delete a VDC VM',
      description: `${ADDITION}

Deleting is permanent, so it must be confirmed: \`confirm_name\` must be the VM's name exactly (else 422 \`VALIDATION_FAILED\` naming
\`confirm_name\`, and nothing happens). The VM and its snapshots leave every list at once and its resources go back to the pool; the
\`vdc_vm.delete\` operation destroys the machine in the background. A VM still being created, or busy with another operation, is 409
\`STATE_CONFLICT\`.`,
      params: VmParams,
      querystring: Type.Object({
        confirm_name: Type.String({ minLength: 1, maxLength: 253, description: 'The VM\'s name, to confirm the delete.', examples: ['db-1.example.com'] }),
      }, { additionalProperties: false }),
      response: { 200: Envelope(VdcVmDeletedSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request) => {
    const r = await withCtx(deps, request, (ctx) => deleteVm(ctx, request.params.id, { name: request.query.confirm_name, field: 'confirm_name' }));
    return ok(request, { id: r.id, status: 'deleted' as const, operation: operationView(r.operation) });
  });
}
