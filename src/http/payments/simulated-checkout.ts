// The simulated provider's hosted checkout (PAYMENTS=simulated): GET /payments/simulated/checkout/{id}
// shows what is to be paid with a `Pay` and a `Decline` button; POST settles the session and
// sends the customer back to the panel (303 to the session's success or cancel URL). The page also
// picks how the provider's confirmation reaches us, so every path can be tried by hand and in
// tests: at once (before the redirect), twice at the same time (a duplicated webhook), or late
// (SIM_DELAY_MS after the customer is back; until then the panel shows the payment pending, and
// asking the provider — refresh — settles it sooner). The session id in the URL is the only key,
// as with a hosted checkout link.
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { type Branding, getBranding } from '../../core/branding/branding.ts';
import { confirmFromProvider } from '../../core/payments/confirm.ts';
import { formatCents } from '../../core/money.ts';
import { findSimPayment, settleSimPayment } from '../../db/queries/sim-payments.ts';
import type { SimPayment } from '../../db/schema.ts';
import { simState } from '../../providers/payments/simulated.ts';
import { esc } from '../docs/html.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { StringEnum } from '../schemas.ts';
import { paymentDeps } from './deps.ts';

const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const Form = Type.Object({
  action: StringEnum(['pay', 'decline'] as const),
  confirmation: Type.Optional(StringEnum(['now', 'twice', 'late'] as const)),
}, { additionalProperties: false });

function html(reply: FastifyReply, status: number, title: string, body: string, formTarget: string, brand: Branding) {
  // The brand heads the page in its colour (primary_color is #rrggbb, checked when saved).
  const head = `<header class="brand">${brand.logo ? `<img src="${esc(brand.logo)}" alt="" height="32">` : ''}<span>${esc(brand.name)}</span></header>`;
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · ${esc(brand.name)}</title><style>:root{--brand:${brand.primary_color}}body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}
.brand{display:flex;align-items:center;gap:.6rem;font-weight:700;font-size:1.2rem;color:var(--brand);margin-bottom:1.5rem}
.amount{font-size:2rem;font-weight:600}.note{color:#666;font-size:.9rem}button{font-size:1rem;padding:.5rem 1.2rem;margin-right:.5rem}
button[value=pay]{background:var(--brand);color:#fff;border:1px solid var(--brand);border-radius:4px}
label{display:block;margin:1rem 0 .3rem}select{font-size:1rem}</style></head><body>${head}${body}</body></html>`;
  return reply.code(status).type('text/html; charset=utf-8')
    .header('Content-Security-Policy', `default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self' ${formTarget}; base-uri 'none'; frame-ancestors 'none'`)
    .header('X-Content-Type-Options', 'nosniff').header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer').send(page);
}

function checkoutPage(s: SimPayment, now: Date): string {
  const state = simState(s, now).status;
  const head = `<h1>Simulated checkout</h1><p class="amount">${esc(formatCents(s.amount_cents))} ${esc(s.currency)}</p><p>${esc(s.description)}</p>`;
  if (state !== 'open') {
    const back = state === 'paid' ? s.success_url : s.cancel_url;
    return `${head}<p role="status">This checkout is ${esc(state)}.</p><p><a href="${esc(back)}">Back to the panel</a></p>`;
  }
  return `${head}<form method="post">
<label for="confirmation">Confirmation</label>
<select id="confirmation" name="confirmation"><option value="now">at once</option><option value="late">late (after you are back)</option><option value="twice">twice (a duplicated webhook)</option></select>
<p><button type="submit" name="action" value="pay">Pay</button><button type="submit" name="action" value="decline">Decline</button></p>
</form><p class="note">No money moves: this is the simulated payment provider (PAYMENTS=simulated). <a href="${esc(s.cancel_url)}">Cancel and go back</a></p>`;
}

export function register(app: TypedApp, deps: RouteDeps) {
  const origin = new URL(deps.config.publicUrl).origin;
  const late = new Set<NodeJS.Timeout>();
  app.addHook('onClose', (_app, done) => {
    for (const t of late) clearTimeout(t);
    done();
  });
  const notFoundPage = async (reply: FastifyReply) => html(reply, 404, 'Checkout not found', '<h1>Checkout not found</h1><p>This checkout link is not valid.</p>', origin, await getBranding(deps.db));

  app.get('/simulated/checkout/:id', { config: { auth: 'none' }, schema: { hide: true, params: Id } }, async (request, reply) => {
    const s = await findSimPayment(deps.db, request.params.id);
    if (!s) return notFoundPage(reply);
    return html(reply, 200, 'Simulated checkout', checkoutPage(s, deps.now()), origin, await getBranding(deps.db));
  });

  app.post('/simulated/checkout/:id', { config: { auth: 'none' }, schema: { hide: true, params: Id, body: Form } }, async (request, reply) => {
    const { action, confirmation = 'now' } = request.body;
    const s = await settleSimPayment(deps.db, request.params.id, action === 'pay' ? 'paid' : 'declined', deps.now());
    if (!s) return notFoundPage(reply);
    const pd = paymentDeps(deps, request.log);
    // The provider's word reaching us, as its webhook would.
    const confirm = () => confirmFromProvider(pd, 'simulated', s.id);
    if (confirmation === 'late') {
      const timer = setTimeout(() => {
        late.delete(timer);
        confirm().catch((err: unknown) => request.log.error({ err, payment: s.reference }, 'the late simulated confirmation failed; refreshing the payment settles it'));
      }, deps.config.simDelayMs);
      late.add(timer);
    } else if (confirmation === 'twice') {
      await Promise.all([confirm(), confirm()]);
    } else {
      await confirm();
    }
    return reply.code(303).header('Location', s.status === 'paid' ? s.success_url : s.cancel_url).header('Cache-Control', 'no-store').send();
  });
}
