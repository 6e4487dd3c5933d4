import { Type } from '@sinclair/typebox';
import { listSshKeys } from '../../../core/ssh-keys/service.ts';
import { withCtx } from '../../core-call.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, errorResponses } from '../../schemas.ts';
import { SshKeySchema, sshKeyView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/ssh-keys', {
    config: { area: 'ssh_keys' },
    schema: {
      operationId: 'listSshKeys',
      tags: ['SSH keys'],
      summary: 'List SSH keys',
      description: 'The account\'s SSH public keys, in the order they were added.',
      querystring: Type.Object(PageQuery(), { additionalProperties: false }),
      response: { 200: ListEnvelope(SshKeySchema), ...errorResponses() },
    },
  }, async (request) => page(request, await withCtx(deps, request, (ctx) => listSshKeys(ctx, pageOf(request.query))), sshKeyView));
}
