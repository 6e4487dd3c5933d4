// POST /panel/api/two-factor/disable: turns two-factor off; needs a current code or a recovery code.
import { Type } from '@sinclair/typebox';
import { ok } from '../../reply.ts';
import type { TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { type PanelDeps, identityOf } from '../deps.ts';
import { disableTwoFactor } from '../../../core/panel/two-factor.ts';
import { Code, Done } from '../schemas.ts';
import { throttledCode } from './code-throttle.ts';

const CodeBody = Type.Object({ code: Code }, { additionalProperties: false });

export function register(app: TypedApp, deps: PanelDeps) {
  app.post('/api/two-factor/disable', {
    config: { auth: 'panel', impersonation: 'never' },
    schema: { body: CodeBody, response: { 200: Envelope(Done), ...errorResponses('VALIDATION_FAILED', 'STATE_CONFLICT') } },
  }, async (request) => {
    const { userId } = await identityOf(request, deps);
    await throttledCode(deps, userId, () => disableTwoFactor(deps.db, userId, request.body.code, deps.now()));
    return ok(request, { done: true });
  });
}
