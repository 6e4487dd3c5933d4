import { getVm } from '../../../core/vdc/read.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { VdcVmSchema, VmParams, vdcVmView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/vdc/vms/:id', {
    config: { area: 'vdc' },
    schema: {
      operationId: 'getVdcVm',
      tags: ['VDC'],
      summary: 'Get a VDC VM',
      description: 'A VM with its power state, OS and size read live from the platform for VMs on the primary provider. Best effort: if the '
        + 'platform does not answer in time (or the VM is elsewhere), `power_state` is `unknown` and the rest is what was last recorded — never an error. '
        + 'Another account\'s id is 404.',
      params: VmParams,
      response: { 200: Envelope(VdcVmSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const view = await withCtx(deps, request, (ctx) => getVm(ctx, request.params.id));
    return ok(request, vdcVmView(view));
  });
}
