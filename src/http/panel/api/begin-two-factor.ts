// POST /panel/api/two-factor/enrolment: a new TOTP secret to enrol, as a QR code (an SVG document)
// and as the key to type; replaces an unconfirmed one, refused (409) while two-factor is on.
import { Type } from '@sinclair/typebox';
import { ok } from '../../reply.ts';
import type { TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { type PanelDeps, identityOf } from '../deps.ts';
import { beginEnrolment } from '../../../core/panel/two-factor.ts';

export function register(app: TypedApp, deps: PanelDeps) {
  app.post('/api/two-factor/enrolment', {
    config: { auth: 'panel', impersonation: 'never' },
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
}
