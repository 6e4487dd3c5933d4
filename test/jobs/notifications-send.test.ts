// Sending the notifications outbox through a real SMTP conversation: a local SMTP sink
// (smtp-server on 127.0.0.1, a random port) receives what the worker sends. Also: several senders
// never send one notice twice, a refusing or absent server means retries then `failed` while the
// sender lives on, a lost sender's claim lapses, and without SMTP_URL notices stay queued.
import assert from 'node:assert/strict';
import net from 'node:net';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { connect } from '../../src/db/connection.ts';
import { retryAfterS } from '../../src/core/notifications/deliver.ts';
import { queueNotification } from '../../src/core/notifications/queue.ts';
import { claimDueNotifications } from '../../src/db/queries/notifications.ts';
import type { Notification } from '../../src/db/schema.ts';
import { createLogger } from '../../src/http/logger.ts';
import { startNotificationSender } from '../../src/jobs/notification-sender.ts';
import { startWorker } from '../../src/jobs/worker.ts';
import { renderV2Event } from '../../src/http/v2/events/presenters.ts';
import { computeFor, hostingFor } from '../../src/runtime.ts';
import { createCustomer, startApp } from '../helpers/app.ts';

const t = await startApp();
const db = t.database.db;
const logLines: string[] = [];
const logger = createLogger('info', new Writable({ write(chunk, _enc, cb) { logLines.push(String(chunk)); cb(); } }));

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A local SMTP server that keeps what it receives, or refuses recipients while `refuse` is set. */
async function startSink(opts: { refuse?: boolean } = {}) {
  const received: Received[] = [];
  let refused = 0;
  const state = { refuse: opts.refuse ?? false };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, cb) {
      if (!state.refuse) return cb();
      refused += 1;
      cb(Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 451 }));
    },
    onData(stream, session: SMTPServerSession, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    state,
    refusals: () => refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Headers and decoded text of a received message (quoted-printable, base64 or plain). */
function parse(raw: string): { headers: Record<string, string>; text: string } {
  const [head, ...rest] = raw.split('\r\n\r\n');
  const headers: Record<string, string> = {};
  for (const line of head!.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  const body = rest.join('\r\n\r\n');
  const cte = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  let bytes: Buffer;
  if (cte === 'quoted-printable') {
    bytes = Buffer.from(body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1');
  } else if (cte === 'base64') {
    bytes = Buffer.from(body, 'base64');
  } else {
    bytes = Buffer.from(body, 'utf8');
  }
  return { headers, text: bytes.toString('utf8').replace(/\r\n/g, '\n') };
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const row = (id: number) => db.selectFrom('notifications').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const settled = (ids: number[], status: 'sent' | 'failed') => waitFor(`${ids.length} notice(s) ${status}`, async () => {
  const rows = await db.selectFrom('notifications').selectAll().where('id', 'in', ids).where('status', '=', status).execute();
  return rows.length === ids.length ? rows : undefined;
});
const mailConfig = (smtpUrl: string | undefined, extra: Partial<{ smtpFrom: string; mailMaxAttempts: number; mailRetryDelayS: number }> = {}) => ({
  smtpUrl, smtpFrom: 'Hostcloud <noreply@localhost>', mailMaxAttempts: 5, mailRetryDelayS: 1, ...extra,
});

test('settings: SMTP_URL must be smtp:// or smtps://, SMTP_FROM and the retry settings have documented defaults', () => {
  const d = loadConfig({});
  assert.deepEqual([d.smtpUrl, d.smtpFrom, d.mailMaxAttempts, d.mailRetryDelayS], [undefined, 'Hostcloud <noreply@localhost>', 5, 60]);
  const c = loadConfig({ SMTP_URL: 'smtps://user:secret@mail.example.com:465', SMTP_FROM: 'Acme <no-reply@acme.example>', MAIL_MAX_ATTEMPTS: '3', MAIL_RETRY_DELAY_S: '10' });
  assert.deepEqual([c.smtpUrl, c.smtpFrom, c.mailMaxAttempts, c.mailRetryDelayS], ['smtps://user:secret@mail.example.com:465', 'Acme <no-reply@acme.example>', 3, 10]);
  for (const bad of ['http://mail.example.com', 'mail.example.com:25', 'smtp//x']) {
    assert.throws(() => loadConfig({ SMTP_URL: bad }), (e) => e instanceof ConfigError && /SMTP_URL/.test(e.message) && !e.message.includes('secret'));
  }
  assert.throws(() => loadConfig({ SMTP_URL: 'ftp://user:secret@x' }), (e) => e instanceof ConfigError && !e.message.includes('secret'), 'the password is not echoed');
  assert.throws(() => loadConfig({ SMTP_FROM: 'nobody' }), ConfigError);
  assert.throws(() => loadConfig({ MAIL_MAX_ATTEMPTS: '0' }), ConfigError);
  assert.throws(() => loadConfig({ MAIL_RETRY_DELAY_S: 'soon' }), ConfigError);
});

test('backoff: the wait doubles after each failure, capped at 6 hours; none once attempts run out', () => {
  const s = { maxAttempts: 5, retryDelayS: 60 };
  assert.deepEqual([1, 2, 3, 4, 5].map((a) => retryAfterS(a, s)), [60, 120, 240, 480, null]);
  assert.equal(retryAfterS(20, { maxAttempts: 30, retryDelayS: 3600 }), 6 * 3600);
  assert.equal(retryAfterS(1, { maxAttempts: 1, retryDelayS: 60 }), null);
});

test('the worker sends a queued notice through SMTP_URL: to, from, subject and body arrive; the row is sent', async () => {
  const sink = await startSink();
  const carol = await createCustomer(t, { email: 'carol@example.com' });
  const body = 'Hello Carol,\n\nYour hosting for bücher.example was cancelled.\nGrüße, Hostcloud\n';
  const n = await queueNotification(db, { accountId: carol.accountId, kind: 'hosting.cancelled', subject: 'Your hosting for buecher.example was cancelled', body });
  const worker = await startWorker({ db, compute: computeFor(t.config, db), hosting: hostingFor(t.config, db), config: { ...t.config, smtpUrl: sink.url }, logger, renderEvent: renderV2Event });
  try {
    const [sent] = await settled([n.id], 'sent');
    assert.equal(sink.received.length, 1);
    const [mail] = sink.received;
    assert.equal(mail!.from, 'noreply@localhost');
    assert.deepEqual(mail!.to, ['carol@example.com']);
    const { headers, text } = parse(mail!.raw);
    assert.equal(headers.to, 'carol@example.com');
    assert.equal(headers.from, 'Hostcloud <noreply@localhost>');
    assert.equal(headers.subject, 'Your hosting for buecher.example was cancelled');
    assert.match(headers['content-type']!, /^text\/plain; charset=utf-8/);
    assert.equal(text.replace(/\n$/, ''), body.replace(/\n$/, ''));
    assert.equal(sent!.attempts, 1);
    assert.equal(sent!.last_error, null);
    assert.ok(sent!.sent_at instanceof Date);
  } finally {
    await worker.stop();
    await sink.close();
  }
  assert.ok(logLines.some((l) => l.includes('notification sender started')));
});

test('three senders at once: every notice goes out exactly once', async () => {
  const sink = await startSink();
  const dave = await createCustomer(t, { email: 'dave@example.com' });
  const made: Notification[] = [];
  for (let i = 0; i < 17; i++) made.push(await queueNotification(db, { accountId: dave.accountId, kind: 'service.suspended', subject: `Notice ${i}`, body: `Body ${i}` }));
  const senders = [1, 2, 3].map(() => startNotificationSender(db, logger, mailConfig(sink.url, { smtpFrom: 'Acme Hosting <ops@acme.example>' }))!);
  try {
    const rows = await settled(made.map((n) => n.id), 'sent');
    assert.ok(rows.every((r) => r.attempts === 1), 'no notice was claimed twice');
    assert.equal(sink.received.length, 17);
    const subjects = sink.received.map((m) => parse(m.raw).headers.subject).sort();
    assert.deepEqual(subjects, made.map((n) => n.subject).sort(), 'each once, none twice');
    assert.ok(sink.received.every((m) => m.from === 'ops@acme.example' && parse(m.raw).headers.from === 'Acme Hosting <ops@acme.example>'));
  } finally {
    for (const s of senders) await s.stop();
    await sink.close();
  }
});

test('a refusing SMTP server: retried with backoff, then failed with the last error; the sender lives on', async () => {
  const sink = await startSink({ refuse: true });
  const erin = await createCustomer(t, { email: 'erin@example.com' });
  const n = await queueNotification(db, { accountId: erin.accountId, kind: 'ticket.answered', subject: 'Re: your ticket', body: 'Answered.' });
  const sender = startNotificationSender(db, logger, mailConfig(sink.url, { mailMaxAttempts: 3, mailRetryDelayS: 1 }))!;
  try {
    // After the first refusal: still queued, the error kept, the next try later.
    const retrying = await waitFor('a first failed attempt', async () => {
      const r = await row(n.id);
      return r.attempts >= 1 && r.last_error ? r : undefined;
    });
    assert.equal(retrying.status, 'queued');
    assert.match(retrying.last_error!, /451/);
    assert.ok(retrying.next_attempt_at.getTime() > Date.now() - 200, 'not due again at once');

    const [failed] = await settled([n.id], 'failed');
    assert.equal(failed!.attempts, 3);
    assert.match(failed!.last_error!, /451.*Mailbox temporarily unavailable/);
    assert.equal(failed!.sent_at, null);
    assert.equal(sink.refusals(), 3, 'three attempts reached the server');
    assert.equal(sink.received.length, 0);

    // The same sender goes on working once the server accepts again.
    sink.state.refuse = false;
    const next = await queueNotification(db, { accountId: erin.accountId, kind: 'ticket.answered', subject: 'Re: again', body: 'Fine now.' });
    await settled([next.id], 'sent');
    assert.equal(sink.received.length, 1);
    assert.equal((await row(n.id)).status, 'failed', 'a failed notice stays failed');
  } finally {
    await sender.stop();
    await sink.close();
  }
});

test('no SMTP server at all (connection refused): failed after its attempts, the process unharmed', async () => {
  const closed = net.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as net.AddressInfo;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const frank = await createCustomer(t, { email: 'frank@example.com' });
  const n = await queueNotification(db, { accountId: frank.accountId, kind: 'domain.expiring', subject: 'example.org expires', body: 'Renew.' });
  const sender = startNotificationSender(db, logger, mailConfig(`smtp://127.0.0.1:${port}`, { mailMaxAttempts: 2, mailRetryDelayS: 1 }))!;
  try {
    const [failed] = await settled([n.id], 'failed');
    assert.equal(failed!.attempts, 2);
    assert.match(failed!.last_error!, /ECONNREFUSED/);
  } finally {
    await sender.stop();
  }
});

test('a sender that dies holding a claim: the claim lapses and another sender sends the notice once', async () => {
  const sink = await startSink();
  const gina = await createCustomer(t, { email: 'gina@example.com' });
  const n = await queueNotification(db, { accountId: gina.accountId, kind: 'service.suspended', subject: 'Lost and found', body: 'b' });
  // A sender claims it (1 s lease) and is never heard from again.
  const claimed = await claimDueNotifications(db, 100, 1);
  assert.deepEqual(claimed.map((c) => c.id), [n.id]);
  const sender = startNotificationSender(db, logger, mailConfig(sink.url))!;
  try {
    const [sent] = await settled([n.id], 'sent');
    assert.equal(sent!.attempts, 2, 'the lost attempt counts');
    assert.equal(sink.received.length, 1);
  } finally {
    await sender.stop();
    await sink.close();
  }
});

test('without SMTP_URL there is no sender: notices stay queued and visible', async () => {
  const before = logLines.length;
  assert.equal(startNotificationSender(db, logger, mailConfig(undefined)), null);
  assert.ok(logLines.slice(before).some((l) => l.includes('SMTP_URL is not set')));
  const hank = await createCustomer(t, { email: 'hank@example.com' });
  const n = await queueNotification(db, { accountId: hank.accountId, kind: 'hosting.cancelled', subject: 'Kept', body: 'b' });
  // A worker without SMTP_URL runs everything else but sends nothing.
  const worker = await startWorker({ db, compute: computeFor(t.config, db), hosting: hostingFor(t.config, db), config: { ...t.config, smtpUrl: undefined }, logger, renderEvent: renderV2Event });
  await worker.stop();
  const r = await row(n.id);
  assert.deepEqual([r.status, r.attempts, r.sent_at], ['queued', 0, null]);
});

test('a database that fails under the sender: logged, retried later, the process unharmed', async () => {
  const sink = await startSink();
  // The test database's address with a port nothing listens on: every query is refused.
  const closed = net.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as net.AddressInfo;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const u = new URL(t.databaseUrl);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  const gone = connect(u.toString(), { connectTimeoutMs: 1000 });
  const before = logLines.length;
  const sender = startNotificationSender(gone.db, logger, mailConfig(sink.url))!;
  try {
    const line = await waitFor('the error logged', async () => logLines.slice(before).find((l) => l.includes('sending notifications failed')));
    assert.match(line, /"retry_in_ms":2000/);
  } finally {
    await sender.stop();
    await sink.close();
    await gone.close();
  }
  assert.equal(sink.received.length, 0);
});
