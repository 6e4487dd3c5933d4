// The three bulk operations (POST /domains/bulk/register|transfer|renew) share their body, answer
// and handler; each has its own file and operationId. They are three static paths rather than one
// /domains/bulk/{action}, which would be ambiguous with /domains/{id}/renew and its siblings in the
// OpenAPI document; an unknown action still answers 422 naming `action`, as an enum of the
// three would.
import { Type } from '@sinclair/typebox';
import { BULK_ACTIONS, type BulkAction, MAX_BULK_ITEMS, bulkDomains } from '../../../core/domains/bulk.ts';
import { invalid } from '../../../core/errors.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, BillableHeaders, errorResponses } from '../../schemas.ts';
import { operationView } from '../servers/presenters.ts';
import { AuthCode, AutoRenew, Contact, DomainName, Nameservers, WhoisPrivacy, Years } from './bodies.ts';
import { BulkResultSchema } from './presenters.ts';
import { answerOnce } from '../../idempotent-route.ts';

const Item = Type.Object({
  domain: DomainName,
  years: Type.Optional(Years('This item\'s period (default: the request\'s `years`, else 1).')),
  auth_code: Type.Optional(AuthCode),
  nameservers: Type.Optional(Nameservers),
  whois_privacy: Type.Optional(WhoisPrivacy),
  auto_renew: Type.Optional(AutoRenew),
  contact: Type.Optional(Contact),
}, {
  additionalProperties: false,
  description: 'A name with options: `auth_code` (transfer: required), `nameservers`, `whois_privacy`, `auto_renew` (register, transfer), `contact` (register). '
    + 'An option the action does not take fails that item.',
});

const Body = (examples: Record<string, { summary: string; value: unknown }>) => Type.Object({
  domains: Type.Array(Type.Union([DomainName, Item]), { minItems: 1, maxItems: MAX_BULK_ITEMS, description: `1 to ${MAX_BULK_ITEMS} names or items.` }),
  years: Type.Optional(Years('The period of items that do not give their own; default 1.')),
}, { additionalProperties: false, 'x-examples': examples });

const COMMON = `Each item is its own order — the checks, the charge and the outcome of the single-name endpoint — so some items may
succeed while others fail. The answer is always 200 with one result per item in request order, and charges are taken in that order.
At most ${MAX_BULK_ITEMS} items, each a name or an object with options. A problem with the request as a whole (\`domains\` not a list,
more than ${MAX_BULK_ITEMS} items, a malformed item) is 422. With an \`Idempotency-Key\` the whole answer is replayed; a retry of a
request that was cut off finishes only the items it had not done.`;

export interface BulkRoute {
  action: BulkAction;
  operationId: string;
  summary: string;
  description: string;
  examples: Record<string, { summary: string; value: unknown }>;
}

export function registerBulkRoute(app: TypedApp, deps: RouteDeps, r: BulkRoute) {
  app.post(`/domains/bulk/${r.action}`, {
    config: { area: 'domains' },
    schema: {
      operationId: r.operationId,
      tags: ['Domains'],
      summary: r.summary,
      description: `${r.description}\n\n${COMMON}`,
      headers: BillableHeaders,
      body: Body(r.examples),
      response: { 200: Envelope(BulkResultSchema), ...errorResponses('IDEMPOTENCY_KEY_CONFLICT') },
    },
  }, async (request, reply) => {
    return ok(request, await answerOnce<{ ok_count: number; fail_count: number; results: never[] }>(deps, request, reply, (ctx, idem) =>
      bulkDomains(ctx, r.action, request.body, idem, operationView)));
  });
}

/** Any other action: 422 naming `action` (not in the document, where the three paths are listed). */
export function registerUnknownBulkAction(app: TypedApp) {
  app.post('/domains/bulk/:action', {
    config: { area: 'domains' },
    schema: { hide: true, response: { ...errorResponses() } },
  }, async () => {
    throw invalid('action', `must be one of ${BULK_ACTIONS.join(', ')}`);
  });
}
