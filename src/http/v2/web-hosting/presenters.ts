// Web-hosting resources of v2, shared by the web-hosting route files.
import { Type } from '@sinclair/typebox';
import type { HostingLogin } from '../../../core/hosting/login.ts';
import type { HostingView } from '../../../core/hosting/read.ts';
import { HOSTING_STATUSES } from '../../../core/hosting/rules.ts';
import { CURRENCY, formatCents } from '../../../core/money.ts';
import { ts } from '../../../core/time.ts';
import type { WebHostingRow } from '../../../db/queries/web-hosting.ts';
import { MoneySchema, StringEnum, Timestamp, component, ref } from '../../schemas.ts';
import { OperationSchema } from '../servers/presenters.ts';
import { NextChargeField } from '../billing/presenters.ts';

const ID = 'wh_9GmT4xQ2bLk7Rs1P';

export const WebHostingSchema = component('WebHosting', Type.Object({
  id: Type.String({ examples: [ID] }),
  domain: Type.String({ description: 'The main domain, lower case, an IDN as punycode (`xn--bcher-kva.de`).', examples: ['example.com'] }),
  status: StringEnum(HOSTING_STATUSES, {
    description: 'pending until the control-panel account exists, then active; cancelled when cancelled, or when provisioning failed (and was refunded).',
  }),
  plan: Type.Object({ id: Type.Integer({ examples: [1] }), name: Type.String({ examples: ['Web Starter'] }) }, { description: 'The web hosting package.' }),
  server: Type.Union([
    Type.Object({ hostname: Type.String({ examples: ['web1.fra1.panel.hostcloud.example'] }) }),
    Type.Null(),
  ], { description: 'The hosting server the account lives on; null until provisioned (and for an order that failed).' }),
  disk_usage: Type.Object({
    used_mb: Type.Union([Type.Integer({ minimum: 0, examples: [412] }), Type.Null()], {
      description: 'Live from the control panel in the detail; null in lists, while pending or cancelled, and when the panel does not answer in time.',
    }),
    quota_mb: Type.Integer({ minimum: 0, description: "The package's disk quota.", examples: [10240] }),
  }),
  billing: Type.Object({
    amount: Type.String({ description: 'Price of one cycle, decimal USD.', examples: ['3.99'] }),
    currency: Type.String({ examples: ['USD'] }),
    cycle: StringEnum(['monthly', 'yearly'] as const),
    next_billing_at: Timestamp,
  }),
  created_at: Timestamp,
  next_charge: NextChargeField,
}, { description: 'A web hosting account: a control-panel account for one domain on one of the hosting servers.' }));

export const WebHostingCreatedSchema = component('WebHostingCreated', Type.Intersect([
  ref(WebHostingSchema),
  Type.Object({ operation: ref(OperationSchema) }),
], { description: 'The new web hosting account (pending) and the `hosting.create` operation provisioning it.' }));

export const WebHostingRenewedSchema = component('WebHostingRenewed', Type.Intersect([
  ref(WebHostingSchema),
  Type.Object({ charged: ref(MoneySchema) }),
], { description: 'The renewed web hosting account (`billing.next_billing_at` one cycle later) and what the cycle cost.' }));

export const WebHostingCancelledSchema = component('WebHostingCancelled', Type.Intersect([
  ref(WebHostingSchema),
  Type.Object({ refund: ref(MoneySchema), operation: ref(OperationSchema) }),
], { description: 'The cancelled web hosting account, what was refunded (0.00 without `refund`), and the `hosting.cancel` operation terminating the control-panel account.' }));

export const HostingLoginSchema = component('HostingLogin', Type.Object({
  id: Type.String({ description: 'The web hosting account.', examples: [ID] }),
  username: Type.String({ description: 'The control-panel user.', examples: ['example'] }),
  login_url: Type.String({
    description: 'Our signed link (`openWebHostingLoginLink`): opened in a browser without an API key, once, within 300 seconds, it redirects to the control panel, logged in.',
    examples: ['https://api.example.net/v2/web-hosting-login/Q2h4bT…?expires=1795420800&signature=9f2c…'],
  }),
  expires_at: Timestamp,
  note: Type.String({ examples: ['Opens the control panel on web1.fra1.panel.hostcloud.example logged in as example. The link works once, within 300 seconds, in a browser and without an API key.'] }),
}, { description: 'A single-use control-panel login (SSO) link.' }));

function billingOf(h: WebHostingRow) {
  return { amount: formatCents(h.price_cents), currency: CURRENCY, cycle: h.billing_cycle, next_billing_at: ts(h.next_billing_at) };
}

export function webHostingView(v: HostingView) {
  const h = v.hosting;
  return {
    id: h.id,
    domain: h.domain,
    status: h.status,
    plan: { id: h.package_id, name: h.package_name },
    server: h.server_hostname === null ? null : { hostname: h.server_hostname },
    disk_usage: { used_mb: v.usedMb, quota_mb: h.quota_mb },
    billing: billingOf(h),
    created_at: ts(h.created_at),
  };
}

/** A list item: no live disk usage (read the account for it). */
export const webHostingListItemView = (h: WebHostingRow) => webHostingView({ hosting: h, usedMb: null });

export function hostingLoginView(l: HostingLogin) {
  return { id: l.id, username: l.username, login_url: l.loginUrl, expires_at: ts(l.expiresAt), note: l.note };
}

/** Path parameter of every web-hosting route. */
export const WebHostingParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'Web hosting account id (`wh_…`).', examples: [ID] }) });
