import { Type } from '@sinclair/typebox';
import { transferDomain } from '../../../core/domains/transfer.ts';
import { locate, ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, BillableHeaders, errorResponses } from '../../schemas.ts';
import { operationView } from '../servers/presenters.ts';
import { AuthCode, DomainName, Years } from './bodies.ts';
import { DomainCreatedSchema, domainView } from './presenters.ts';
import { answerOnce } from '../../idempotent-route.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/domains/transfer', {
    config: { area: 'domains' },
    schema: {
      operationId: 'transferDomain',
      tags: ['Domains'],
      summary: 'Transfer a domain in',
      description: `**Billable**: the transfer price (which includes one year) plus the renewal price for each further year is charged now.
The registrar is asked at once: a name not registered at another registrar, or a wrong \`auth_code\`, is 422 naming the field and
nothing is charged. Accepted, it answers 201 with the domain in \`transfer_pending\` and the \`domain.transfer\` operation, which
completes when the current registrar approves: the domain is then \`active\`, its expiry moved by \`years\`. A rejected transfer
cancels the domain and refunds the charge. Send an \`Idempotency-Key\` so that a retry never pays twice.`,
      headers: BillableHeaders,
      body: Type.Object({
        domain: DomainName,
        auth_code: AuthCode,
        years: Type.Optional(Years('Years added to the expiry, within the TLD\'s years_min..years_max; default 1.')),
      }, { additionalProperties: false }),
      response: {
        201: Envelope(DomainCreatedSchema),
        ...errorResponses('INSUFFICIENT_BALANCE', 'IDEMPOTENCY_KEY_CONFLICT', 'UPSTREAM_ERROR'),
      },
    },
  }, async (request, reply) => {
    const body = await answerOnce<ReturnType<typeof domainView> & { operation: ReturnType<typeof operationView> }>(deps, request, reply, (ctx, idem) =>
      transferDomain(ctx, request.body, idem, ({ domain, operation }) => ({ ...domainView(domain), operation: operationView(operation) })));
    locate(reply, deps.config.publicUrl, 'v2', 'domains', body.id);
    return ok(request, body);
  });
}
