// A browser's side of the customer panel, over inject: a cookie jar, the CSRF token the page
// would hold, and the steps people take (accept an invitation, sign in, enrol two-factor).
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { totpCode } from '../../src/core/panel/totp.ts';
import { type Customer, type TestApp, adminCall, createCustomer, json } from './app.ts';

export const PASSWORD = 'correct horse battery staple';

export class PanelClient {
  readonly cookies = new Map<string, string>();
  csrf = '';

  constructor(readonly t: TestApp, readonly ip = '127.0.0.1') {}

  async request(method: InjectOptions['method'], url: string, body?: unknown, opts: { csrf?: boolean; headers?: Record<string, string> } = {}): Promise<LightMyRequestResponse> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await this.t.app.inject({
      method, url, remoteAddress: this.ip,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(opts.csrf !== false && method !== 'GET' && this.csrf ? { 'x-csrf-token': this.csrf } : {}),
        'user-agent': 'panel-test',
        ...opts.headers,
      },
      ...(body !== undefined ? { payload: body as object } : {}),
    });
    for (const c of res.cookies as { name: string; value: string; maxAge?: number }[]) {
      if (c.value === '' || c.maxAge === 0) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }

  /** What the page asks first: who is signed in, and the CSRF token for its writes. */
  async me() {
    const res = await this.request('GET', '/panel/api/me');
    if (res.statusCode !== 200) throw new Error(`me: ${res.statusCode} ${res.body}`);
    const data = json(res).data;
    this.csrf = data.csrf_token;
    return data;
  }

  async signIn(email: string, password = PASSWORD, totpSecret?: string): Promise<LightMyRequestResponse> {
    await this.me();
    let res = await this.request('POST', '/panel/api/sign-in', { email, password });
    if (res.statusCode === 200 && json(res).data.next === 'totp' && totpSecret) {
      await this.me();
      res = await this.request('POST', '/panel/api/sign-in/code', { code: totpCode(totpSecret, new Date()) });
    }
    await this.me();
    return res;
  }
}

/** The notices of a kind queued to an account (the panel's mails), newest first. */
export async function panelNotices(t: TestApp, accountId: string, kind: string): Promise<{ to_email: string; subject: string; body: string }[]> {
  return json(await adminCall(t, 'GET', `/admin/v1/notifications?account_id=${accountId}&kind=${kind}`)).data;
}

export function tokenOf(url: string): string {
  return url.split('/').pop()!;
}

export interface PanelOwner extends Customer {
  email: string;
  client: PanelClient;
}

/** A customer whose owner accepted the operator's invitation and is signed in. */
export async function signedInOwner(t: TestApp, opts: Parameters<typeof createCustomer>[1] = {}): Promise<PanelOwner> {
  const customer = await createCustomer(t, { deposit: '100.00', ...opts });
  const account = json(await adminCall(t, 'GET', `/admin/v1/accounts/${customer.accountId}`)).data;
  const inv = await adminCall(t, 'POST', `/admin/v1/accounts/${customer.accountId}/panel-invitation`);
  if (inv.statusCode !== 201) throw new Error(`invite: ${inv.statusCode} ${inv.body}`);
  const client = new PanelClient(t);
  await client.me();
  const set = await client.request('POST', `/panel/api/links/${tokenOf(json(inv).data.url)}/password`, { password: PASSWORD });
  if (set.statusCode !== 200) throw new Error(`set password: ${set.statusCode} ${set.body}`);
  const res = await client.signIn(account.email);
  if (res.statusCode !== 200) throw new Error(`sign in: ${res.statusCode} ${res.body}`);
  return { ...customer, email: account.email, client };
}

/** A sub-user invited by `owner` with these permissions, signed in with its own client. */
export async function signedInSubUser(owner: PanelOwner, permissions: string[], email = `sub-${Math.random().toString(36).slice(2, 10)}@example.com`) {
  const inv = await owner.client.request('POST', '/panel/api/sub-users', { email, first_name: 'Sub', last_name: 'User', permissions });
  if (inv.statusCode !== 201) throw new Error(`invite sub-user: ${inv.statusCode} ${inv.body}`);
  const client = new PanelClient(owner.client.t);
  await client.me();
  const set = await client.request('POST', `/panel/api/links/${tokenOf(json(inv).data.url)}/password`, { password: PASSWORD });
  if (set.statusCode !== 200) throw new Error(`sub-user password: ${set.statusCode} ${set.body}`);
  const res = await client.signIn(email);
  if (res.statusCode !== 200) throw new Error(`sub-user sign in: ${res.statusCode} ${res.body}`);
  return { id: json(inv).data.sub_user.id as number, email, client };
}
