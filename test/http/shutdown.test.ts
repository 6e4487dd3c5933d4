// A request that reaches the API while it shuts down (here pipelined behind one in flight: a busy
// keep-alive connection is not closed at once) is refused with 503 SERVICE_UNAVAILABLE in the
// envelope of its version, with Retry-After and Connection: close, before any other hook (its
// wrong key would otherwise be a 401); the one in flight finishes.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { test } from 'node:test';
import { startApp } from '../helpers/app.ts';

/** Raw HTTP/1.1 responses read off one socket until the server closes it. */
function responses(raw: string): { status: number; headers: Record<string, string>; body: string }[] {
  const out = [];
  let rest = raw;
  while (rest.startsWith('HTTP/1.1')) {
    const end = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length']);
    out.push({ status: Number(statusLine!.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}

test('closing: a request behind one in flight gets 503 in the v2 or v1 envelope; the one in flight completes', async () => {
  for (const [path, version] of [['/v2/billing/balance', 'v2'], ['/v1/balance', 'v1']] as const) {
    const t = await startApp();
    let entered!: () => void;
    const inFlight = new Promise<void>((r) => { entered = r; });
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    t.app.get('/test/slow', async () => { entered(); await gate; return { ok: true }; });
    let begun!: () => void;
    const closingBegun = new Promise<void>((r) => { begun = r; });
    t.app.addHook('preClose', (done) => { begun(); done(); });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;

    const socket = net.connect(port, '127.0.0.1');
    let raw = '';
    socket.on('data', (d) => { raw += d; });
    const ended = new Promise((r) => socket.once('close', r));
    socket.write('GET /test/slow HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    await inFlight;
    const closed = t.app.close();
    await closingBegun;
    // Node hands a pipelined request to the app as soon as it is read; the first is still held.
    const arrived = once(t.app.server, 'request');
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nAuthorization: Bearer anything\r\n\r\n`);
    await arrived;
    release();
    await ended;
    await closed;

    const [first, second] = responses(raw);
    assert.equal(first?.status, 200, raw);
    assert.deepEqual(JSON.parse(first!.body), { ok: true });
    assert.equal(second?.status, 503, raw);
    assert.equal(second!.headers['retry-after'], '1');
    assert.equal(second!.headers.connection, 'close');
    const body = JSON.parse(second!.body);
    if (version === 'v2') {
      assert.equal(body.error.code, 'SERVICE_UNAVAILABLE');
      assert.match(body.error.message, /shutting down/);
      assert.match(body.error.request_id, /^req_/);
    } else {
      assert.equal(body.success, false, second!.body);
      assert.equal(typeof body.error, 'object', second!.body);
    }
  }
});
