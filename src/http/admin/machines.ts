// Lists across accounts for the operator: GET /servers and /vdc-vms (by account, node, status) and
// GET /accounts/{id}/services (an account's servers, VDC VMs, domains and web hosting).
import { Type } from '@sinclair/typebox';
import { listAccountServices } from '../../core/accounts/services.ts';
import { SERVER_LIST_STATUSES, VM_LIST_STATUSES, listMachines } from '../../core/nodes/machine-lists.ts';
import { timestamp } from '../../core/time.ts';
import type { MachineKind, MachineRow, ServiceRow } from '../../db/queries/admin-machines.ts';
import { page, pageOf } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { IntId, ListEnvelope, NullableTimestamp, PageQuery, StringEnum, errorResponses } from '../schemas.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'services' as const };
const tags = ['Admin machines'];
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

const Machine = Type.Object({
  id: Type.String(),
  account_id: Type.String(),
  account_email: Type.String(),
  name: Type.String(),
  status: Type.String(),
  power_state: Type.String(),
  location_id: Type.Integer(),
  plan_id: Type.Union([Type.Integer(), Type.Null()], { description: 'Servers: the plan it was bought on (null for a custom size); VDC VMs: null.' }),
  node_id: Type.Union([Type.Integer(), Type.Null()]),
  node_name: Nullable(Type.String()),
  cpu_cores: Type.Integer(),
  ram_mb: Type.Integer(),
  storage_gb: Type.Integer(),
  ipv4: Nullable(Type.String()),
  created_at: NullableTimestamp,
  deleted_at: NullableTimestamp,
}, { title: 'AdminMachine' });

const machineView = (m: MachineRow) => ({ ...m, created_at: timestamp(m.created_at), deleted_at: timestamp(m.deleted_at) });

const Service = Type.Object({
  type: StringEnum(['server', 'vdc_vm', 'domain', 'web_hosting'] as const),
  id: Type.String(),
  name: Type.String({ description: 'The server\'s or VM\'s name, the domain name, the hosted domain' }),
  status: Type.String(),
  created_at: NullableTimestamp,
}, { title: 'AdminAccountService' });

const serviceView = (s: ServiceRow) => ({ ...s, created_at: timestamp(s.created_at) });

function registerList(app: TypedApp, db: RouteDeps['db'], path: string, kind: MachineKind, statuses: readonly string[], noun: string) {
  app.get(path, {
    config: admin,
    schema: {
      tags, operationId: kind === 'servers' ? 'listAllServers' : 'listAllVdcVms',
      summary: `Every account's ${noun}, newest first`,
      description: `Filter by account, node (those migrating to it included), location${kind === 'servers' ? ', plan' : ''} and status, and search (\`q\`); \`deleted\` lists the deleted ones (kept until purged), which are otherwise left out.`,
      querystring: Type.Object({
        account_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        node_id: Type.Optional(IntId),
        status: Type.Optional(StringEnum(statuses as [string, ...string[]])),
        location_id: Type.Optional(IntId),
        ...(kind === 'servers' ? { plan_id: Type.Optional(IntId) } : {}),
        q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Part of the id, name, owner\'s email or IPv4 address, any case.' })),
        ...PageQuery(),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(Machine), ...errorResponses() },
    },
  }, async (request) => {
    const { account_id: accountId, node_id: nodeId, status, location_id: locationId, q, ...rest } = request.query as typeof request.query & { plan_id?: number };
    const { plan_id: planId, ...p } = rest;
    return page(request, await listMachines(db, kind, { accountId, nodeId, status, locationId, planId, q }, pageOf(p)), machineView);
  });
}

export function register(app: TypedApp, { db }: RouteDeps) {
  registerList(app, db, '/servers', 'servers', SERVER_LIST_STATUSES, 'servers');
  registerList(app, db, '/vdc-vms', 'vdc_vms', VM_LIST_STATUSES, 'VDC VMs');

  app.get('/accounts/:id/services', {
    config: admin,
    schema: {
      tags, operationId: 'listAccountServices',
      summary: 'An account\'s services of every kind (servers, VDC VMs, domains, web hosting), newest first',
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
      querystring: Type.Object(PageQuery(), { additionalProperties: false }),
      response: { 200: ListEnvelope(Service), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => page(request, await listAccountServices(db, request.params.id, pageOf(request.query)), serviceView));
}
