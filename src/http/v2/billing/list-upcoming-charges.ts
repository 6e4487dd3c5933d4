// GET /v2/billing/upcoming: an addition to the Hosting Cloud API v2 — what recurring billing
// will charge in the next 30 days, and what is overdue, so a customer can top up in time.
import { Type } from '@sinclair/typebox';
import { BILLABLE_HOOKS } from '../../../core/families.ts';
import { BILLABLE_TYPES, UPCOMING_DAYS, type UpcomingCharge, upcomingCharges } from '../../../core/billing/upcoming.ts';
import { money } from '../../../core/money.ts';
import { ts } from '../../../core/time.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, MoneySchema, StringEnum, Timestamp, component, errorResponses, ref } from '../../schemas.ts';

export const UpcomingChargeSchema = component('UpcomingCharge', Type.Object({
  resource_type: StringEnum(BILLABLE_TYPES, { description: 'What is billed' }),
  resource_id: Type.String({ examples: ['srv_8fK2mQ'] }),
  name: Type.String({ description: 'The server\'s name, the hosting account\'s or domain\'s name', examples: ['web-1'] }),
  description: Type.String({ description: 'What the ledger row will say', examples: ['Server web-1 (srv_8fK2mQ): monthly cycle, 5.00 USD'] }),
  amount: ref(MoneySchema),
  due_at: { ...Timestamp, description: 'When the billing pass charges it; for an overdue charge, since when it is due.' },
  period_start: Timestamp,
  period_end: Timestamp,
  status: StringEnum(['scheduled', 'overdue'] as const, {
    description: 'scheduled: charged at `due_at`; overdue: the balance did not cover it — the service is suspended (servers, web hosting) '
      + 'or will not renew (domains) until a deposit pays it',
  }),
}, { description: 'One charge of recurring billing: a resource and the period it pays for.' }));

const UpcomingSchema = component('UpcomingCharges', Type.Object({
  charges: Type.Array(ref(UpcomingChargeSchema), { description: 'Overdue charges and those due by `until`, soonest first' }),
  total: ref(MoneySchema),
  balance: ref(MoneySchema),
  top_up_needed: { ...ref(MoneySchema), description: 'What to deposit so that the balance covers every listed charge (0.00 when it does)' },
  until: { ...Timestamp, description: `The end of the window: now + ${UPCOMING_DAYS} days` },
}));

const chargeView = (c: UpcomingCharge) => ({
  resource_type: c.resourceType, resource_id: c.resourceId, name: c.name, description: c.description, amount: money(c.amountCents),
  due_at: ts(c.dueAt), period_start: ts(c.periodStart), period_end: ts(c.periodEnd), status: c.status,
});

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/billing/upcoming', {
    config: { area: 'billing' },
    schema: {
      operationId: 'listUpcomingCharges',
      tags: ['Billing'],
      summary: 'List upcoming charges',
      description: '**Addition to the Hosting Cloud API v2.** What recurring billing will charge in the next 30 days, per resource and period, with the '
        + 'amounts and dates — servers (plan or custom price, extra addresses, snapshot fees, less the reseller discount of the tier current '
        + 'now), web hosting per its cycle, domains with auto-renewal (renewal price for one year, charged `DOMAIN_RENEW_DAYS` before expiry) '
        + 'and a priced VDC pool — plus what is overdue. `top_up_needed` is what to deposit in time.',
      response: { 200: Envelope(UpcomingSchema), ...errorResponses() },
    },
  }, async (request) => {
    const u = await withCtx(deps, request, (ctx) => upcomingCharges(ctx, deps.config.domainRenewDays, BILLABLE_HOOKS));
    return ok(request, {
      charges: u.charges.map(chargeView), total: money(u.totalCents), balance: money(u.balanceCents), top_up_needed: money(u.shortfallCents), until: ts(u.until),
    });
  });
}
