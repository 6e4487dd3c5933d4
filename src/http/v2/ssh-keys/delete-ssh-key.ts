import { deleteSshKey } from '../../../core/ssh-keys/service.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { SshKeyParams, SshKeySchema, sshKeyView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.delete('/ssh-keys/:id', {
    config: { area: 'ssh_keys' },
    schema: {
      operationId: 'deleteSshKey',
      tags: ['SSH keys'],
      summary: 'Delete an SSH key',
      description: 'Removes the key from the account and answers with it. Servers it was installed on keep it: remove it there yourself.',
      params: SshKeyParams,
      response: { 200: Envelope(SshKeySchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => ok(request, sshKeyView(await withCtx(deps, request, (ctx) => deleteSshKey(ctx, request.params.id)))));
}
