// POST /admin/v1/accounts/:id/impersonation: a staff member signs in as the customer, with a
// reason. Any role that reads accounts may ask (accounts:read); whether the session may write
// follows the role (core/staff/impersonation.ts). The answer's url works once, for LINK_TTL_S.
// The start is this write's audit row (action startImpersonation, the reason in its changes).
import { Type } from '@sinclair/typebox';
import { REASON_MAX, REASON_MIN, startImpersonation } from '../../core/staff/impersonation.ts';
import { linkSigningKey } from '../../core/signed-links.ts';
import { locate, ok } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, Timestamp, errorResponses } from '../schemas.ts';

const ImpersonationSchema = Type.Object({
  url: Type.String({ description: 'Open it in a browser: it works once, within five minutes, and lands on /panel signed in as the customer' }),
  expires_at: Timestamp,
  read_only: Type.Boolean({ description: 'true: the session may look but not change anything (the role does not write to customers\' accounts)' }),
});

export function register(app: TypedApp, { db, config, now }: RouteDeps) {
  app.post('/accounts/:id/impersonation', {
    // A POST that only reads: what the session may do is decided by the role, not by this right.
    config: { auth: 'admin', rateLimit: false, right: 'accounts', access: 'read' },
    schema: {
      tags: ['Admin'],
      operationId: 'startImpersonation',
      summary: 'Sign in as the customer: a single-use link to the customer panel, with the reason shown to the customer',
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
      body: Type.Object({
        reason: Type.String({ minLength: REASON_MIN, maxLength: REASON_MAX, description: 'Why; shown on the banner and in the customer\'s session list' }),
      }, { additionalProperties: false }),
      response: { 201: Envelope(ImpersonationSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'VALIDATION_FAILED') },
    },
  }, async (request, reply) => {
    const key = await linkSigningKey(db);
    const started = await startImpersonation(db, request.staff!, request.params.id, request.body.reason, key, config.publicUrl, now());
    reply.code(201).header('Cache-Control', 'no-store');
    // The session has no address of its own: the account it is of.
    locate(reply, config.publicUrl, 'admin', 'v1', 'accounts', request.params.id);
    return reply.send(ok(request, { url: started.url, expires_at: started.expiresAt.toISOString(), read_only: started.readOnly }));
  });
}
