import { Type } from '@sinclair/typebox';
import { PUBLIC_KEY_MAX } from '../../../core/ssh-keys/parse.ts';
import { NAME_MAX, addSshKey } from '../../../core/ssh-keys/service.ts';
import { withCtx } from '../../core-call.ts';
import { locate, ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { SshKeySchema, sshKeyView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/ssh-keys', {
    config: { area: 'ssh_keys' },
    schema: {
      operationId: 'createSshKey',
      tags: ['SSH keys'],
      summary: 'Add an SSH key',
      description: `Adds an OpenSSH public key — the one line of a \`.pub\` file: type, key data, optional comment. Accepted:
\`ssh-ed25519\`, \`ecdsa-sha2-nistp256\`, \`ecdsa-sha2-nistp384\`, \`ecdsa-sha2-nistp521\`, and \`ssh-rsa\` of at least 2048 bits. The key data
must decode and be of the type it is labelled with; anything else (DSA, short RSA, a private key, options) is 422 naming \`public_key\`.
The same key twice in the account is 409 \`STATE_CONFLICT\`. Give its \`id\` in \`ssh_key_ids\` when creating a server to install it.`,
      body: Type.Object({
        name: Type.String({ minLength: 1, maxLength: NAME_MAX, description: 'Your label for the key.', examples: ['ada laptop'] }),
        public_key: Type.String({ minLength: 1, maxLength: PUBLIC_KEY_MAX, examples: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOgrwl0f5A2kUotfqOttm6K9jlEaiF/jl0RrznG0yJGa ada@laptop'] }),
      }, { additionalProperties: false }),
      response: { 201: Envelope(SshKeySchema), ...errorResponses('STATE_CONFLICT') },
    },
  }, async (request, reply) => {
    const key = await withCtx(deps, request, (ctx) => addSshKey(ctx, request.body));
    const view = sshKeyView(key);
    reply.code(201);
    locate(reply, deps.config.publicUrl, 'v2', 'ssh-keys', view.id);
    return reply.send(ok(request, view));
  });
}
