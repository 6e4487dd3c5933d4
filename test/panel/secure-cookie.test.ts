// The session cookie over https.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startApp } from '../helpers/app.ts';
import { PASSWORD, PanelClient, signedInOwner } from '../helpers/panel.ts';

const t = await startApp({ panelSessionIdleS: 600, panelSessionMaxS: 3600 });

test('over https (a trusted proxy says so) the session cookie is Secure', async () => {
  const o = await signedInOwner(t);
  const b = new PanelClient(t);
  await b.me();
  const res = await b.request('POST', '/panel/api/sign-in', { email: o.email, password: PASSWORD }, { headers: { 'x-forwarded-proto': 'https' } });
  assert.equal(res.statusCode, 200);
  // Without TRUST_PROXY the header is ignored: PUBLIC_URL (http here) decides.
  assert.doesNotMatch(String([res.headers['set-cookie']].flat().find((c) => String(c).startsWith('hc_session='))), /Secure/);
  const secure = await startApp({ publicUrl: 'https://cloud.example.com' });
  const o2 = await signedInOwner(secure).catch((e: unknown) => e);
  assert.ok(!(o2 instanceof Error), String(o2));
  const c2 = new PanelClient(secure);
  await c2.me();
  const r2 = await c2.request('POST', '/panel/api/sign-in', { email: (o2 as { email: string }).email, password: PASSWORD });
  assert.match(String([r2.headers['set-cookie']].flat().find((c) => String(c).startsWith('hc_session='))), /Secure/);
});
