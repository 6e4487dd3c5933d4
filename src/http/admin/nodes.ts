// Hypervisor nodes for the operator: GET/POST /nodes, GET/PATCH /nodes/{id} (draining migrates the
// node's servers away), and POST /servers/{id}/migrate. Rules in src/core/nodes/.
import { Type } from '@sinclair/typebox';
import { MIGRATE_MODES } from '../../core/nodes/migrate.ts';
import { CPU_VENDORS, NODE_STATUSES, PLACED, addNode, getNode, listNodes, migrateServerAsOperator, updateNodeStatus } from '../../core/nodes/service.ts';
import { timestamp } from '../../core/time.ts';
import type { NodeUsageRow } from '../../db/queries/nodes.ts';
import { locate, ok } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, IntId, NullableTimestamp, StringEnum, errorResponses } from '../schemas.ts';
import { operationView } from '../v2/servers/presenters.ts';

const admin = { auth: 'admin' as const, rateLimit: false };
const tags = ['Admin Nodes'];
const Id = Type.Object({ id: IntId });
const Bucket = Type.Object({ total: Type.Integer(), used: Type.Integer(), available: Type.Integer() });

const NodeSchema = Type.Object({
  id: Type.Integer(),
  location_id: Type.Integer(),
  name: Type.String({ examples: ['fra1-kvm1'] }),
  cpu_vendor: StringEnum(CPU_VENDORS),
  status: StringEnum(NODE_STATUSES),
  cpu: Bucket,
  ram_mb: Bucket,
  storage_gb: Bucket,
  servers: Type.Integer({ description: 'Live servers placed here (those migrating away included).' }),
  vms: Type.Integer({ description: 'VDC VMs placed here.' }),
  migrating_away: Type.Integer({ description: 'Servers whose migration off this node is running: a drain\'s progress.' }),
  vms_migrating_away: Type.Integer({ description: 'VMs whose migration off this node is running.' }),
  created_at: NullableTimestamp,
}, { title: 'Node' });

function nodeView(n: NodeUsageRow) {
  const bucket = (total: number, used: number) => ({ total, used, available: Math.max(0, total - used) });
  return {
    id: n.id, location_id: n.location_id, name: n.name, cpu_vendor: n.cpu_vendor, status: n.status,
    cpu: bucket(n.cpu_cores, n.used_cpu), ram_mb: bucket(n.ram_mb, n.used_ram_mb), storage_gb: bucket(n.storage_gb, n.used_storage_gb),
    servers: n.servers, vms: n.vms, migrating_away: n.migrating_away, vms_migrating_away: n.vms_migrating_away, created_at: timestamp(n.created_at),
  };
}

const DrainSchema = Type.Union([Type.Null(), Type.Object({
  started: Type.Array(Type.Object({ type: StringEnum(PLACED), id: Type.String(), operation_id: Type.String(), mode: StringEnum(MIGRATE_MODES) })),
  skipped: Type.Array(Type.Object({ type: StringEnum(PLACED), id: Type.String(), reason: Type.String() })),
})], { description: 'draining: the migrations started now (servers and VDC VMs) and those left (retry by setting draining again); null otherwise.' });

export function register(app: TypedApp, deps: RouteDeps) {
  const { db } = deps;
  app.get('/nodes', {
    config: admin,
    schema: {
      operationId: 'listNodes', tags, summary: 'List hypervisor nodes with usage',
      querystring: Type.Object({ location_id: Type.Optional(IntId) }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Array(NodeSchema)), ...errorResponses() },
    },
  }, async (request) => ok(request, (await listNodes(db, request.query.location_id)).map(nodeView)));

  app.get('/nodes/:id', {
    config: admin,
    schema: { operationId: 'getNode', tags, params: Id, response: { 200: Envelope(NodeSchema), ...errorResponses('RESOURCE_NOT_FOUND') } },
  }, async (request) => ok(request, nodeView(await getNode(db, request.params.id))));

  app.post('/nodes', {
    config: admin,
    schema: {
      operationId: 'addNode', tags, summary: 'Add a hypervisor node',
      body: Type.Object({
        location_id: IntId,
        name: Type.String({ minLength: 1, maxLength: 63, description: 'The platform\'s host name, e.g. fra1-kvm4' }),
        cpu_vendor: StringEnum(CPU_VENDORS),
        cpu_cores: Type.Integer({ minimum: 1, maximum: 4096 }),
        ram_mb: Type.Integer({ minimum: 1024, maximum: 67_108_864 }),
        storage_gb: Type.Integer({ minimum: 10, maximum: 10_000_000 }),
      }, { additionalProperties: false }),
      response: { 201: Envelope(NodeSchema), ...errorResponses('LOCATION_INVALID', 'STATE_CONFLICT') },
    },
  }, async (request, reply) => {
    const node = await addNode(db, request.body);
    reply.code(201);
    locate(reply, deps.config.publicUrl, 'admin', 'v1', 'nodes', node.id);
    return ok(request, nodeView(node));
  });

  app.patch('/nodes/:id', {
    config: admin,
    schema: {
      operationId: 'updateNode', tags, summary: 'Set a node\'s status (draining migrates its servers away)',
      params: Id,
      body: Type.Object({ status: StringEnum(NODE_STATUSES) }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Object({ node: NodeSchema, drain: DrainSchema })), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const { node, drain } = await updateNodeStatus(deps, request.params.id, request.body.status);
    return ok(request, { node: nodeView(node), drain });
  });

  app.post('/servers/:id/migrate', {
    config: admin,
    schema: {
      operationId: 'migrateServer', tags, summary: 'Migrate any account\'s server',
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
      body: Type.Object({
        node_id: Type.Optional(IntId),
        mode: Type.Optional(StringEnum(MIGRATE_MODES)),
        location_id: Type.Optional(IntId),
      }, { additionalProperties: false }),
      response: {
        202: Envelope(Type.Object({ operation: Type.Unknown() })),
        ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'LOCATION_INVALID', 'CAPACITY_UNAVAILABLE', 'NODE_INCOMPATIBLE_LIVE_MIGRATE'),
      },
    },
  }, async (request, reply) => {
    const op = await migrateServerAsOperator(deps, request.params.id, request.body);
    reply.code(202);
    return ok(request, { operation: operationView(op) });
  });
}
