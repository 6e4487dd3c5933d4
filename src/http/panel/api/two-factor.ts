// Two-factor authentication of the signed-in person (one family, small endpoints):
//   GET  /panel/api/two-factor                   on or off, recovery codes left
//   POST /panel/api/two-factor/enrolment         a new secret: QR code (SVG) and the key to type
//   POST /panel/api/two-factor                   {code} turns it on; answers 10 recovery codes (shown once)
//   POST /panel/api/two-factor/disable           {code} turns it off (a TOTP or recovery code)
//   POST /panel/api/two-factor/recovery-codes    {code} new recovery codes; the old ones stop working
import { Type } from '@sinclair/typebox';
import { ApiError } from '../../../core/errors.ts';
import {
  beginEnrolment, confirmEnrolment, disableTwoFactor, regenerateRecoveryCodes, twoFactorStatus,
} from '../../../core/panel/two-factor.ts';
import { ok } from '../../reply.ts';
import type { TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { type PanelDeps, identityOf } from '../deps.ts';
import { Code, Done } from '../schemas.ts';

const CodeBody = Type.Object({ code: Code }, { additionalProperties: false });
const RecoveryCodes = Type.Object({ recovery_codes: Type.Array(Type.String()) });

export function register(app: TypedApp, deps: PanelDeps) {
  /** Wrong codes count against the person's code budget, as at sign-in. */
  const throttled = async <T>(userId: number, fn: () => Promise<T>): Promise<T> => {
    const key = `code:${userId}`;
    await deps.throttle.check([key]);
    try {
      return await fn();
    } catch (e) {
      if (e instanceof ApiError && e.code === 'VALIDATION_FAILED') await deps.throttle.fail([key]);
      throw e;
    }
  };

  app.get('/api/two-factor', {
    config: { auth: 'panel' },
    schema: { response: { 200: Envelope(Type.Object({ enabled: Type.Boolean(), recovery_codes_left: Type.Integer() })), ...errorResponses() } },
  }, async (request) => {
    const s = await twoFactorStatus(deps.db, (await identityOf(request, deps)).userId);
    return ok(request, { enabled: s.enabled, recovery_codes_left: s.recoveryCodesLeft });
  });

  app.post('/api/two-factor/enrolment', {
    config: { auth: 'panel' },
    schema: {
      response: {
        200: Envelope(Type.Object({ secret: Type.String(), otpauth_uri: Type.String(), qr_svg: Type.String({ description: 'An SVG document' }) })),
        ...errorResponses('STATE_CONFLICT'),
      },
    },
  }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const e = await beginEnrolment(deps.db, (await identityOf(request, deps)).userId, deps.now());
    return ok(request, { secret: e.secret, otpauth_uri: e.uri, qr_svg: e.qrSvg });
  });

  app.post('/api/two-factor', {
    config: { auth: 'panel' },
    schema: { body: CodeBody, response: { 200: Envelope(RecoveryCodes), ...errorResponses('VALIDATION_FAILED', 'STATE_CONFLICT') } },
  }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const { userId } = await identityOf(request, deps);
    const codes = await throttled(userId, () => confirmEnrolment(deps.db, userId, request.body.code, deps.now()));
    return ok(request, { recovery_codes: codes });
  });

  app.post('/api/two-factor/disable', {
    config: { auth: 'panel' },
    schema: { body: CodeBody, response: { 200: Envelope(Done), ...errorResponses('VALIDATION_FAILED', 'STATE_CONFLICT') } },
  }, async (request) => {
    const { userId } = await identityOf(request, deps);
    await throttled(userId, () => disableTwoFactor(deps.db, userId, request.body.code, deps.now()));
    return ok(request, { done: true });
  });

  app.post('/api/two-factor/recovery-codes', {
    config: { auth: 'panel' },
    schema: { body: CodeBody, response: { 200: Envelope(RecoveryCodes), ...errorResponses('VALIDATION_FAILED', 'STATE_CONFLICT') } },
  }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const { userId } = await identityOf(request, deps);
    const codes = await throttled(userId, () => regenerateRecoveryCodes(deps.db, userId, request.body.code, deps.now()));
    return ok(request, { recovery_codes: codes });
  });
}
