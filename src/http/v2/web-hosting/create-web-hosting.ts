import { Type } from '@sinclair/typebox';
import { orderHosting, precheckOrder } from '../../../core/hosting/order.ts';
import { BILLING_CYCLES } from '../../../core/hosting/rules.ts';
import { idempotent } from '../../../core/idempotency/service.ts';
import { locate, ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, BillableHeaders, IntId, StringEnum, errorResponses } from '../../schemas.ts';
import { operationView } from '../servers/presenters.ts';
import { WebHostingCreatedSchema, webHostingView } from './presenters.ts';
import { answerOnce } from '../../idempotent-route.ts';

export const CreateWebHostingBody = Type.Object({
  domain: Type.String({
    minLength: 1, maxLength: 253,
    description: 'The main domain of the account, e.g. `example.com`, `blog.example.com` or `bücher.de` (stored as punycode). It may be registered anywhere.',
    examples: ['example.com'],
  }),
  package_id: { ...IntId, description: 'An active web hosting package from GET /web-hosting-packages.', examples: [1] },
  billing_cycle: Type.Optional(StringEnum(BILLING_CYCLES, { default: 'monthly', description: "`monthly` (the package's monthly price) or `yearly` (its yearly price, which is discounted)." })),
}, {
  additionalProperties: false,
  'x-examples': {
    monthly: { summary: 'Monthly', value: { domain: 'example.com', package_id: 1 } },
    yearly: { summary: 'Yearly', value: { domain: 'example.org', package_id: 2, billing_cycle: 'yearly' } },
  },
});

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/web-hosting', {
    config: { area: 'hosting' },
    schema: {
      operationId: 'createWebHosting',
      tags: ['Web hosting'],
      summary: 'Order web hosting',
      description: `**Billable**: the first cycle is charged from the balance now (the package's monthly price, or its yearly price with
\`billing_cycle: yearly\`). Answers 201 with the new account (\`pending\`) and the \`hosting.create\` operation to poll; the account becomes
\`active\` when it completes — with its control-panel user and server — or \`cancelled\` with the charge refunded in full if provisioning
fails, so the balance ends where it started. Send an \`Idempotency-Key\` so that a retry never buys twice.

A domain has one live hosting account on the whole platform: a second order for it is 409 \`STATE_CONFLICT\` until the first is cancelled.
When no hosting server has room the order is refused with 503 \`SERVICE_UNAVAILABLE\` before anything is charged.
Checks run in this order: input, then the package, then state (domain, room), then balance.`,
      headers: BillableHeaders,
      body: CreateWebHostingBody,
      response: {
        201: Envelope(WebHostingCreatedSchema),
        ...errorResponses('STATE_CONFLICT', 'INSUFFICIENT_BALANCE', 'IDEMPOTENCY_KEY_CONFLICT', 'SERVICE_UNAVAILABLE', 'UPSTREAM_ERROR'),
      },
    },
  }, async (request, reply) => {
    // A replay returns the stored body of the first response, which had this very shape.
    const body = await answerOnce<ReturnType<typeof webHostingView> & { operation: ReturnType<typeof operationView> }>(deps, request, reply,
      (ctx, idem) => idempotent(ctx, idem.key, idem.fingerprint, async (trx) => {
        const { hosting, operation } = await orderHosting(ctx, trx, request.body);
        return { outcome: 'created', body: { ...webHostingView({ hosting, usedMb: null }), operation: operationView(operation) } };
      }, { beforeTransaction: () => precheckOrder(ctx, request.body) }));
    locate(reply, deps.config.publicUrl, 'v2', 'web-hosting', body.id);
    return ok(request, body);
  });
}
