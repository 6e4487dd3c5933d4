import { Type } from '@sinclair/typebox';
import { VERBS, serverAction } from '../../../core/servers/actions.ts';
import { MIGRATE_MODES } from '../../../core/nodes/migrate.ts';
import { CUSTOM_LIMITS } from '../../../core/servers/rules.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { DryRunHeader, Envelope, IntId, StringEnum, component, errorResponses, ref } from '../../schemas.ts';
import { OperationSchema, ServerParams, ServerSchema, operationView, serverView } from './presenters.ts';

const Int = (min: number, max: number, description: string, example: number) => Type.Integer({ minimum: min, maximum: max, description, examples: [example] });

const VERB_TABLE = `| verb | body fields (all optional) | billable |
|---|---|---|
| \`start\`, \`stop\`, \`reboot\` | none | no |
| \`reset_password\` | \`password\` (generated and shown once in the answer if omitted) | no |
| \`reinstall\` | \`os_version_id\` (default: the current OS) | no |
| \`resize\` | at least one of \`cpu\` (custom servers only), \`ram_gb\`, \`disk_gb\` (disks only grow) | yes: the growth, prorated over the rest of the cycle |
| \`clone\` | \`hostname\` (default: the name with \`-clone\` after its first label) | yes: the new server's first cycle |
| \`migrate\` (addition) | \`mode\` (\`live\`, the default, or \`cold\`), \`location_id\` (another location: cold only) | no |`;

const MIGRATE_NOTE = `**Addition to the Hosting Cloud API v2**: the verb \`migrate\`. It moves the server to another host of our platform
(\`server.migrate\`; \`power_state\` is \`migrating\` meanwhile). \`live\` keeps it running and needs a host with the
same CPU vendor with room, else 422 \`NODE_INCOMPATIBLE_LIVE_MIGRATE\` before anything starts (use \`cold\`); \`cold\` stops
it, moves it and starts it again if it was running. With \`location_id\` of another location the move is cold and the
server gets new addresses there (its old ones are released; extra addresses follow it, renumbered, at the same price);
nothing is charged. No room → 422 \`CAPACITY_UNAVAILABLE\`. A failed migration leaves the server where it was, as it was.`;

// One body for every verb (the table above); the core refuses a field of another verb.
// Every field is optional, so the body itself may be left out (route-conventions.ts).
const ActionBody = Type.Object({
  password: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'reset_password: the new root password (generated and shown once if omitted).', examples: ['n3w-Root-passw0rd'] })),
  os_version_id: Type.Optional({ ...IntId, description: 'reinstall: the OS to install (default: the current one).', examples: [3] }),
  cpu: Type.Optional(Int(CUSTOM_LIMITS.cpu_cores.min, CUSTOM_LIMITS.cpu_cores.max, 'resize: new vCPU count (custom servers only).', 4)),
  ram_gb: Type.Optional(Int(CUSTOM_LIMITS.ram_mb.min / 1024, CUSTOM_LIMITS.ram_mb.max / 1024, 'resize: new RAM in GB.', 8)),
  disk_gb: Type.Optional(Int(CUSTOM_LIMITS.storage_gb.min, CUSTOM_LIMITS.storage_gb.max, 'resize: new disk in GB; disks only grow.', 160)),
  mode: Type.Optional(StringEnum(MIGRATE_MODES, { description: 'migrate: live (default; the server keeps running) or cold (stopped, moved, started again).' })),
  location_id: Type.Optional({ ...IntId, description: 'migrate: another location to move to (cold only; new addresses there).', examples: [2] }),
  hostname: Type.Optional(Type.String({ minLength: 1, maxLength: 253, description: 'clone: host name of the new server (default: the source name with -clone after its first label, e.g. web-1-clone.example.com).', examples: ['web-1-copy.example.com'] })),
}, {
  additionalProperties: false,
  description: `Only the fields of the verb in the path; a field of another verb is 422 \`VALIDATION_FAILED\`.\n\n${VERB_TABLE}`,
  'x-examples': {
    none: { summary: 'start, stop, reboot (or any verb with its defaults)', value: {} },
    reset_password: { summary: 'reset_password with a chosen password', value: { password: 'n3w-Root-passw0rd' } },
    reinstall: { summary: 'reinstall another OS', value: { os_version_id: 3 } },
    resize: { summary: 'resize: more RAM and disk', value: { ram_gb: 8, disk_gb: 160 } },
    clone: { summary: 'clone under a chosen name', value: { hostname: 'web-1-copy.example.com' } },
    migrate: { summary: 'migrate to another location (cold)', value: { mode: 'cold', location_id: 2 } },
  },
});

const Accepted = component('ServerActionAccepted', Type.Object({
  operation: ref(OperationSchema),
  password: Type.Optional(Type.String({ description: 'reset_password without a password: the generated one. Shown only here, once.' })),
  server: Type.Optional(ref(ServerSchema)),
}, { description: 'The queued operation. `clone` adds `server`, the new server (pending until the operation completes).' }));

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/servers/:id/actions/:verb', {
    config: { area: 'servers' },
    schema: {
      operationId: 'runServerAction',
      tags: ['Servers'],
      headers: Type.Object(DryRunHeader),
      summary: 'Run an action on a server',
      description: `Starts the action and answers 202 with the operation to poll. One operation runs on a server at a time: another one meanwhile is 409 \`STATE_CONFLICT\`.
The body is optional.\n\n${VERB_TABLE}\n\nAn unknown verb is 422 \`VALIDATION_FAILED\` naming \`verb\`. To move to a bigger package, see \`upgradeServer\`.\n\n${MIGRATE_NOTE}`,
      params: Type.Object({
        ...ServerParams.properties,
        verb: StringEnum(VERBS, { description: 'The action.' }),
      }),
      body: ActionBody,
      response: {
        202: Envelope(Accepted),
        ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'INSUFFICIENT_BALANCE', 'INVALID_PASSWORD', 'OS_VERSION_INVALID', 'HOSTNAME_IN_USE',
          'LOCATION_INVALID', 'CAPACITY_UNAVAILABLE', 'NODE_INCOMPATIBLE_LIVE_MIGRATE', 'UPSTREAM_ERROR'),
      },
    },
  }, async (request, reply) => {
    const result = await withCtx(deps, request, (ctx) => serverAction(ctx, request.params.id, request.params.verb, request.body));
    reply.code(202);
    return ok(request, {
      operation: operationView(result.operation),
      ...(result.password !== undefined ? { password: result.password } : {}),
      ...(result.server ? { server: serverView(result.server) } : {}),
    });
  });
}
