// Staff members for tests: invited through the admin API, with a token of their own, or signed in
// to the console (a cookie jar, the CSRF token, the TOTP enrolment).
import { totpCode } from '../../src/core/panel/totp.ts';
import type { StaffRole } from '../../src/db/schema.ts';
import { type TestApp, adminCall, json } from './app.ts';
import { PASSWORD, PanelClient, tokenOf } from './panel.ts';

export interface TestStaff {
  id: string;
  email: string;
  role: StaffRole;
  /** The set-password link of the invitation. */
  url: string;
  /** An hc_staff_ token of the member. */
  token: string;
  tokenId: string;
}

let n = 0;

export async function createStaff(t: TestApp, role: StaffRole, opts: { ipAllowlist?: string[] } = {}): Promise<TestStaff> {
  n += 1;
  const email = `staff${n}-${role}-${Math.random().toString(36).slice(2, 8)}@hostcloud.test`;
  const res = await adminCall(t, 'POST', '/admin/v1/staff', { email, name: `Staff ${n}`, role });
  if (res.statusCode !== 201) throw new Error(`create staff: ${res.statusCode} ${res.body}`);
  const member = json(res).data;
  const tok = await adminCall(t, 'POST', `/admin/v1/staff/${member.id}/tokens`, { name: 'tests', ...(opts.ipAllowlist ? { ip_allowlist: opts.ipAllowlist } : {}) });
  if (tok.statusCode !== 201) throw new Error(`create staff token: ${tok.statusCode} ${tok.body}`);
  return { id: member.id, email, role, url: member.url, token: json(tok).data.token, tokenId: json(tok).data.id };
}

/** The console's side, over inject. */
export class ConsoleClient extends PanelClient {
  async session() {
    const res = await this.request('GET', '/admin/v1/session');
    if (res.statusCode !== 200) throw new Error(`session: ${res.statusCode} ${res.body}`);
    const data = json(res).data;
    this.csrf = data.csrf_token;
    return data;
  }

  async setPassword(url: string, password = PASSWORD) {
    await this.session();
    return this.request('POST', '/admin/v1/staff-password', { token: tokenOf(url), password });
  }

  /** Password, then the enrolment (first sign-in) or the code; answers the TOTP secret and recovery codes of an enrolment. */
  async consoleSignIn(email: string, password = PASSWORD, totpSecret?: string): Promise<{ secret?: string; recoveryCodes?: string[]; res: Awaited<ReturnType<PanelClient['request']>> }> {
    await this.session();
    let res = await this.request('POST', '/admin/v1/session', { email, password });
    if (res.statusCode !== 200) return { res };
    this.csrf = json(res).data.csrf_token;
    if (json(res).data.next === 'enrol') {
      const e = await this.request('POST', '/admin/v1/session/enrolment');
      const secret = json(e).data.secret as string;
      res = await this.request('POST', '/admin/v1/session/enrolment/confirm', { code: totpCode(secret, new Date()) });
      if (res.statusCode === 200) this.csrf = json(res).data.csrf_token;
      return { res, secret, recoveryCodes: json(res).data?.recovery_codes };
    }
    if (totpSecret) {
      // The step after the current one (accepted: one step of drift), so a code just spent on enrolment is not reused.
      res = await this.request('POST', '/admin/v1/session/code', { code: totpCode(totpSecret, new Date(Date.now() + 30_000)) });
      if (res.statusCode === 200) this.csrf = json(res).data.csrf_token;
    }
    return { res };
  }
}
