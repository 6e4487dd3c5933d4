import { Type } from '@sinclair/typebox';
import { cancelHosting } from '../../../core/hosting/cancel.ts';
import { CANCEL_REASON_MAX } from '../../../core/hosting/rules.ts';
import { money } from '../../../core/money.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { operationView } from '../servers/presenters.ts';
import { WebHostingCancelledSchema, WebHostingParams, webHostingView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/web-hosting/:id/cancel', {
    config: { area: 'hosting' },
    schema: {
      operationId: 'cancelWebHosting',
      tags: ['Web hosting'],
      summary: 'Cancel a web hosting account',
      description: `Cancels the account at once: billing stops and the domain is free for a new order. With \`refund: true\` the last charged
cycle is refunded in full (\`false\`, the default, refunds nothing). With \`send_email: true\` a notice goes to the account's email address.
\`reason\` is kept with the account. The control-panel account — website, mail, databases — is then terminated by the \`hosting.cancel\`
operation in the answer. An account that is already cancelled, or still being provisioned, is 409 \`STATE_CONFLICT\`.`,
      params: WebHostingParams,
      body: Type.Object({
        refund: Type.Optional(Type.Boolean({ default: false, description: 'true: refund the last charged cycle in full.' })),
        send_email: Type.Optional(Type.Boolean({ default: false, description: 'true: email a cancellation notice to the account.' })),
        reason: Type.Optional(Type.String({ maxLength: CANCEL_REASON_MAX, description: 'Why, in your words; kept with the account and quoted in the notice.', examples: ['Moving the site elsewhere'] })),
      }, {
        additionalProperties: false,
        'x-examples': {
          refund: { summary: 'Refund and notify', value: { refund: true, send_email: true, reason: 'Moving the site elsewhere' } },
          plain: { summary: 'No refund', value: {} },
        },
      }),
      response: { 200: Envelope(WebHostingCancelledSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request) => {
    const r = await withCtx(deps, request, (ctx) => cancelHosting(ctx, request.params.id, request.body));
    return ok(request, { ...webHostingView({ hosting: r.hosting, usedMb: null }), refund: money(r.refundCents), operation: operationView(r.operation) });
  });
}
