// The process under load: `hello` is a bare Fastify hello-world; `db1` is a bare Fastify route
// doing ONE indexed SELECT through pg on the same database with the API's pool size (the
// database's ceiling for a route that needs one query), and beside it `db2`, TWO in turn, and
// `db-detail`, the server detail's own two statements; `app` is Hostcloud on DATABASE_URL with
// logging off, no rate limit to speak of, no worker, and the heap settings of `hostcloud serve`.
// Prints its port.
import Fastify from 'fastify';
import pg from 'pg';
import { limitHeapGrowth } from '../src/cli/heap.ts';
import { loadConfig } from '../src/config.ts';
import { connect } from '../src/db/connection.ts';
import { findAccountServerDetail } from '../src/db/queries/servers.ts';
import { consumeStatusFaultAndFindVm } from '../src/db/queries/sim-faults.ts';
import { buildApp } from '../src/http/app.ts';
import { createLogger } from '../src/http/logger.ts';
import { createRateLimiter } from '../src/http/rate-limit.ts';
import { servicesFor } from '../src/runtime.ts';

/** The API's pool size under the bench; db1 uses the same. */
export const POOL_MAX = 20;

const mode = process.argv[2];
let port: number;
let counterPort = '';
if (mode === 'hello') {
  const app = Fastify();
  app.get('/hello', async () => ({ hello: 'world' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
} else if (mode === 'db1') {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: POOL_MAX });
  const app = Fastify();
  app.get<{ Params: { id: string } }>('/db1/:id', async (request) => {
    const r = await pool.query('SELECT id, status, balance_cents FROM accounts WHERE id = $1', [request.params.id]);
    return { data: r.rows[0] };
  });
  // The ceiling for a route that needs two queries, one after the other (a server's detail: our
  // row, then the platform's live read). Named, as the API sends its statements: PostgreSQL plans
  // each once per connection, where db1's unnamed SELECT is planned on every request.
  app.get<{ Params: { account: string; server: string } }>('/db2/:account/:server', async (request) => {
    const a = await pool.query({ name: 'db2a', text: 'SELECT id, status, balance_cents FROM accounts WHERE id = $1', values: [request.params.account] });
    const s = await pool.query({ name: 'db2s', text: 'SELECT id, status, name FROM servers WHERE id = $1', values: [request.params.server] });
    return { data: { ...a.rows[0], server: s.rows[0] } };
  });
  // The server detail's own two statements through the API's database layer (named, precompiled,
  // JSON row), with nothing else of the API: what they cost the database, and the least a process
  // sending them spends. The difference to GET /v2/servers/{id} is the API's own work.
  const store = connect(process.env.DATABASE_URL!, { max: POOL_MAX });
  app.get<{ Params: { account: string; server: string } }>('/db-detail/:account/:server', async (request) => {
    const detail = await findAccountServerDetail(store.db, request.params.account, request.params.server);
    const live = await consumeStatusFaultAndFindVm(store.db, detail!.server.provider_ref!);
    return { data: { ...detail, live: live.vm } };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
} else {
  // As `hostcloud serve` does (src/cli/heap.ts), so the bench's RSS is production's.
  limitHeapGrowth();
  // Round trips per request, for the bench's table: every query any pool client sends.
  let queries = 0;
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    queries++;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  const config = { ...loadConfig(), rateLimitMax: 10_000_000, logLevel: 'silent', worker: 'off' as const, simDelayMs: 0 };
  const database = connect(config.databaseUrl!, { max: POOL_MAX });
  const app = await buildApp({
    config, db: database.db, adminToken: process.env.ADMIN_TOKEN!, logger: createLogger(process.env.BENCH_TARGET_LOG ?? 'silent', process.stderr),
    rateLimiter: createRateLimiter({ max: config.rateLimitMax, windowS: 60 }), services: servicesFor(config, database.db),
  });
  const counter = Fastify();
  counter.get('/queries', async () => ({ queries }));
  await counter.listen({ port: 0, host: '127.0.0.1' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
  counterPort = `${(counter.server.address() as { port: number }).port} `;
}
// A normal exit on SIGTERM, so `--cpu-prof` (BENCH_NODE_ARGS) can write its profile.
process.on('SIGTERM', () => process.exit(0));
process.stdout.write(`${counterPort}${port}\n`);
