// The fault switches of the simulated providers: GET|PUT /providers/{compute|registrar|hosting|payments}/fault,
// and /provider/fault, the compute switch's older address (same handlers). Rules in the core
// (src/providers/simulated/fault-switch.ts).
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { type FaultInput, getFaultSwitch, requireProvider, setFaultSwitch } from '../../providers/simulated/fault-switch.ts';
import type { SimFault } from '../../db/schema.ts';
import { PROVIDERS, type ProviderName } from '../../providers/names.ts';
import { FAULT_MODES } from '../../providers/simulated/fault.ts';
import { ok } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, StringEnum, errorResponses } from '../schemas.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'infrastructure' as const };
const tags = ['Admin provider'];

const Fault = Type.Object({
  mode: StringEnum(FAULT_MODES),
  remaining: Type.Union([Type.Integer(), Type.Null()], { description: 'Calls still to fail; null = until cleared' }),
  calls: Type.Array(Type.String(), { description: 'Calls that fail; empty = every call' }),
});

const FaultBody = Type.Object({
  mode: StringEnum(FAULT_MODES),
  remaining: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000 }), Type.Null()], { description: 'How many calls fail; omitted or null = until cleared' })),
  calls: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
    maxItems: 64,
    description: "Which of the provider's calls fail (method names, e.g. compute: create, power; registrar: register, renew; hosting: createAccount); omitted or empty = every call",
  })),
}, { additionalProperties: false });

// Not an enum: an unknown provider is a missing resource (404), checked before the body.
const ProviderParam = Type.Object({ provider: Type.String({ description: `One of ${PROVIDERS.join(', ')}`, examples: [...PROVIDERS] }) });

const SET_DESCRIPTION = 'Makes the simulated provider fail: upstream_error (retryable), capacity_unavailable, or timeout (the call hangs, then fails). mode none clears it.';

const faultView = (f: SimFault) => ({ mode: f.mode, remaining: f.remaining, calls: f.calls });

/** The provider a request is about: its path's, or compute on the older address. */
const providerOf = (request: FastifyRequest): ProviderName => requireProvider((request.params as { provider?: string }).provider ?? 'compute');

export function register(app: TypedApp, { db }: RouteDeps) {
  const read = async (request: FastifyRequest) => ok(request, faultView(await getFaultSwitch(db, providerOf(request))));
  const write = async (request: FastifyRequest) => ok(request, faultView(await setFaultSwitch(db, providerOf(request), request.body as FaultInput)));
  const knownProvider = async (request: FastifyRequest) => { providerOf(request); };

  app.get('/providers/:provider/fault', {
    config: admin,
    preValidation: knownProvider,
    schema: { operationId: 'getProviderFault', tags, params: ProviderParam, response: { 200: Envelope(Fault), ...errorResponses('RESOURCE_NOT_FOUND') } },
  }, read);

  app.put('/providers/:provider/fault', {
    config: admin,
    preValidation: knownProvider,
    schema: { operationId: 'setProviderFault', tags, description: SET_DESCRIPTION, params: ProviderParam, body: FaultBody, response: { 200: Envelope(Fault), ...errorResponses('RESOURCE_NOT_FOUND') } },
  }, write);

  app.get('/provider/fault', {
    config: admin,
    schema: { operationId: 'getComputeFaultAlias', tags, description: 'The compute switch; the same as /providers/compute/fault.', response: { 200: Envelope(Fault), ...errorResponses('RESOURCE_NOT_FOUND') } },
  }, read);

  app.put('/provider/fault', {
    config: admin,
    schema: { operationId: 'setComputeFaultAlias', tags, description: `${SET_DESCRIPTION} The same as /providers/compute/fault.`, body: FaultBody, response: { 200: Envelope(Fault), ...errorResponses('RESOURCE_NOT_FOUND') } },
  }, write);
}
