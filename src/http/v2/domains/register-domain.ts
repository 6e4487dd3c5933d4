import { Type } from '@sinclair/typebox';
import { registerDomain } from '../../../core/domains/register-request.ts';
import { locate, ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, BillableHeaders, errorResponses } from '../../schemas.ts';
import { operationView } from '../servers/presenters.ts';
import { AutoRenew, Contact, DomainName, Nameservers, WhoisPrivacy, Years } from './bodies.ts';
import { DomainCreatedSchema, domainView } from './presenters.ts';
import { answerOnce } from '../../idempotent-route.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/domains', {
    config: { area: 'domains' },
    schema: {
      operationId: 'registerDomain',
      tags: ['Domains'],
      summary: 'Register a domain',
      description: `**Billable**: the register price × \`years\` is charged now. Answers 201 with the domain (\`pending\`) and the
\`domain.register\` operation; the domain becomes \`active\` when it completes, or \`cancelled\` and refunded if the registry refuses.
Send an \`Idempotency-Key\` so that a retry never buys twice.

Checks run in this order: input (the name, \`years\` within the TLD's \`years_min\`..\`years_max\`, nameservers, \`contact\` where the TLD
needs one, \`whois_privacy\` where the TLD has it), then whether the name is free, then the balance — and only then is the registrar asked
whether the registry would take the name. A name held by any account is 422 naming \`domain\`.`,
      headers: BillableHeaders,
      body: Type.Object({
        domain: DomainName,
        years: Years('Registration period, within the TLD\'s years_min..years_max.'),
        nameservers: Type.Optional(Nameservers),
        whois_privacy: Type.Optional(WhoisPrivacy),
        auto_renew: Type.Optional(AutoRenew),
        contact: Type.Optional(Contact),
      }, {
        additionalProperties: false,
        'x-examples': {
          simple: { summary: 'A .com for one year', value: { domain: 'example-shop.com', years: 1 } },
          full: {
            summary: 'A .de with nameservers and the registrant',
            value: {
              domain: 'bücher.de', years: 2, nameservers: ['ns1.example.net', 'ns2.example.net'], auto_renew: false,
              contact: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '+49.301234567', address: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117', country: 'DE' },
            },
          },
        },
      }),
      response: {
        201: Envelope(DomainCreatedSchema),
        ...errorResponses('INSUFFICIENT_BALANCE', 'IDEMPOTENCY_KEY_CONFLICT', 'UPSTREAM_ERROR'),
      },
    },
  }, async (request, reply) => {
    // A replay returns the stored body of the first response, which had this very shape.
    const body = await answerOnce<ReturnType<typeof domainView> & { operation: ReturnType<typeof operationView> }>(deps, request, reply, (ctx, idem) =>
      registerDomain(ctx, request.body, idem, ({ domain, operation }) => ({ ...domainView(domain), operation: operationView(operation) })));
    locate(reply, deps.config.publicUrl, 'v2', 'domains', body.id);
    return ok(request, body);
  });
}
