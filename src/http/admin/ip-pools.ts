// The address pools per location, whatever the compute driver: adapters of src/core/ip-pools/admin.ts.
import { type TSchema, Type } from '@sinclair/typebox';
import { type PoolAddressRow, type PoolView, addIpPool, deleteIpPool, listIpPools, listPoolAddresses } from '../../core/ip-pools/admin.ts';
import { versionOf } from '../../core/ip-pools/pool-rules.ts';
import { ts } from '../../core/time.ts';
import { locate, ok, page, pageOf } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, IntId, ListEnvelope, PageQuery, StringEnum, Timestamp, errorResponses } from '../schemas.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'infrastructure' as const };
const tags = ['Admin IP pools'];
const Id = Type.Object({ id: IntId });

const Count = Type.String({ pattern: '^\\d+$', description: 'A decimal string: an IPv6 pool holds more addresses than a JSON number counts exactly' });
const Pool = Type.Object({
  id: Type.Integer(),
  location_id: Type.Integer(),
  version: Type.Integer({ enum: [4, 6] }),
  cidr: Type.String(),
  gateway: Type.String(),
  size: Count,
  used: Type.Integer({ description: 'Addresses leased to machines now' }),
  assigned: Type.Integer({ description: 'The same as `used`: addresses assigned to machines now (released ones rest IP_COOLDOWN_S before they are handed out again)' }),
  free: Count,
  created_at: Timestamp,
});

const poolView = ({ pool, size, used, free }: PoolView) => ({
  id: pool.id, location_id: pool.location_id, version: pool.version, cidr: pool.cidr, gateway: pool.gateway,
  size: size.toString(), used, assigned: used, free: free.toString(), created_at: ts(pool.created_at),
});

const STATES = ['allocated', 'cooling', 'free'] as const;
const Nullable = <T extends TSchema>(t: T, description: string) => Type.Union([t, Type.Null()], { description });
const PoolAddress = Type.Object({
  address: Type.String(),
  state: StringEnum(STATES, {
    description: '`allocated`: held by a machine; `cooling`: released, resting IP_COOLDOWN_S until `until`; `free`: released and rested, handed out again before fresh addresses',
  }),
  resource: Nullable(Type.Object({
    type: Type.Union([Type.Literal('server'), Type.Literal('vdc_vm')]),
    id: Type.String({ description: 'The server (`srv_…`) or VDC VM (`vm_…`) id' }),
  }), 'allocated: the server or VDC VM holding it (null when the machine is no longer ours to name)'),
  machine_id: Nullable(Type.String(), 'allocated: the platform\'s machine (the LXD instance\'s name)'),
  allocated_at: Nullable(Timestamp, 'allocated: since when'),
  released_at: Nullable(Timestamp, 'When it was last released, if ever'),
  until: Nullable(Timestamp, 'cooling: when its rest ends'),
});

const holderOf = ({ state, resource_type: type, resource_id: id }: PoolAddressRow) =>
  state === 'allocated' && id !== null && (type === 'server' || type === 'vdc_vm') ? { type: type as 'server' | 'vdc_vm', id } : null;

const addressView = (a: PoolAddressRow) => ({
  address: a.address,
  state: a.state,
  resource: holderOf(a),
  machine_id: a.state === 'allocated' ? a.machine_id : null,
  allocated_at: a.state === 'allocated' && a.leased_at ? ts(a.leased_at) : null,
  released_at: a.released_at ? ts(a.released_at) : null,
  until: a.until ? ts(a.until) : null,
});

export function register(app: TypedApp, { db, config }: RouteDeps) {
  app.get('/locations/:id/ip-pools', {
    config: admin,
    schema: { tags, params: Id, querystring: Type.Object(PageQuery(), { additionalProperties: false }), response: { 200: ListEnvelope(Pool), ...errorResponses() } },
  }, async (request) => page(request, await listIpPools(db, request.params.id, pageOf(request.query)), poolView));

  app.post('/locations/:id/ip-pools', {
    config: admin,
    schema: {
      tags,
      params: Id,
      body: Type.Object({
        version: Type.Integer({ enum: [4, 6] }),
        cidr: Type.String({ minLength: 1, maxLength: 64, description: 'IPv4 /16–/30 or IPv6 /48–/120; must not overlap another pool' }),
        gateway: Type.String({ minLength: 1, maxLength: 64, description: 'A host address inside the cidr; never leased' }),
      }, { additionalProperties: false }),
      response: { 201: Envelope(Pool), ...errorResponses() },
    },
  }, async (request, reply) => {
    const { version, cidr, gateway } = request.body;
    const pool = await addIpPool(db, request.params.id, { version: version as 4 | 6, cidr, gateway });
    reply.code(201);
    // Where it is deleted; it is read in its location's list.
    locate(reply, config.publicUrl, 'admin', 'v1', 'ip-pools', pool.pool.id);
    return reply.send(ok(request, poolView(pool)));
  });

  // The same pools, addressed by themselves: every location's (or ?location_id=), and added with location_id in the body.
  app.get('/ip-pools', {
    config: admin,
    schema: {
      tags, summary: 'List address pools (every location, or one)',
      querystring: Type.Object({ ...PageQuery(), location_id: Type.Optional(IntId) }, { additionalProperties: false }),
      response: { 200: ListEnvelope(Pool), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => page(request, await listIpPools(db, request.query.location_id, pageOf(request.query)), poolView));

  app.post('/ip-pools', {
    config: admin,
    schema: {
      tags, summary: 'Add an address pool to a location',
      body: Type.Object({
        location_id: IntId,
        version: Type.Optional(Type.Integer({ enum: [4, 6], description: 'Default: the family of cidr' })),
        cidr: Type.String({ minLength: 1, maxLength: 64, description: 'IPv4 /16–/30 or IPv6 /48–/120; must not overlap another pool' }),
        gateway: Type.String({ minLength: 1, maxLength: 64, description: 'A host address inside the cidr; never leased' }),
      }, { additionalProperties: false }),
      response: { 201: Envelope(Pool), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request, reply) => {
    const { location_id, cidr, gateway } = request.body;
    const version = (request.body.version ?? versionOf(cidr) ?? 4) as 4 | 6;
    const pool = await addIpPool(db, location_id, { version, cidr, gateway });
    reply.code(201);
    locate(reply, config.publicUrl, 'admin', 'v1', 'ip-pools', pool.pool.id);
    return reply.send(ok(request, poolView(pool)));
  });

  app.get('/ip-pools/:id/addresses', {
    config: admin,
    schema: {
      tags, summary: 'List the addresses a pool has handed out',
      description: 'In address order: those held by a server or VDC VM, those resting after a release (with the end of the rest), and those rested and free again. Addresses the pool never handed out are not listed.',
      params: Id,
      querystring: Type.Object({ ...PageQuery(), state: Type.Optional(StringEnum(STATES)) }, { additionalProperties: false }),
      response: { 200: ListEnvelope(PoolAddress), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => page(request, await listPoolAddresses(db, request.params.id, request.query.state, pageOf(request.query)), addressView));

  app.delete('/ip-pools/:id', {
    config: admin,
    schema: { tags, params: Id, response: { 200: Envelope(Pool), ...errorResponses() } },
  }, async (request) => ok(request, poolView(await deleteIpPool(db, request.params.id))));
}
