// Hypervisor nodes for the operator: GET/POST /nodes, GET/PATCH /nodes/{id} (draining migrates the
// node's servers away), and POST /servers/{id}/migrate. Rules in src/core/nodes/.
import { Type } from '@sinclair/typebox';
import { MIGRATE_MODES } from '../../core/nodes/migrate.ts';
import { deleteNode } from '../../core/nodes/remove.ts';
import { CPU_VENDORS, NODE_STATUSES, PLACED, addNode, getNode, listNodes, migrateServerAsOperator, updateNodeStatus } from '../../core/nodes/service.ts';
import { timestamp } from '../../core/time.ts';
import { invalid } from '../../core/errors.ts';
import type { ComputeProvider } from '../../providers/compute/types.ts';
import type { NodeUsageRow } from '../../db/queries/nodes.ts';
import { locate, ok } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, IntId, NullableTimestamp, StringEnum, errorResponses } from '../schemas.ts';
import { operationView } from '../v2/servers/presenters.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'infrastructure' as const };
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
  endpoint: Type.Union([Type.String(), Type.Null()], { description: 'How the LXD driver reaches the node (unix:/… or https://host:8443); null on the simulated platform.' }),
  fingerprint: Type.Union([Type.String(), Type.Null()], { description: 'SHA-256 of the node\'s pinned server certificate (https endpoints); another certificate is refused.' }),
  connection: Type.Union([StringEnum(['ok', 'unreachable'] as const), Type.Null()], {
    description: 'Lists only: whether the node answered just now (`unreachable`: see `connection_error`); null for nodes without an endpoint and on single reads.',
  }),
  connection_error: Type.Union([Type.String(), Type.Null()]),
}, { title: 'Node' });

type Connection = { connection: 'ok' | 'unreachable' | null; connection_error: string | null };
const NO_CONNECTION: Connection = { connection: null, connection_error: null };

function nodeView(n: NodeUsageRow, c: Connection = NO_CONNECTION) {
  const bucket = (total: number, used: number) => ({ total, used, available: Math.max(0, total - used) });
  return {
    id: n.id, location_id: n.location_id, name: n.name, cpu_vendor: n.cpu_vendor, status: n.status,
    cpu: bucket(n.cpu_cores, n.used_cpu), ram_mb: bucket(n.ram_mb, n.used_ram_mb), storage_gb: bucket(n.storage_gb, n.used_storage_gb),
    servers: n.servers, vms: n.vms, migrating_away: n.migrating_away, vms_migrating_away: n.vms_migrating_away, created_at: timestamp(n.created_at),
    endpoint: n.endpoint, fingerprint: n.fingerprint, ...c,
  };
}

const DrainSchema = Type.Union([Type.Null(), Type.Object({
  started: Type.Array(Type.Object({ type: StringEnum(PLACED), id: Type.String(), operation_id: Type.String(), mode: StringEnum(MIGRATE_MODES) })),
  skipped: Type.Array(Type.Object({ type: StringEnum(PLACED), id: Type.String(), reason: Type.String() })),
})], { description: 'draining: the migrations started now (servers and VDC VMs) and those left (retry by setting draining again); null otherwise.' });

/**
 * Whether a node with an endpoint answers now, within PROVIDER_TIMEOUT_MS (a live read: a list must
 * not hang on one dead node).
 */
async function nodeConnection(compute: ComputeProvider, n: NodeUsageRow, timeoutMs: number): Promise<Connection> {
  if (!n.endpoint || !compute.inspectNode) return NO_CONNECTION;
  try {
    if (compute.probeNode) await compute.probeNode(n.endpoint, n.fingerprint, timeoutMs);
    else await compute.inspectNode(n.endpoint, n.fingerprint, timeoutMs);
    return { connection: 'ok', connection_error: null };
  } catch (e) {
    return { connection: 'unreachable', connection_error: e instanceof Error ? e.message : String(e) };
  }
}

async function clientCertificate(compute: ComputeProvider): Promise<string> {
  if (!compute.clientCertificate) throw invalid('compute', 'this installation\'s compute driver has no client certificate (COMPUTE_DRIVER=lxd has one)');
  return compute.clientCertificate();
}

/** What the operator runs on an LXD server so that it trusts us. */
export function trustCommand(certificate: string): string {
  return `cat > hostcloud.crt <<'EOF'\n${certificate.trim()}\nEOF\nlxc config trust add hostcloud.crt --name hostcloud`;
}

export function register(app: TypedApp, deps: RouteDeps) {
  const { db } = deps;
  app.get('/nodes', {
    config: admin,
    schema: {
      operationId: 'listNodes', tags, summary: 'List hypervisor nodes with usage',
      querystring: Type.Object({ location_id: Type.Optional(IntId) }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Array(NodeSchema)), ...errorResponses() },
    },
  }, async (request) => {
    const nodes = await listNodes(db, request.query.location_id);
    const connections = await Promise.all(nodes.map((n) => nodeConnection(deps.services.compute, n, deps.services.providerTimeoutMs)));
    return ok(request, nodes.map((n, i) => nodeView(n, connections[i])));
  });

  app.get('/nodes/client-certificate', {
    config: admin,
    schema: {
      operationId: 'getNodeClientCertificate', tags, summary: 'The certificate Hostcloud presents to LXD nodes, and the command that trusts it',
      response: {
        200: Envelope(Type.Object({ certificate: Type.String(), trust_command: Type.String() })),
        ...errorResponses('VALIDATION_FAILED'),
      },
    },
  }, async (request) => {
    const certificate = await clientCertificate(deps.services.compute);
    return ok(request, { certificate, trust_command: trustCommand(certificate) });
  });

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
        cpu_vendor: Type.Optional(StringEnum(CPU_VENDORS)),
        cpu_cores: Type.Optional(Type.Integer({ minimum: 1, maximum: 4096 })),
        ram_mb: Type.Optional(Type.Integer({ minimum: 1024, maximum: 67_108_864 })),
        storage_gb: Type.Optional(Type.Integer({ minimum: 10, maximum: 10_000_000 })),
        endpoint: Type.Optional(Type.String({
          minLength: 6, maxLength: 500, examples: ['https://lxd1.fra1.example.net:8443', 'unix:/var/lib/lxd/unix.socket'],
          description: 'COMPUTE_DRIVER=lxd: the LXD server. It is reached now (an unreachable or untrusting server is 502 `UPSTREAM_ERROR` saying why), its https certificate pinned, and sizes and vendor left out are read from it.',
        })),
        fingerprint: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F:]{64,95}$', description: 'The https certificate\'s SHA-256 to pin; default: the one the server presents now.' })),
      }, { additionalProperties: false, description: 'Without `endpoint`, `cpu_vendor`, `cpu_cores`, `ram_mb` and `storage_gb` are required.' }),
      response: { 201: Envelope(NodeSchema), ...errorResponses('LOCATION_INVALID', 'STATE_CONFLICT', 'UPSTREAM_ERROR') },
    },
  }, async (request, reply) => {
    const node = await addNode(db, request.body, deps.services.compute);
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

  app.delete('/nodes/:id', {
    config: admin,
    schema: {
      operationId: 'deleteNode', tags, summary: 'Delete a node nothing is placed on',
      description: 'Answers the node as it was. 409 `STATE_CONFLICT` while any server or VDC VM refers to it, deleted ones included until they are purged: drain it (status `draining`) and keep it `disabled` instead.',
      params: Id,
      response: { 200: Envelope(NodeSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request) => ok(request, nodeView(await deleteNode(db, request.params.id))));

  app.post('/servers/:id/migrate', {
    config: { ...admin, right: 'services' as const },
    schema: {
      operationId: 'migrateServer', tags, summary: 'Migrate any account\'s server',
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
      body: Type.Object({
        node_id: Type.Optional(IntId),
        mode: Type.Optional(StringEnum(MIGRATE_MODES)),
        location_id: Type.Optional(IntId),
        member: Type.Optional(Type.String({
          minLength: 1, maxLength: 63, pattern: '^[A-Za-z0-9][A-Za-z0-9.-]*$',
          description: 'A member of the server\'s node when it is an LXD cluster: the server moves there with the cluster\'s own move (default mode cold)',
        })),
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
