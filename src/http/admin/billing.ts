// Recurring billing for the operator: POST /admin/v1/billing/run (a pass now, besides the worker's
// every BILLING_INTERVAL_S) and GET /admin/v1/billing/overdue (accounts with unpaid charges).
import { Type } from '@sinclair/typebox';
import { listOverdue, runPass } from '../../core/billing/service.ts';
import { money } from '../../core/money.ts';
import { ts } from '../../core/time.ts';
import type { OverdueRow } from '../../db/queries/billing.ts';
import { billingSettings } from '../billing-settings.ts';
import { ok, page, pageOf } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, ListEnvelope, MoneySchema, PageQuery, Timestamp, errorResponses, ref } from '../schemas.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'billing' as const };
const tags = ['Admin billing'];

const Count = (description: string) => Type.Integer({ minimum: 0, description });
const PassReportSchema = Type.Object({
  charged: Count('Charges paid'),
  charged_amount: ref(MoneySchema),
  unpaid: Count('Charges the balance did not cover (left due, retried every pass)'),
  suspended: Count('Services suspended'),
  resumed: Count('Services resumed'),
  cancelled: Count('Services cancelled after the grace period'),
  domains_renewed: Count('Domains auto-renewed'),
  domains_expired: Count('Domains that expired'),
  notices: Count('Notifications queued'),
  deferred: Count('Services left for the next pass (an operation was running on them, or an error)'),
}, { title: 'BillingPass' });

const OverdueSchema = Type.Object({
  account_id: Type.String(),
  email: Type.String(),
  balance: ref(MoneySchema),
  due: ref(MoneySchema),
  charges: Count('Unpaid charges'),
  oldest_due_since: Timestamp,
}, { title: 'OverdueAccount' });


const overdueView = (r: OverdueRow) => ({
  account_id: r.account_id, email: r.email, balance: money(r.balance_cents), due: money(r.due_cents), charges: r.charges, oldest_due_since: ts(r.oldest_due_since),
});

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/billing/run', {
    config: admin,
    schema: {
      operationId: 'runBillingPass',
      tags,
      summary: 'Run a billing pass now',
      description: 'Charges every service whose period has ended, suspends what the balance does not cover, cancels what stayed unpaid past '
        + 'SUSPEND_GRACE_DAYS, auto-renews and expires domains. Safe beside the workers\' own passes: each charge is unique per resource and period.',
      response: { 200: Envelope(PassReportSchema), ...errorResponses() },
    },
  }, async (request) => {
    const r = await runPass(deps.db, deps.services, billingSettings(deps), deps.now(), undefined,
      (err, what) => request.log.error({ err, resource: what }, 'billing a service failed; the next pass retries it'));
    const { charged_cents: cents, ...rest } = r;
    return ok(request, { ...rest, charged_amount: money(cents) });
  });

  app.get('/billing/overdue', {
    config: admin,
    schema: {
      operationId: 'listOverdueAccounts',
      tags,
      summary: 'List accounts with unpaid charges',
      querystring: Type.Object({ ...PageQuery() }, { additionalProperties: false }),
      response: { 200: ListEnvelope(OverdueSchema), ...errorResponses() },
    },
  }, async (request) => page(request, await listOverdue(deps.db, pageOf(request.query)), overdueView));
}
