// POST /admin/v1/accounts/:id/panel-invitation: a single-use link (72 h) for the account's owner
// to set a password and sign in to the customer panel, also queued as a notice to the account's
// email. A new invitation retires the previous link. An owner who already set a password is 409:
// a link handed to the operator never replaces a password ("Forgot password" mails the owner one).
import { Type } from '@sinclair/typebox';
import { inviteOwner } from '../../core/panel/invitations.ts';
import { locate, ok } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, errorResponses } from '../schemas.ts';

const PanelInvitationSchema = Type.Object({
  url: Type.String({ description: 'The link to give the owner (also mailed); it works once' }),
  expires_at: Type.String({ format: 'date-time' }),
  email: Type.String({ description: 'The email the owner signs in with' }),
});

export function register(app: TypedApp, { db, config, now }: RouteDeps) {
  app.post('/accounts/:id/panel-invitation', {
    config: { auth: 'admin', rateLimit: false, right: 'access' },
    schema: {
      tags: ['Admin'],
      operationId: 'invitePanelOwner',
      summary: 'Invite the account\'s owner to the customer panel: a single-use link to set a password (72 h), also mailed',
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
      response: { 201: Envelope(PanelInvitationSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request, reply) => {
    const inv = await inviteOwner(db, request.params.id, `${config.publicUrl}/panel`, now());
    reply.code(201);
    // The invitation has no URL of its own: the account it belongs to.
    locate(reply, config.publicUrl, 'admin', 'v1', 'accounts', request.params.id);
    return reply.send(ok(request, { url: inv.url, expires_at: inv.expiresAt.toISOString(), email: inv.user.email }));
  });
}
