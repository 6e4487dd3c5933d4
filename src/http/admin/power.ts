// Power actions on any account's machines for the operator: POST /servers/{id}/actions and
// POST /vdc-vms/{id}/actions {type: start|stop|reboot} (right `power`). The customer's verbs, run
// for the owning account (src/core/servers/operator-power.ts): the same operation, event and checks.
import { Type } from '@sinclair/typebox';
import { OPERATOR_POWER, powerServerAsOperator } from '../../core/servers/operator-power.ts';
import { powerVmAsOperator } from '../../core/vdc/operator-power.ts';
import { ok } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, StringEnum, errorResponses, ref } from '../schemas.ts';
import { OperationSchema, operationView } from '../v2/servers/presenters.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'power' as const };
const tags = ['Admin machines'];
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const Body = Type.Object({ type: StringEnum(OPERATOR_POWER, { description: 'The power action.' }) }, { additionalProperties: false });
const Accepted = Envelope(Type.Object({ operation: ref(OperationSchema) }));
const DESCRIPTION = 'Queues the action as the customer\'s own request would (202 with the operation to poll; the account '
  + 'sees the operation and its event). One operation at a time per machine: another one running is 409 `STATE_CONFLICT`, '
  + 'as is a machine that is not active or already in that power state.';

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/servers/:id/actions', {
    config: admin,
    schema: {
      tags, operationId: 'runServerPowerAction', summary: 'Start, stop or reboot any account\'s server', description: DESCRIPTION,
      params: Params, body: Body,
      response: { 202: Accepted, ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request, reply) => {
    const operation = await powerServerAsOperator(deps, request.params.id, request.body.type);
    reply.code(202);
    return ok(request, { operation: operationView(operation) });
  });

  app.post('/vdc-vms/:id/actions', {
    config: admin,
    schema: {
      tags, operationId: 'runVdcVmPowerAction', summary: 'Start, stop or reboot any account\'s VDC VM', description: DESCRIPTION,
      params: Params, body: Body,
      response: { 202: Accepted, ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request, reply) => {
    const operation = await powerVmAsOperator(deps, request.params.id, request.body.type);
    reply.code(202);
    return ok(request, { operation: operationView(operation) });
  });
}
