// A customer's paid top-up over HTTP, as a browser does it: the operator's panel invitation, a
// password, sign-in (a session cookie and the CSRF token), POST /panel/api/billing/top-ups, then
// "Pay" on the simulated checkout page (PAYMENTS=simulated). The paid top-up credits the balance
// and issues an invoice.
import { type Reply, call, must } from './cluster.ts';

const PASSWORD = 'Drill-restore-password-1';

class Browser {
  private cookies = new Map<string, string>();
  private csrf = '';

  constructor(private readonly base: string) {}

  async send(method: string, p: string, body?: unknown, form?: string): Promise<Reply> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(`${this.base}${p}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(method !== 'GET' && this.csrf ? { 'x-csrf-token': this.csrf } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(form !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : form !== undefined ? { body: form } : {}),
      signal: AbortSignal.timeout(30_000),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [k, ...v] = pair!.split('=');
      const value = v.join('=');
      if (value === '' || /max-age=0/i.test(c)) this.cookies.delete(k!.trim());
      else this.cookies.set(k!.trim(), value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try { parsed = JSON.parse(text); } catch { /* HTML */ }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  async me() {
    const r = await this.send('GET', '/panel/api/me');
    if (r.status === 200) this.csrf = r.body.data.csrf_token;
    return r;
  }
}

/** A paid top-up of `amount` for the account (its owner signs in to the panel first). */
export async function panelTopUp(base: string, adminToken: string, accountId: string, email: string, amount: string): Promise<void> {
  const inv = must(await call(base, 'POST', `/admin/v1/accounts/${accountId}/panel-invitation`, { token: adminToken }), 201, 'panel invitation');
  const b = new Browser(base);
  await b.me();
  must(await b.send('POST', `/panel/api/links/${String(inv.url).split('/').pop()}/password`, { password: PASSWORD }), 200, 'set the password');
  await b.me();
  const signIn = await b.send('POST', '/panel/api/sign-in', { email, password: PASSWORD });
  if (signIn.status !== 200) throw new Error(`sign-in: ${signIn.status} ${JSON.stringify(signIn.body)}`);
  await b.me();
  const payment = must(await b.send('POST', '/panel/api/billing/top-ups', { amount }), 201, 'top-up');
  const session = decodeURIComponent(new URL(payment.checkout_url).pathname.split('/').pop()!);
  const paid = await b.send('POST', `/payments/simulated/checkout/${encodeURIComponent(session)}`, undefined, 'action=pay&confirmation=now');
  if (paid.status >= 400) throw new Error(`checkout: ${paid.status}`);
  const r = await b.send('GET', `/panel/api/billing/top-ups`);
  const row = (r.body?.data as { id: string; status: string }[] | undefined)?.find((p) => p.id === payment.id);
  if (row?.status !== 'paid') throw new Error(`the top-up ${payment.id} is ${row?.status ?? 'missing'}, not paid`);
}
