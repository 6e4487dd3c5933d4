// POST /panel/api/two-factor: turns two-factor on with a first code of the enrolled secret, and
// answers ten one-time recovery codes (shown only here).
import { Type } from '@sinclair/typebox';
import { ok } from '../../reply.ts';
import type { TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { type PanelDeps, identityOf } from '../deps.ts';
import { confirmEnrolment } from '../../../core/panel/two-factor.ts';
import { Code } from '../schemas.ts';
import { throttledCode } from './code-throttle.ts';

const CodeBody = Type.Object({ code: Code }, { additionalProperties: false });
const RecoveryCodes = Type.Object({ recovery_codes: Type.Array(Type.String()) });

export function register(app: TypedApp, deps: PanelDeps) {
  app.post('/api/two-factor', {
    config: { auth: 'panel', impersonation: 'never' },
    schema: { body: CodeBody, response: { 200: Envelope(RecoveryCodes), ...errorResponses('VALIDATION_FAILED', 'STATE_CONFLICT') } },
  }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const { userId } = await identityOf(request, deps);
    const codes = await throttledCode(deps, userId, () => confirmEnrolment(deps.db, userId, request.body.code, deps.now()));
    return ok(request, { recovery_codes: codes });
  });
}
