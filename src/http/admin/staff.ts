// Staff members (owner only), their console sessions, their API tokens: /admin/v1/staff….
import { Type } from '@sinclair/typebox';
import { ts } from '../../core/time.ts';
import { getStaff, inviteStaff, listStaff, reinviteStaff, resetTwoFactor, updateStaff } from '../../core/staff/members.ts';
import { mayActOn } from '../../core/staff/principal.ts';
import { STAFF_ROLES } from '../../core/staff/roles.ts';
import { listStaffSessions, revokeStaffSession } from '../../core/staff/sessions.ts';
import { createStaffToken, listTokensOf, revokeStaffToken } from '../../core/staff/tokens.ts';
import type { StaffMember, StaffSession, StaffToken } from '../../db/schema.ts';
import { locate, ok, page, pageOf } from '../reply.ts';
import { type RouteDeps, type TypedApp } from '../route-types.ts';
import { Envelope, ListEnvelope, NullableTimestamp, PageQuery, StringEnum, Timestamp, errorResponses } from '../schemas.ts';
import { sessionSettings } from '../panel/session-auth.ts';
import { principalOf } from './principal.ts';

const staffRight = { auth: 'admin' as const, rateLimit: false, right: 'staff' as const };
const selfRight = { auth: 'admin' as const, rateLimit: false, right: 'self' as const };
const tags = ['Admin staff'];
const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const Role = StringEnum(STAFF_ROLES);

const MemberFields = {
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: Role,
  status: StringEnum(['active', 'disabled'] as const),
  password_set: Type.Boolean(),
  two_factor_enabled: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
};
export const StaffMemberSchema = Type.Object(MemberFields);

export function staffView(m: StaffMember) {
  return {
    id: m.id, email: m.email, name: m.name, role: m.role, status: m.status,
    password_set: m.password_hash !== null, two_factor_enabled: m.totp_enabled_at !== null,
    created_at: ts(m.created_at), updated_at: ts(m.updated_at),
  };
}

const InvitedSchema = Type.Object({
  ...MemberFields,
  url: Type.String({ description: 'The set-password link (works once, for 72 hours); also queued as a notice to the member' }),
  expires_at: Timestamp,
});

const TokenFields = {
  id: Type.String(),
  staff_id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the token, to recognise it' }),
  ip_allowlist: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'null: usable from anywhere' }),
  created_at: Timestamp,
  last_used_at: NullableTimestamp,
  revoked_at: NullableTimestamp,
};
const StaffTokenSchema = Type.Object(TokenFields);

function tokenView(t: StaffToken) {
  return {
    id: t.id, staff_id: t.staff_id, name: t.name, prefix: t.prefix, ip_allowlist: t.ip_allowlist,
    created_at: ts(t.created_at), last_used_at: t.last_used_at && ts(t.last_used_at), revoked_at: t.revoked_at && ts(t.revoked_at),
  };
}

const NewTokenSchema = Type.Object({
  ...TokenFields,
  token: Type.String({ description: 'The secret (hc_staff_…), shown only here' }),
});

export const StaffSessionSchema = Type.Object({
  id: Type.String(),
  ip: Type.String(),
  user_agent: Type.String(),
  created_at: Timestamp,
  last_seen_at: Timestamp,
  expires_at: Timestamp,
});

export function sessionView(s: StaffSession) {
  return { id: s.public_id, ip: s.ip, user_agent: s.user_agent, created_at: ts(s.created_at), last_seen_at: ts(s.last_seen_at), expires_at: ts(s.expires_at) };
}

export function register(app: TypedApp, deps: RouteDeps) {
  const { db } = deps;
  const consoleUrl = `${deps.config.publicUrl}/admin`;
  const sessions = sessionSettings(deps.config);

  app.post('/staff', {
    config: staffRight,
    schema: {
      tags, operationId: 'createStaffMember', summary: 'Invite a staff member with a role',
      body: Type.Object({
        email: Type.String({ format: 'email', maxLength: 254 }),
        name: Type.String({ minLength: 1, maxLength: 200 }),
        role: Role,
      }, { additionalProperties: false }),
      response: { 201: Envelope(InvitedSchema), ...errorResponses('VALIDATION_FAILED') },
    },
  }, async (request, reply) => {
    const { member, link } = await inviteStaff(db, request.body, consoleUrl, deps.now());
    reply.code(201);
    locate(reply, deps.config.publicUrl, 'admin', 'v1', 'staff', member.id);
    return reply.send(ok(request, { ...staffView(member), url: link.url, expires_at: ts(link.expiresAt) }));
  });

  app.get('/staff', {
    config: staffRight,
    schema: {
      tags, operationId: 'listStaffMembers', summary: 'List staff members, oldest first',
      querystring: Type.Object({
        ...PageQuery(),
        role: Type.Optional(Role),
        status: Type.Optional(StringEnum(['active', 'disabled'] as const)),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(StaffMemberSchema), ...errorResponses() },
    },
  }, async (request) => {
    const { role, status } = request.query;
    return page(request, await listStaff(db, { role, status }, pageOf(request.query)), staffView);
  });

  app.get('/staff/:id', {
    config: staffRight,
    schema: { tags, operationId: 'getStaffMember', params: Id, response: { 200: Envelope(StaffMemberSchema), ...errorResponses('RESOURCE_NOT_FOUND') } },
  }, async (request) => ok(request, staffView(await getStaff(db, request.params.id))));

  app.patch('/staff/:id', {
    config: staffRight,
    schema: {
      tags, operationId: 'updateStaffMember', summary: "Change a member's name, role or status (disabling ends its sessions and revokes its tokens)",
      params: Id,
      body: Type.Object({
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        role: Type.Optional(Role),
        status: Type.Optional(StringEnum(['active', 'disabled'] as const)),
      }, { additionalProperties: false, minProperties: 1 }),
      response: { 200: Envelope(StaffMemberSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request) => ok(request, staffView(await updateStaff(db, principalOf(request), request.params.id, request.body, deps.now()))));

  app.post('/staff/:id/invitation', {
    config: staffRight,
    schema: {
      tags, operationId: 'reinviteStaffMember', summary: 'A new set-password link for a member who has not set a password',
      params: Id,
      response: { 200: Envelope(Type.Object({ url: Type.String(), expires_at: Timestamp })), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request) => {
    const link = await reinviteStaff(db, request.params.id, consoleUrl, deps.now());
    return ok(request, { url: link.url, expires_at: ts(link.expiresAt) });
  });

  app.post('/staff/:id/two-factor/reset', {
    config: staffRight,
    schema: {
      tags, operationId: 'resetStaffTwoFactor', summary: "Clear another member's two-factor and end its sessions: it enrols again at its next sign-in",
      params: Id,
      response: { 200: Envelope(StaffMemberSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request) => ok(request, staffView(await resetTwoFactor(db, principalOf(request), request.params.id, deps.now()))));

  app.get('/staff/:id/sessions', {
    config: selfRight,
    schema: {
      tags, operationId: 'listStaffSessions', summary: "A member's live console sessions (your own, or any member's for an owner)",
      params: Id,
      response: { 200: ListEnvelope(StaffSessionSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    mayActOn(principalOf(request), request.params.id);
    await getStaff(db, request.params.id);
    const rows = await listStaffSessions(db, request.params.id, deps.now(), sessions);
    return page(request, { items: rows, total: rows.length, page: 1, perPage: Math.max(rows.length, 1) }, sessionView);
  });

  app.delete('/staff/:id/sessions/:session_id', {
    config: selfRight,
    schema: {
      tags, operationId: 'revokeStaffSession', summary: 'End a console session',
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), session_id: Type.String({ minLength: 1, maxLength: 64 }) }),
      response: { 200: Envelope(Type.Object({ revoked: Type.Literal(true) })), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    mayActOn(principalOf(request), request.params.id);
    await revokeStaffSession(db, request.params.id, request.params.session_id, deps.now());
    return ok(request, { revoked: true as const });
  });

  app.post('/staff/:id/tokens', {
    config: selfRight,
    schema: {
      tags, operationId: 'createStaffToken', summary: "A staff API token with the member's role (only an owner makes them for others)",
      params: Id,
      body: Type.Object({
        name: Type.String({ minLength: 1, maxLength: 100 }),
        ip_allowlist: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100, description: 'IPs or CIDRs; leave out for any address' })),
      }, { additionalProperties: false }),
      response: { 201: Envelope(NewTokenSchema), ...errorResponses('VALIDATION_FAILED', 'RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request, reply) => {
    const { token, secret } = await createStaffToken(db, principalOf(request), request.params.id, { name: request.body.name, ipAllowlist: request.body.ip_allowlist });
    reply.code(201);
    locate(reply, deps.config.publicUrl, 'admin', 'v1', 'staff-tokens', token.id);
    return reply.send(ok(request, { ...tokenView(token), token: secret }));
  });

  app.get('/staff/:id/tokens', {
    config: selfRight,
    schema: {
      tags, operationId: 'listStaffTokens', summary: "A member's live tokens (never their secrets)",
      params: Id,
      response: { 200: ListEnvelope(StaffTokenSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const rows = await listTokensOf(db, principalOf(request), request.params.id);
    return page(request, { items: rows, total: rows.length, page: 1, perPage: Math.max(rows.length, 1) }, tokenView);
  });

  app.delete('/staff-tokens/:id', {
    config: selfRight,
    schema: {
      tags, operationId: 'revokeStaffToken', summary: 'Revoke a staff token (later use → 401)',
      params: Id,
      response: { 200: Envelope(StaffTokenSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => ok(request, tokenView(await revokeStaffToken(db, principalOf(request), request.params.id, deps.now()))));
}
