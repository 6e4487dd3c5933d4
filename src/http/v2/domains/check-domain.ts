import { Type } from '@sinclair/typebox';
import { checkAvailability } from '../../../core/domains/read.ts';
import { MAX_NAME_LENGTH } from '../../../core/domains/names.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { DomainAvailabilitySchema, availabilityView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  // A static segment: find-my-way matches it before /domains/:id.
  app.get('/domains/check', {
    config: { area: 'domains' },
    schema: {
      operationId: 'checkDomain',
      tags: ['Domains'],
      summary: 'Check whether a name is available',
      description: 'Free. The name is normalised first — lower case, trailing dot dropped, an IDN converted to punycode (`bücher.de` → `xn--bcher-kva.de`) — '
        + 'and must be directly under a TLD of the price list (GET /domains/pricing), else 422 naming `domain`. A name is unavailable while any account '
        + 'holds it here or the registry has it; 502 `UPSTREAM_ERROR` when the registrar cannot be asked.',
      querystring: Type.Object({
        domain: Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH, description: 'The name, e.g. example-shop.com or bücher.de.', examples: ['example-shop.com'] }),
      }, { additionalProperties: false }),
      response: { 200: Envelope(DomainAvailabilitySchema), ...errorResponses('UPSTREAM_ERROR') },
    },
  }, async (request) => {
    const result = await withCtx(deps, request, (ctx) => checkAvailability(ctx, request.query.domain));
    return ok(request, availabilityView(result));
  });
}
