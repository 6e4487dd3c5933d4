import { getHosting } from '../../../core/hosting/read.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { WebHostingParams, WebHostingSchema, webHostingView } from './presenters.ts';
import { nextChargeOf } from '../../../core/billing/upcoming.ts';
import { hostingCharges } from '../../../core/hosting/upcoming.ts';
import { nextChargeView } from '../billing/presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/web-hosting/:id', {
    config: { area: 'hosting' },
    schema: {
      operationId: 'getWebHosting',
      tags: ['Web hosting'],
      summary: 'Get a web hosting account',
      description: 'A web hosting account with the disk it uses now, asked of the control panel. Best effort: if the panel does not answer in '
        + 'time, `disk_usage.used_mb` is null — never an error. Another account\'s id is 404.',
      params: WebHostingParams,
      response: { 200: Envelope(WebHostingSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const [view, next] = await withCtx(deps, request, async (ctx) => {
      const v = await getHosting(ctx, request.params.id);
      return [v, await nextChargeOf(ctx, 'web_hosting', hostingCharges, request.params.id, deps.config.domainRenewDays)] as const;
    });
    return ok(request, { ...webHostingView(view), ...nextChargeView(next) });
  });
}
