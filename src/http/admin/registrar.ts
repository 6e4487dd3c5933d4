// The simulated registrar's registry (its fault switch is in provider-faults.ts, shared with the
// other providers): names held at other registrars, seeded with their auth codes so customers can
// transfer them in, and the list of every name the registry holds. Rules: src/providers/simulated/registrar-admin.ts.
import { Type } from '@sinclair/typebox';
import { addRegistryName, listRegistryNames } from '../../providers/simulated/registrar-admin.ts';
import { ts } from '../../core/time.ts';
import { US } from '../../db/queries/sim-registrar.ts';
import type { SimRegistryDomain } from '../../db/schema.ts';
import { locate, ok, page, pageOf } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, ListEnvelope, PageQuery, StringEnum, Timestamp, errorResponses } from '../schemas.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'infrastructure' as const };
const tags = ['Admin provider'];

const RegistryName = Type.Object({
  domain: Type.String(),
  registrar: Type.String({ description: '"us" for names registered through this installation, else the other registrar' }),
  auth_code: Type.String({ description: 'The EPP code a transfer needs' }),
  nameservers: Type.Array(Type.String()),
  transfer_lock: Type.Boolean(),
  expires_at: Timestamp,
  created_at: Timestamp,
});

const view = (r: SimRegistryDomain) => ({
  domain: r.name, registrar: r.sponsor, auth_code: r.auth_code, nameservers: r.nameservers, transfer_lock: r.transfer_lock,
  expires_at: ts(r.expires_at), created_at: ts(r.created_at),
});

export function register(app: TypedApp, { db, now, config }: RouteDeps) {
  app.get('/registrar/domains', {
    config: admin,
    schema: {
      operationId: 'listRegistryDomains',
      tags,
      querystring: Type.Object({
        ...PageQuery(),
        registrar: Type.Optional(StringEnum(['us', 'other'] as const, { description: 'us: registered through this installation; other: held at other registrars' })),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(RegistryName), ...errorResponses() },
    },
  }, async (request) => page(request, await listRegistryNames(db, request.query.registrar, pageOf(request.query)), view));

  app.post('/registrar/domains', {
    config: admin,
    schema: {
      operationId: 'addRegistryDomain',
      tags,
      description: `A name registered at another registrar (the simulated registry only), so customers can transfer it in with auth_code. 409 when the registry holds the name already; "${US}" is this installation.`,
      body: Type.Object({
        domain: Type.String({ minLength: 1, maxLength: 253, description: 'Under a TLD of the price list; IDN allowed' }),
        auth_code: Type.String({ minLength: 1, maxLength: 64, description: '6 to 32 printable characters' }),
        expires_at: Type.Optional(Type.String({ format: 'date-time', description: 'Default: a year from now' })),
        registrar: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Default: Other Registrar Inc.' })),
        nameservers: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 253 }), { minItems: 2, maxItems: 13 })),
      }, { additionalProperties: false }),
      response: { 201: Envelope(RegistryName), ...errorResponses('STATE_CONFLICT') },
    },
  }, async (request, reply) => {
    const name = await addRegistryName(db, request.body, now());
    reply.code(201);
    // A registry name has no URL of its own: the registry's list that shows it.
    locate(reply, config.publicUrl, 'admin', 'v1', 'registrar', 'domains');
    return reply.send(ok(request, view(name)));
  });
}
