// A worker that starts while its database cannot be reached waits for it, as a running worker
// waits out an outage, instead of failing: `serve` starts its worker after it says it is
// listening, and a start that failed (a busy machine past the 1 s connect timeout of a fault
// drill) ended the process under its first request (ECONNRESET).
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { connect } from '../../src/db/connection.ts';
import { renderV2Event } from '../../src/http/v2/events/presenters.ts';
import { startWorker } from '../../src/jobs/worker.ts';
import { computeFor, hostingFor, registrarFor } from '../../src/runtime.ts';
import { startApp } from '../helpers/app.ts';

/** A TCP door to the test's PostgreSQL that cuts every connection until it is opened. */
async function door(databaseUrl: string) {
  const target = new URL(databaseUrl);
  const state = { open: false, cut: 0 };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!state.open) {
      state.cut++;
      client.destroy();
      return;
    }
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => { client.destroy(); upstream.destroy(); });
      s.on('close', () => { sockets.delete(s); client.destroy(); upstream.destroy(); });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    state,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

test('a worker started while the database is unreachable waits for it, then starts and runs', { timeout: 60_000 }, async () => {
  const t = await startApp();
  const d = await door(t.databaseUrl);
  const config = { ...t.config, databaseConnectTimeoutMs: 1_000 };
  const workerDb = connect(d.url, { max: 3, genericPlans: true, connectTimeoutMs: 1_000 });
  try {
    const db = workerDb.db;
    let outcome: 'started' | Error | undefined;
    const starting = startWorker({
      db, compute: computeFor(config, db), hosting: hostingFor(config, db), registrar: registrarFor(config, db), config, logger: t.telemetry.logger, renderEvent: renderV2Event,
    }).then((w) => { outcome = 'started'; return w; }, (e: Error) => { outcome = e; throw e; });
    starting.catch(() => {});
    // Several connections cut (the start and the gate's probes), and it neither failed nor started.
    const deadline = Date.now() + 30_000;
    while (d.state.cut < 3 && outcome === undefined) {
      assert.ok(Date.now() < deadline, `only ${d.state.cut} connections tried in 30 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(outcome, undefined, `the start ended while the database was unreachable: ${outcome}`);
    d.state.open = true;
    const worker = await starting;
    await worker.stop();
    assert.ok(t.logs.some((l) => l.includes('database unavailable; worker paused')), 'it said it was waiting');
    assert.ok(t.logs.some((l) => l.includes('worker started')));
  } finally {
    await workerDb.close();
    await d.close();
  }
});
