// The console's sign-in (/admin/v1/session…): email and password, then the authenticator app's
// code — or, for a member without two-factor, the enrolment it must finish first (QR code, first
// code, recovery codes). Throttled as the panel's sign-in; the session is the hc_staff_session
// cookie and every write carries X-CSRF-Token (the token GET /admin/v1/session answers).
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../core/errors.ts';
import { emailKey, createSignInThrottle, type ThrottleKey } from '../../core/panel/throttle.ts';
import { setStaffPassword } from '../../core/staff/members.ts';
import { permissionsOf } from '../../core/staff/roles.ts';
import {
  staffBeginEnrolment, staffCompleteSignIn, staffConfirmEnrolment, staffSignIn, staffSignOut, type StaffIdentity,
} from '../../core/staff/sessions.ts';
import { ok } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, StringEnum, errorResponses } from '../schemas.ts';
import { ipBudget } from '../auth.ts';
import { STAFF_SESSION_COOKIE, clearSessionCookie, setSessionCookie } from '../panel/cookies.ts';
import { csrfToken } from '../panel/csrf.ts';
import { clientMeta } from '../panel/deps.ts';
import { sessionSettings } from '../panel/session-auth.ts';
import { forgetStaffSession, staffSessionOf } from './staff-auth.ts';
import { StaffMemberSchema, staffView } from './staff.ts';

const open = { auth: 'staff-open' as const, rateLimit: false };
const tags = ['Admin staff'];
const Code = Type.String({ minLength: 6, maxLength: 20, description: 'The 6 digits of the authenticator app, or a recovery code' });

const addressKey = (request: FastifyRequest): ThrottleKey => `addr:${ipBudget(request.ip)}`;

export function register(app: TypedApp, deps: RouteDeps) {
  const { db } = deps;
  const sessions = sessionSettings(deps.config);
  const throttle = createSignInThrottle(db, deps.now);
  const deps2 = { db, now: deps.now, sessions };
  const identityOf = async (request: FastifyRequest): Promise<StaffIdentity> => {
    const identity = await staffSessionOf(request, deps2);
    if (!identity) throw new ApiError('AUTH_REQUIRED', 'Sign in with your email and password first (the code step lasts 5 minutes)');
    return identity;
  };
  const csrf = (request: FastifyRequest, reply: Parameters<typeof csrfToken>[1], publicId: string | null) => csrfToken(request, reply, deps.config.publicUrl, publicId);

  app.get('/session', {
    config: open,
    schema: {
      tags, operationId: 'getStaffSession', summary: 'The console session: who is signed in and at which step, and the CSRF token for writes',
      response: {
        200: Envelope(Type.Object({
          stage: StringEnum(['signed_out', 'totp', 'enrol', 'full'] as const),
          member: Type.Union([StaffMemberSchema, Type.Null()]),
          rights: Type.Array(Type.String(), { description: 'What the signed-in member\'s role may do (`accounts:read`, `billing:write`…; core/staff/roles.ts); empty until signed in' }),
          csrf_token: Type.String({ description: 'Send it as X-CSRF-Token with every write' }),
        })),
        ...errorResponses(),
      },
    },
  }, async (request, reply) => {
    const identity = await staffSessionOf(request, deps2);
    return ok(request, {
      stage: identity?.stage ?? 'signed_out' as const,
      member: identity?.stage === 'full' ? staffView(identity.member) : null,
      rights: identity?.stage === 'full' ? permissionsOf(identity.member.role) : [],
      csrf_token: csrf(request, reply, identity?.publicId ?? null),
    });
  });

  app.post('/session', {
    config: open,
    schema: {
      tags, operationId: 'signInStaff', summary: 'Sign in with email and password; next: the code (totp) or the enrolment (enrol)',
      body: Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Object({ next: StringEnum(['totp', 'enrol'] as const), csrf_token: Type.String() })), ...errorResponses('VALIDATION_FAILED') },
    },
  }, async (request, reply) => {
    const started = await throttle.attempt([emailKey(request.body.email).replace(/^email:/, 'staff-email:') as ThrottleKey, addressKey(request)],
      (e) => e instanceof ApiError && e.code === 'AUTH_INVALID',
      () => staffSignIn(db, request.body.email, request.body.password, clientMeta(request), deps.now(), sessions));
    forgetStaffSession(request);
    setSessionCookie(request, reply, deps.config.publicUrl, started.token, started.maxAgeS, STAFF_SESSION_COOKIE);
    return ok(request, { next: started.next, csrf_token: csrf(request, reply, started.session.public_id) });
  });

  app.post('/session/code', {
    config: open,
    schema: {
      tags, operationId: 'completeStaffSignIn', summary: 'The second step: a code of the authenticator app or a recovery code',
      body: Type.Object({ code: Code }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Object({ next: StringEnum(['done'] as const), csrf_token: Type.String() })), ...errorResponses('VALIDATION_FAILED', 'STATE_CONFLICT') },
    },
  }, async (request, reply) => {
    const identity = await identityOf(request);
    const started = await throttle.attempt([`staff-code:${identity.member.id}`, addressKey(request)],
      (e) => e instanceof ApiError && e.code === 'VALIDATION_FAILED',
      () => staffCompleteSignIn(db, identity, request.body.code, clientMeta(request), deps.now(), sessions));
    forgetStaffSession(request);
    setSessionCookie(request, reply, deps.config.publicUrl, started.token, started.maxAgeS, STAFF_SESSION_COOKIE);
    return ok(request, { next: 'done' as const, csrf_token: csrf(request, reply, started.session.public_id) });
  });

  app.post('/session/enrolment', {
    config: open,
    schema: {
      tags, operationId: 'beginStaffEnrolment', summary: 'The authenticator app to enrol: its secret, otpauth URI and QR code',
      response: { 200: Envelope(Type.Object({ secret: Type.String(), uri: Type.String(), qr_svg: Type.String() })), ...errorResponses('STATE_CONFLICT') },
    },
  }, async (request) => {
    const e = await staffBeginEnrolment(db, await identityOf(request), deps.now());
    return ok(request, { secret: e.secret, uri: e.uri, qr_svg: e.qrSvg });
  });

  app.post('/session/enrolment/confirm', {
    config: open,
    schema: {
      tags, operationId: 'confirmStaffEnrolment', summary: 'Confirm the enrolment with a first code: two-factor is on, the session is signed in',
      body: Type.Object({ code: Code }, { additionalProperties: false }),
      response: {
        200: Envelope(Type.Object({ recovery_codes: Type.Array(Type.String(), { description: 'Shown only here; each works once' }), csrf_token: Type.String() })),
        ...errorResponses('VALIDATION_FAILED', 'STATE_CONFLICT'),
      },
    },
  }, async (request, reply) => {
    const identity = await identityOf(request);
    const started = await throttle.attempt([`staff-code:${identity.member.id}`, addressKey(request)],
      (e) => e instanceof ApiError && e.code === 'VALIDATION_FAILED',
      () => staffConfirmEnrolment(db, identity, request.body.code, clientMeta(request), deps.now(), sessions));
    forgetStaffSession(request);
    setSessionCookie(request, reply, deps.config.publicUrl, started.token, started.maxAgeS, STAFF_SESSION_COOKIE);
    return ok(request, { recovery_codes: started.recoveryCodes, csrf_token: csrf(request, reply, started.session.public_id) });
  });

  app.delete('/session', {
    config: open,
    schema: { tags, operationId: 'signOutStaff', summary: 'Sign out of the console', response: { 200: Envelope(Type.Object({ signed_out: Type.Literal(true) })), ...errorResponses() } },
  }, async (request, reply) => {
    const identity = await staffSessionOf(request, deps2);
    if (identity) await staffSignOut(db, identity, deps.now());
    clearSessionCookie(request, reply, deps.config.publicUrl, STAFF_SESSION_COOKIE);
    forgetStaffSession(request);
    return ok(request, { signed_out: true as const });
  });

  app.post('/staff-password', {
    config: open,
    schema: {
      tags, operationId: 'setStaffPassword', summary: 'Set the first password through the invitation link (its token)',
      body: Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }), password: Type.String({ minLength: 1, maxLength: 400 }) }, { additionalProperties: false }),
      response: { 200: Envelope(StaffMemberSchema), ...errorResponses('VALIDATION_FAILED', 'RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request) => {
    await throttle.check([addressKey(request)]);
    return ok(request, staffView(await setStaffPassword(db, request.body.token, request.body.password, deps.now())));
  });
}
