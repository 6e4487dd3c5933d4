// An account's VDC pool, for the operator: GET and PUT /admin/v1/accounts/{id}/vdc-pool. Rules in
// the core (src/core/vdc/pool.ts): totals left out keep their value; none may drop below what the
// account's VMs use (409 naming each bucket).
import { Type } from '@sinclair/typebox';
import { money } from '../../core/money.ts';
import { MAX_BUCKET_TOTAL, type PoolView, getAccountPool, setAccountPool } from '../../core/vdc/pool.ts';
import { timestamp } from '../../core/time.ts';
import { ok } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { AmountString, Envelope, MoneySchema, NullableTimestamp, errorResponses, ref } from '../schemas.ts';
import { VdcBucketSchema, vdcResourcesView } from '../v2/vdc/presenters.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'services' as const };
const tags = ['Admin VDC'];
const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

const bucket = ref(VdcBucketSchema);
const PoolSchema = Type.Object({
  account_id: Type.String(),
  has_pool: Type.Boolean(),
  cpu: bucket,
  ram_mb: bucket,
  storage_gb: bucket,
  ipv4: bucket,
  ipv6: bucket,
  bandwidth_mbit: bucket,
  monthly_price: Type.Union([ref(MoneySchema), Type.Null()], { description: 'What the pool costs a month (billed by recurring billing); null = not billed' }),
  updated_at: NullableTimestamp,
});

const Total = (description: string) => Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_BUCKET_TOTAL, description }));

const PoolBody = Type.Object({
  cpu: Total('vCPUs'),
  ram_mb: Total('RAM in MB'),
  storage_gb: Total('disk in GB'),
  ipv4: Total('IPv4 addresses (each VM takes 1)'),
  ipv6: Total('IPv6 addresses (each VM takes 1 while the pool has any)'),
  bandwidth_mbit: Total('the VDC\'s shared uplink in Mbit/s'),
  monthly_price: Type.Optional(Type.Union([AmountString, Type.Null()], { description: 'Monthly price, e.g. "250.00"; null = not billed' })),
}, { additionalProperties: false, minProperties: 1 });

function poolBody(p: PoolView) {
  return {
    account_id: p.accountId,
    ...vdcResourcesView(p),
    monthly_price: p.monthlyPriceCents === null ? null : money(p.monthlyPriceCents),
    updated_at: timestamp(p.updatedAt),
  };
}

export function register(app: TypedApp, { db }: RouteDeps) {
  app.get('/accounts/:id/vdc-pool', {
    config: admin,
    schema: { operationId: 'getAccountVdcPool', tags, params: Id, response: { 200: Envelope(PoolSchema), ...errorResponses('RESOURCE_NOT_FOUND') } },
  }, async (request) => ok(request, poolBody(await getAccountPool(db, request.params.id))));

  app.put('/accounts/:id/vdc-pool', {
    config: admin,
    schema: {
      operationId: 'setAccountVdcPool',
      tags,
      description: 'Sets the account\'s VDC pool, creating it the first time. Totals left out keep their value (0 in a new pool); a total below '
        + 'what the account\'s VMs use is 409 STATE_CONFLICT naming each such bucket, and nothing changes.',
      params: Id,
      body: PoolBody,
      response: { 200: Envelope(PoolSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request) => ok(request, poolBody(await setAccountPool(db, request.params.id, request.body))));
}
