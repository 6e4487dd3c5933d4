import { Type } from '@sinclair/typebox';
import { CUSTOM_LIMITS } from '../../../core/servers/rules.ts';
import { VM_VERBS, vmAction } from '../../../core/vdc/actions.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, IntId, StringEnum, errorResponses } from '../../schemas.ts';
import { operationView } from '../servers/presenters.ts';
import { VdcVmAcceptedSchema, VmParams } from './presenters.ts';

const Int = (limits: { min: number; max: number }, description: string, example: number) =>
  Type.Integer({ minimum: limits.min, maximum: limits.max, description, examples: [example] });

const VERB_TABLE = `| verb | body fields (all optional) |
|---|---|
| \`start\`, \`stop\`, \`reboot\` | none |
| \`reset_password\` | \`password\` (generated and shown once in the answer if omitted) |
| \`reinstall\` | \`os_version_id\` (default: the current OS) |
| \`resize\` | at least one of \`cpu_cores\`, \`ram_mb\`, \`storage_gb\` (disks only grow) |`;

// One body for every verb; the core refuses a field of another verb. Every field is optional, so
// the body itself may be left out (route-conventions.ts).
const ActionBody = Type.Object({
  password: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'reset_password: the new root password (generated and shown once if omitted).', examples: ['n3w-Root-passw0rd'] })),
  os_version_id: Type.Optional({ ...IntId, description: 'reinstall: the OS to install (default: the current one).', examples: [3] }),
  cpu_cores: Type.Optional(Int(CUSTOM_LIMITS.cpu_cores, 'resize: new vCPU count.', 4)),
  ram_mb: Type.Optional(Int(CUSTOM_LIMITS.ram_mb, 'resize: new RAM in MB, whole GB.', 8192)),
  storage_gb: Type.Optional(Int(CUSTOM_LIMITS.storage_gb, 'resize: new disk in GB; disks only grow.', 160)),
}, {
  additionalProperties: false,
  description: `Only the fields of the verb in the path; a field of another verb is 422 \`VALIDATION_FAILED\`.\n\n${VERB_TABLE}`,
  'x-examples': {
    none: { summary: 'start, stop, reboot (or any verb with its defaults)', value: {} },
    reset_password: { summary: 'reset_password with a chosen password', value: { password: 'n3w-Root-passw0rd' } },
    reinstall: { summary: 'reinstall another OS', value: { os_version_id: 3 } },
    resize: { summary: 'resize: more vCPUs and RAM', value: { cpu_cores: 4, ram_mb: 8192 } },
  },
});

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/vdc/vms/:id/actions/:verb', {
    config: { area: 'vdc' },
    schema: {
      operationId: 'runVdcVmAction',
      tags: ['VDC'],
      summary: 'Run an action on a VDC VM',
      description: `Starts the action and answers 202 with the \`vdc_vm.<verb>\` operation to poll. Nothing is charged. One operation runs on a VM at a
time: another one meanwhile is 409 \`STATE_CONFLICT\`, as is an action on a VM that is not active, or a power verb its power state makes
pointless (start when running, stop or reboot when stopped). The body is optional.

${VERB_TABLE}

\`resize\` takes the growth from the pool when it is accepted (422 \`QUOTA_EXCEEDED\` naming each bucket that falls short) and gives a
shrink back when it completes; if it fails, the VM keeps, and holds, its old size. An unknown verb is 422 \`VALIDATION_FAILED\` naming \`verb\`.`,
      params: Type.Object({
        ...VmParams.properties,
        verb: StringEnum(VM_VERBS, { description: 'The action.' }),
      }),
      body: ActionBody,
      response: {
        202: Envelope(VdcVmAcceptedSchema),
        ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'QUOTA_EXCEEDED', 'CAPACITY_UNAVAILABLE', 'INVALID_PASSWORD', 'OS_VERSION_INVALID'),
      },
    },
  }, async (request, reply) => {
    const result = await withCtx(deps, request, (ctx) => vmAction(ctx, request.params.id, request.params.verb, request.body));
    reply.code(202);
    return ok(request, { operation: operationView(result.operation), ...(result.password !== undefined ? { password: result.password } : {}) });
  });
}
