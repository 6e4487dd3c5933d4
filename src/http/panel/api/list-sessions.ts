// GET /panel/api/sessions: the signed-in person's live sessions, newest first, this one marked;
// a staff member's (an impersonation) says who and why.
import { Type } from '@sinclair/typebox';
import { listSessions } from '../../../core/panel/sessions.ts';
import { ok } from '../../reply.ts';
import type { TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { type PanelDeps, identityOf } from '../deps.ts';

const Session = Type.Object({
  id: Type.String(),
  current: Type.Boolean(),
  ip: Type.String(),
  user_agent: Type.String(),
  created_at: Type.String(),
  last_seen_at: Type.String(),
  expires_at: Type.String(),
  impersonation: Type.Union([Type.Object({
    staff_name: Type.String(),
    reason: Type.String(),
    read_only: Type.Boolean(),
  }), Type.Null()], { description: 'A staff member signed in as the customer: who and why; null for the person\'s own sessions' }),
});

export function register(app: TypedApp, deps: PanelDeps) {
  app.get('/api/sessions', {
    config: { auth: 'panel' },
    schema: { response: { 200: Envelope(Type.Array(Session)), ...errorResponses() } },
  }, async (request) => {
    const identity = await identityOf(request, deps);
    const rows = await listSessions(deps.db, identity, deps.now(), deps.sessions);
    return ok(request, rows.map((s) => ({
      id: s.public_id, current: s.public_id === identity.publicId, ip: s.ip, user_agent: s.user_agent,
      created_at: s.created_at.toISOString(), last_seen_at: s.last_seen_at.toISOString(), expires_at: s.expires_at.toISOString(),
      impersonation: s.impersonator_staff_id !== null && s.reason !== null
        ? { staff_name: s.staff_name ?? 'staff', reason: s.reason, read_only: s.read_only }
        : null,
    })));
  });
}
