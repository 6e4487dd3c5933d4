// Hosting nodes for the operator (HOSTING_DRIVER=native): GET/POST /hosting-nodes, GET
// /hosting-nodes/{id}, POST /hosting-nodes/{id}/check|disable|enable, and GET
// /hosting-nodes/ssh-key (the key to authorise on a node). Rules in src/core/hosting/nodes.ts.
import { Type } from '@sinclair/typebox';
import {
  HOSTING_NODE_STATUSES, addHostingNode, checkHostingNode, getHostingNode, hostingSshPublicKey, listNodes, setHostingNodeEnabled,
} from '../../core/hosting/nodes.ts';
import { timestamp } from '../../core/time.ts';
import type { HostingNodeUsage } from '../../db/queries/hosting-nodes.ts';
import { locate, ok } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, IntId, NullableTimestamp, StringEnum, errorResponses } from '../schemas.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'infrastructure' as const };
const tags = ['Admin Hosting Nodes'];
const Id = Type.Object({ id: IntId });

const HostingNodeSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String({ examples: ['web1.fra1.hostcloud.example'] }),
  location_id: Type.Union([Type.Integer(), Type.Null()]),
  host: Type.String({ examples: ['203.0.113.10'] }),
  port: Type.Integer({ description: 'SSH port.' }),
  user: Type.String({ description: 'The SSH user Hostcloud logs in as (root: it makes users and reloads services).' }),
  http_port: Type.Integer({ description: 'The port the node\'s nginx serves the sites on.' }),
  host_key: Type.String({ description: 'SHA-256 of the node\'s SSH host key, pinned when it was added: another key is refused.', examples: ['SHA256:3b1oZ…'] }),
  status: StringEnum(HOSTING_NODE_STATUSES, { description: '`disabled`: no new accounts; those on it keep running.' }),
  accounts: Type.Integer({ description: 'Live accounts (being created, active or suspended).' }),
  max_accounts: Type.Integer(),
  disk: Type.Object({
    total_mb: Type.Union([Type.Integer(), Type.Null()]),
    free_mb: Type.Union([Type.Integer(), Type.Null()]),
    quotas: Type.Boolean({ description: 'Whether the filesystem of the homes enforces user quotas (else usage is measured).' }),
  }, { description: 'The filesystem of the homes at the last check.' }),
  missing: Type.Array(Type.String(), { description: 'What the node lacked at its last check (nginx, php-fpm, sftp, mariadb, tools); a node that lacks anything takes no accounts.' }),
  config: Type.Record(Type.String(), Type.String(), { description: 'The operator\'s overrides of the node\'s paths and commands (docs/hosting-nodes.md).' }),
  checked_at: NullableTimestamp,
  created_at: NullableTimestamp,
}, { title: 'HostingNode' });

function nodeView(n: HostingNodeUsage) {
  return {
    id: n.id, name: n.name, location_id: n.location_id, host: n.host, port: n.port, user: n.ssh_user, http_port: n.http_port, host_key: n.host_key,
    status: n.status, accounts: n.accounts, max_accounts: n.max_accounts,
    disk: { total_mb: n.disk_total_mb, free_mb: n.disk_free_mb, quotas: n.quotas }, missing: n.missing,
    config: (n.config ?? {}) as Record<string, string>, checked_at: timestamp(n.checked_at), created_at: timestamp(n.created_at),
  };
}

export function register(app: TypedApp, deps: RouteDeps) {
  const { db } = deps;
  const panel = deps.services.hosting;

  app.get('/hosting-nodes', {
    config: admin,
    schema: { operationId: 'listHostingNodes', tags, summary: 'List hosting nodes with accounts, disk and what they lack', response: { 200: Envelope(Type.Array(HostingNodeSchema)), ...errorResponses() } },
  }, async (request) => ok(request, (await listNodes(db)).map(nodeView)));

  app.get('/hosting-nodes/ssh-key', {
    config: admin,
    schema: {
      operationId: 'getHostingSshKey', tags, summary: 'The SSH public key Hostcloud logs in to hosting nodes with (made at first use)',
      response: { 200: Envelope(Type.Object({ public_key: Type.String(), authorized_keys_line: Type.String() })), ...errorResponses('STATE_CONFLICT') },
    },
  }, async (request) => {
    const key = await hostingSshPublicKey(panel);
    return ok(request, { public_key: key, authorized_keys_line: key });
  });

  app.get('/hosting-nodes/:id', {
    config: admin,
    schema: { operationId: 'getHostingNode', tags, params: Id, response: { 200: Envelope(HostingNodeSchema), ...errorResponses('RESOURCE_NOT_FOUND') } },
  }, async (request) => ok(request, nodeView(await getHostingNode(db, request.params.id))));

  app.post('/hosting-nodes', {
    config: admin,
    schema: {
      operationId: 'addHostingNode', tags, summary: 'Add a hosting node',
      description: 'The node is reached over SSH now with Hostcloud\'s key (GET /hosting-nodes/ssh-key): its host key is pinned and what it lacks recorded in `missing`. Unreachable → 502 `UPSTREAM_ERROR` saying why.',
      body: Type.Object({
        name: Type.String({ minLength: 1, maxLength: 63, examples: ['web1.fra1.hostcloud.example'] }),
        location_id: Type.Optional(Type.Union([IntId, Type.Null()])),
        host: Type.String({ minLength: 1, maxLength: 253, examples: ['203.0.113.10'] }),
        port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, default: 22 })),
        user: Type.Optional(Type.String({ minLength: 1, maxLength: 32, default: 'root' })),
        http_port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, default: 80 })),
        max_accounts: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 500 })),
        config: Type.Optional(Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 500 }), { description: 'Overrides of the node\'s paths and commands (Debian\'s by default; docs/hosting-nodes.md).' })),
      }, { additionalProperties: false }),
      response: { 201: Envelope(HostingNodeSchema), ...errorResponses('LOCATION_INVALID', 'STATE_CONFLICT', 'UPSTREAM_ERROR') },
    },
  }, async (request, reply) => {
    const node = await addHostingNode(db, panel, request.body, new Date());
    reply.code(201);
    locate(reply, deps.config.publicUrl, 'admin', 'v1', 'hosting-nodes', node.id);
    return ok(request, nodeView(node));
  });

  app.post('/hosting-nodes/:id/check', {
    config: admin,
    schema: {
      operationId: 'checkHostingNode', tags, summary: 'Reach a hosting node again and record what it lacks and its disk',
      description: 'A changed host key is refused (502 `UPSTREAM_ERROR` naming both keys).',
      params: Id, response: { 200: Envelope(HostingNodeSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'UPSTREAM_ERROR') },
    },
  }, async (request) => ok(request, nodeView(await checkHostingNode(db, panel, request.params.id, new Date()))));

  for (const [action, status] of [['disable', 'disabled'], ['enable', 'enabled']] as const) {
    app.post(`/hosting-nodes/:id/${action}`, {
      config: admin,
      schema: {
        operationId: `${action}HostingNode`, tags,
        summary: action === 'disable' ? 'Take a hosting node out of placement (its accounts keep running)' : 'Let a hosting node take new accounts again',
        params: Id, response: { 200: Envelope(HostingNodeSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
      },
    }, async (request) => ok(request, nodeView(await setHostingNodeEnabled(db, request.params.id, status, new Date()))));
  }
}
