// Where a saved branding shows, without a restart: the panel's page (its name, colour and logo in
// the page itself, the logo at its own URL), the next mail (From's display name, the signature,
// through a real SMTP conversation), the next invoice's PDF (read back with pdftotext), the
// simulated checkout page and the API reference's title. Before anything is saved, mails and
// invoices are as they were.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { before, test } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { queueNotification } from '../../src/core/notifications/queue.ts';
import type { App } from '../../src/http/app.ts';
import { createLogger } from '../../src/http/logger.ts';
import { startNotificationSender } from '../../src/jobs/notification-sender.ts';
import { type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { clickCheckout, customerCall, instance, sessionOf, startTopUp } from '../helpers/payments.ts';

let t: TestApp;
let app: App;
before(async () => {
  t = await startApp();
  app = await instance(t);
});

const LOGO_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#c0392b"/></svg>';
const BRANDING = {
  name: 'Acme Cloud', logo: `data:image/svg+xml;base64,${Buffer.from(LOGO_SVG).toString('base64')}`, primary_color: '#c0392b',
  support_email: 'help@acme.example', support_url: 'https://acme.example/support', terms_url: 'https://acme.example/terms',
};
const save = async (body: unknown = BRANDING) => assert.equal((await adminCall(t, 'PUT', '/admin/v1/settings/branding', body)).statusCode, 200);

function run(cmd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => execFile(cmd, args, { timeout: 30_000 }, (err, stdout, stderr) =>
    resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) })));
}

async function pdfText(bytes: Buffer): Promise<string | null> {
  if ((await run('sh', ['-c', 'command -v pdftotext'])).code !== 0) return null;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hc-pdf-'));
  try {
    await fs.writeFile(path.join(dir, 'doc.pdf'), bytes);
    const r = await run('pdftotext', ['-layout', path.join(dir, 'doc.pdf'), '-']);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** A paid top-up's invoice PDF, as the customer downloads it. */
async function nextInvoicePdf(accountId: string): Promise<Buffer> {
  const started = await startTopUp(app, accountId, '10.00');
  assert.equal((await clickCheckout(app, sessionOf(started.checkout_url), 'pay')).statusCode, 303);
  const p = json(await customerCall(app, accountId, 'GET', `/top-ups/${started.id}`)).data;
  const pdf = await customerCall(app, accountId, 'GET', `/invoices/${p.invoice_id}/pdf`);
  assert.equal(pdf.statusCode, 200, pdf.body);
  return pdf.rawPayload;
}

test('mails: unchanged before a branding is saved; the next one after carries its From name and signature', async () => {
  const received: { from: string; raw: string }[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'], logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => { received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', raw: Buffer.concat(chunks).toString('utf8') }); cb(); });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as net.AddressInfo;
  const logger = createLogger('info', new Writable({ write(_c, _e, cb) { cb(); } }));
  const sender = startNotificationSender(t.database.db, logger, { smtpUrl: `smtp://127.0.0.1:${port}`, smtpFrom: 'Ops <noreply@acme.example>', mailMaxAttempts: 3, mailRetryDelayS: 1 })!;
  const waitFor = async (n: number) => {
    for (let i = 0; received.length < n && i < 400; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(received.length, n);
  };
  const header = (raw: string, name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(raw)?.[1]?.trim();
  try {
    const c = await createCustomer(t, { email: 'mia@example.com' });
    await queueNotification(t.database.db, { accountId: c.accountId, kind: 'ticket.answered', subject: 'Before', body: 'First.\n' });
    await waitFor(1);
    assert.equal(header(received[0]!.raw, 'From'), 'Ops <noreply@acme.example>');
    assert.ok(!received[0]!.raw.includes('-- '), 'no signature without a branding');

    await save();
    await queueNotification(t.database.db, { accountId: c.accountId, kind: 'ticket.answered', subject: 'After', body: 'Second.\n' });
    await waitFor(2);
    const mail = received[1]!;
    assert.equal(mail.from, 'noreply@acme.example', "SMTP_FROM's address stays the envelope's");
    assert.equal(header(mail.raw, 'From'), 'Acme Cloud <noreply@acme.example>');
    const text = mail.raw.split('\r\n\r\n').slice(1).join('\r\n\r\n').replace(/\r\n/g, '\n');
    assert.match(text, /Second\.\n\n-- \nAcme Cloud\nhelp@acme\.example\nhttps:\/\/acme\.example\/support/);
  } finally {
    await sender.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('the next invoice PDF is headed by the brand; one issued before keeps its own header', async () => {
  await adminCall(t, 'PUT', '/admin/v1/settings/branding', { ...BRANDING, name: 'Interim Brand' });
  const c = await createCustomer(t, { email: 'ivo@example.com' });
  const earlier = await nextInvoicePdf(c.accountId);
  await save();
  const pdf = await nextInvoicePdf(c.accountId);
  const text = await pdfText(pdf);
  if (text === null) return; // poppler-utils is not installed: the rest needs it
  assert.match(text, /Acme Cloud/);
  assert.match(text.split('\n')[0]!, /^Acme Cloud +INVOICE$/, 'the brand heads the page');
  assert.match(text.split('\n')[1]!, /^Demo Seller/, 'the legal seller follows');
  const before = (await pdfText(earlier))!;
  assert.match(before, /Interim Brand/);
  assert.doesNotMatch(before, /Acme Cloud/, 'an invoice never changes afterwards');
  await fs.mkdir('test-output/branding', { recursive: true });
  await fs.writeFile('test-output/branding/invoice.pdf', pdf);
});

test('the checkout page and the reference title carry the name; the checkout its colour and logo', async () => {
  await save();
  const c = await createCustomer(t, { email: 'kai@example.com' });
  const started = await startTopUp(app, c.accountId, '10.00');
  const page = await call(app, 'GET', `/payments/simulated/checkout/${encodeURIComponent(sessionOf(started.checkout_url))}`);
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /<title>Simulated checkout · Acme Cloud<\/title>/);
  assert.match(page.body, /--brand:#c0392b/);
  assert.ok(page.body.includes(`<img src="${BRANDING.logo}"`));
  assert.match(String(page.headers['content-security-policy']), /img-src data:/);
  const docs = await call(app, 'GET', '/v2/docs');
  assert.match(docs.body, /<title>Acme Cloud API v2 — reference<\/title>/);
});

test("the panel's mails name the brand, not Hostcloud", async () => {
  await save();
  const c = await createCustomer(t, { email: 'noa@example.com' });
  assert.equal((await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/panel-invitation`)).statusCode, 201);
  const [mail] = json(await adminCall(t, 'GET', `/admin/v1/notifications?account_id=${c.accountId}&kind=panel.invitation`)).data as { subject: string; body: string }[];
  assert.match(mail!.subject, /^You are invited to the Acme Cloud panel/);
  assert.match(mail!.body, /sign in to the Acme Cloud customer panel/);
  assert.doesNotMatch(`${mail!.subject}${mail!.body}`, /Hostcloud/);
});

test("the panel's page embeds the branding at each load (no restart, no extra request); the logo has its own URL", async () => {
  await save({ ...BRANDING, name: 'First </script><b>' });
  const first = await call(app, 'GET', '/panel/sign-in');
  assert.match(first.body, /<title>First &lt;\/script&gt;&lt;b&gt; panel<\/title>/);
  assert.ok(!first.body.includes('</script><b>'), 'the name cannot close the data block');
  await save();
  const res = await call(app, 'GET', '/panel/sign-in');
  assert.equal(res.headers['cache-control'], 'no-cache');
  assert.match(res.body, /<title>Acme Cloud panel<\/title>/);
  const brand = JSON.parse(/<script type="application\/json" id="hc-branding">(.*?)<\/script>/.exec(res.body)![1]!);
  assert.equal(brand.name, 'Acme Cloud');
  assert.equal(brand.primary_color, '#c0392b');
  assert.match(brand.logo_url, /^\/panel\/assets\/logo\?v=[\w-]{16}$/);
  assert.ok(!res.body.includes(BRANDING.logo.slice(30, 60)), 'the logo is not inlined in every page');
  const again = await call(app, 'GET', '/panel/', { headers: { 'if-none-match': String(res.headers.etag) } });
  assert.equal(again.statusCode, 304, 'unchanged branding: the same page');

  const logo = await call(app, 'GET', brand.logo_url);
  assert.equal(logo.statusCode, 200);
  assert.equal(logo.headers['content-type'], 'image/svg+xml');
  assert.equal(logo.body, LOGO_SVG);
  assert.match(String(logo.headers['cache-control']), /immutable/);
  assert.match(String(logo.headers['content-security-policy']), /sandbox/);
  assert.equal((await call(app, 'GET', '/panel/assets/logo?v=old')).headers['cache-control'], 'no-cache');
  await save({ ...BRANDING, logo: null });
  assert.equal((await call(app, 'GET', '/panel/assets/logo')).statusCode, 404);
});
