// GET /panel/api/two-factor: whether two-factor sign-in is on, and how many recovery codes are left.
import { Type } from '@sinclair/typebox';
import { ok } from '../../reply.ts';
import type { TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { type PanelDeps, identityOf } from '../deps.ts';
import { twoFactorStatus } from '../../../core/panel/two-factor.ts';

export function register(app: TypedApp, deps: PanelDeps) {
  app.get('/api/two-factor', {
    config: { auth: 'panel' },
    schema: { response: { 200: Envelope(Type.Object({ enabled: Type.Boolean(), recovery_codes_left: Type.Integer() })), ...errorResponses() } },
  }, async (request) => {
    const s = await twoFactorStatus(deps.db, (await identityOf(request, deps)).userId);
    return ok(request, { enabled: s.enabled, recovery_codes_left: s.recoveryCodesLeft });
  });
}
