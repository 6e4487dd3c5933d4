// A hosting node on this machine for the native hosting driver's tests and bench: this file's own sshd,
// nginx and PHP-FPM (started here on free ports of 127.0.0.1, each with its own configuration
// under HOSTING_TEST_DIR/<random>), the machine's MariaDB (root over its socket), and a user prefix
// and SFTP group of its own. stop() ends the daemons and removes every user, group, file and
// database with the prefix (test/helpers/hosting-node.ts does it when a test file ends).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import ssh2 from 'ssh2';

const { utils } = ssh2;

const ROOT_DIR = process.env.HOSTING_TEST_DIR ?? '/var/lib/hostcloud-hosting-test';
const PHP_FPM = process.env.HOSTING_TEST_PHP_FPM ?? 'php-fpm8.2';
export const MYSQL_SOCKET = process.env.HOSTING_TEST_MYSQL_SOCKET ?? '/run/mysqld/mysqld.sock';

function which(cmd: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function problem(): string | null {
  if (process.getuid?.() !== 0) return 'the native hosting tests run as root (they make Linux users)';
  for (const cmd of ['/usr/sbin/sshd', 'nginx', PHP_FPM, 'mysql', 'useradd', 'flock']) if (!which(cmd)) return `${cmd} is not installed (apt-get install openssh-server nginx php-fpm php-mysql mariadb-client)`;
  if (!fs.existsSync(MYSQL_SOCKET)) return `no MariaDB socket at ${MYSQL_SOCKET}`;
  return null;
}

/** Why this machine cannot be a test hosting node, or null. */
export const hostingProblem = problem();

export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

export interface TestNode {
  dir: string;
  sshPort: number;
  httpPort: number;
  /** Our client key (HOSTING_SSH_KEY), authorised for root on this sshd. */
  keyFile: string;
  prefix: string;
  /** The node's `config` for POST /admin/v1/hosting-nodes. */
  config: Record<string, string>;
  /** Runs `mysql` as root with `sql` on stdin; the rows, tab-separated. */
  mysql(sql: string): string;
  /** nginx -t of this node's nginx: whether its configuration is valid. */
  nginxOk(): boolean;
  /** Stops the daemons and removes every user, group, database and file of the node's prefix. */
  stop(): Promise<void>;
  /** Stops this node's sshd: the node is unreachable. */
  stopSshd(): Promise<void>;
  /** Starts it again, with a new host key if asked. */
  startSshd(opts?: { newHostKey?: boolean }): Promise<void>;
}

// Daemons start in well under a second on a quiet machine; at a load of 30 nginx took more than
// 10 s to listen. A daemon that exits is reported at once instead (startHostingNode checks).
const START_WAIT_MS = 90_000;

async function waitFor(what: string, check: () => boolean, ms = START_WAIT_MS): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`${what} did not come up within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function tcpOpen(port: number, ms = START_WAIT_MS, alive: () => void = () => {}): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    alive();
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => { s.destroy(); resolve(true); });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nothing listens on 127.0.0.1:${port} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A node on free ports; tried again on new ones when a daemon found its port taken meanwhile. */
export async function startHostingNode(): Promise<TestNode> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startHostingNodeOnce();
    } catch (e) {
      if (attempt >= 3 || !/Address already in use/.test(String(e))) throw e;
    }
  }
}

async function startHostingNodeOnce(): Promise<TestNode> {
  const prefix = `hct${Array.from({ length: 3 }, () => String.fromCharCode(97 + randomInt(26))).join('')}`;
  const dir = path.join(ROOT_DIR, `${prefix}-${randomBytes(3).toString('hex')}`);
  // sshd's chroot rule: every directory above a home is root's and writable by no one else.
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  fs.chmodSync(ROOT_DIR, 0o755);
  for (const d of ['ssh', 'nginx/sites', 'nginx/logs', 'php/pool', 'php/run', 'srv', 'state']) fs.mkdirSync(path.join(dir, d), { recursive: true, mode: 0o755 });
  fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const [sshPort, httpPort] = [await freePort(), await freePort()];
  const sftpGroup = `${prefix}sftp`;

  const keyFile = path.join(dir, 'ssh', 'client');
  const client = utils.generateKeyPairSync('ed25519', { comment: 'hostcloud-test' });
  fs.writeFileSync(keyFile, client.private, { mode: 0o600 });
  fs.writeFileSync(path.join(dir, 'ssh', 'authorized_keys'), `${client.public}\n`, { mode: 0o600 });
  const hostKeyFile = path.join(dir, 'ssh', 'host_key');
  const newHostKey = () => fs.writeFileSync(hostKeyFile, utils.generateKeyPairSync('ed25519', {}).private, { mode: 0o600 });
  newHostKey();
  const sshdConfig = path.join(dir, 'ssh', 'sshd_config');
  fs.writeFileSync(sshdConfig, [
    `Port ${sshPort}`, 'ListenAddress 127.0.0.1', `HostKey ${hostKeyFile}`, `PidFile ${dir}/ssh/sshd.pid`,
    'AuthorizedKeysFile none', 'PasswordAuthentication yes', 'KbdInteractiveAuthentication no', 'UsePAM no',
    'PermitRootLogin prohibit-password', 'Subsystem sftp internal-sftp', 'MaxStartups 50', 'MaxSessions 50',
    'Match User root', `  AuthorizedKeysFile ${dir}/ssh/authorized_keys`,
    `Match Group ${sftpGroup}`, '  ChrootDirectory %h', '  ForceCommand internal-sftp', '  AllowTcpForwarding no', '  X11Forwarding no', '',
  ].join('\n'));

  const nginxConf = path.join(dir, 'nginx', 'nginx.conf');
  const n = path.join(dir, 'nginx');
  fs.writeFileSync(nginxConf, [
    'user www-data;', 'worker_processes 1;', `pid ${n}/nginx.pid;`, `error_log ${n}/logs/error.log;`, 'events { worker_connections 512; }',
    'http {', '  include /etc/nginx/mime.types;', '  access_log off;',
    `  client_body_temp_path ${n}/tmp-body; proxy_temp_path ${n}/tmp-proxy; fastcgi_temp_path ${n}/tmp-fcgi; uwsgi_temp_path ${n}/tmp-uwsgi; scgi_temp_path ${n}/tmp-scgi;`,
    `  server { listen 127.0.0.1:${httpPort} default_server; return 444; }`,
    `  include ${n}/sites/*.conf;`, '}', '',
  ].join('\n'));
  const nginxArgs = ['-p', n, '-c', nginxConf];
  // Server blocks include fastcgi_params from beside nginx.conf, as on Debian (/etc/nginx).
  fs.copyFileSync('/etc/nginx/fastcgi_params', path.join(n, 'fastcgi_params'));

  const p = path.join(dir, 'php');
  const fpmConf = path.join(p, 'php-fpm.conf');
  fs.writeFileSync(fpmConf, [
    '[global]', `pid = ${p}/php-fpm.pid`, `error_log = ${p}/php-fpm.log`,
    // PHP-FPM refuses to start without a pool: one of its own, idle.
    '[hostcloud-test-base]', 'user = www-data', 'group = www-data', `listen = ${p}/run/base.sock`, 'pm = ondemand', 'pm.max_children = 1',
    `include = ${p}/pool/*.conf`, '',
  ].join('\n'));

  execFileSync('groupadd', ['-f', sftpGroup]);
  const children: ChildProcess[] = [];
  const errors = new Map<ChildProcess, string>();
  const start = (cmd: string, args: string[]) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.on('data', (d: Buffer) => { errors.set(child, ((errors.get(child) ?? '') + d.toString()).slice(-600)); });
    children.push(child);
    return child;
  };
  let sshd = start('/usr/sbin/sshd', ['-D', '-e', '-f', sshdConfig]);
  start('nginx', [...nginxArgs, '-g', 'daemon off;']);
  start(PHP_FPM, ['--nodaemonize', '-y', fpmConf]);
  const stopChildren = async () => {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : null));
  };
  const alive = () => {
    const dead = children.find((c) => c.exitCode !== null || c.signalCode !== null);
    if (dead) throw new Error(`${dead.spawnfile} exited (${dead.exitCode ?? dead.signalCode}) before it was ready: ${errors.get(dead) ?? ''}`);
  };
  try {
    await tcpOpen(sshPort, START_WAIT_MS, alive);
    await tcpOpen(httpPort, START_WAIT_MS, alive);
    await waitFor('php-fpm', () => { alive(); return fs.existsSync(`${p}/php-fpm.pid`); });
  } catch (e) {
    // Left running, the daemons' pipes kept the test file's process alive until the run's file
    // timeout (15 minutes) instead of failing it now.
    await stopChildren();
    throw e;
  }

  const mysql = (sql: string) => execFileSync('mysql', ['--protocol=socket', `--socket=${MYSQL_SOCKET}`, '-uroot', '--batch', '--skip-column-names'], { input: sql, encoding: 'utf8' });


  return {
    dir, sshPort, httpPort, keyFile, prefix, mysql,
    async stop() {
      await stopChildren();
      cleanUp(prefix, dir, mysql);
    },
    config: {
      hosting_root: `${dir}/srv`,
      nginx_sites_dir: `${n}/sites`,
      nginx_test: `nginx -t -q ${nginxArgs.join(' ')}`,
      nginx_reload: `nginx -s reload ${nginxArgs.join(' ')}`,
      http_address: '127.0.0.1',
      php_pool_dir: `${p}/pool`,
      php_test: `${PHP_FPM} -t -y ${fpmConf}`,
      php_reload: `kill -USR2 "$(cat ${p}/php-fpm.pid)"`,
      php_run_dir: `${p}/run`,
      sftp_group: sftpGroup,
      sshd_config: sshdConfig,
      mysql: `mysql --protocol=socket --socket=${MYSQL_SOCKET} -uroot`,
      state_dir: `${dir}/state`,
      user_prefix: prefix,
    },
    nginxOk() {
      try {
        execFileSync('nginx', ['-t', '-q', ...nginxArgs], { stdio: 'ignore' });
        return true;
      } catch {
        return false;
      }
    },
    async stopSshd() {
      if (sshd.exitCode !== null || sshd.signalCode !== null) return;
      const exited = new Promise((r) => sshd.once('exit', r));
      sshd.kill('SIGTERM');
      await exited;
    },
    async startSshd(opts = {}) {
      if (opts.newHostKey) newHostKey();
      sshd = start('/usr/sbin/sshd', ['-D', '-e', '-f', sshdConfig]);
      await tcpOpen(sshPort);
    },
  };
}

/** Removes every user, group, database and file this node's prefix made. */
function cleanUp(prefix: string, dir: string, mysql: (sql: string) => string): void {
  const users = fs.readFileSync('/etc/passwd', 'utf8').split('\n').map((l) => l.split(':')[0]!).filter((u) => u.startsWith(prefix));
  for (const u of users) {
    try { execFileSync('pkill', ['-KILL', '-u', u], { stdio: 'ignore' }); } catch { /* none running */ }
    try { execFileSync('userdel', [u], { stdio: 'ignore' }); } catch { /* gone */ }
  }
  const groups = fs.readFileSync('/etc/group', 'utf8').split('\n').map((l) => l.split(':')[0]!).filter((g) => g.startsWith(prefix));
  for (const g of groups) {
    try { execFileSync('groupdel', [g], { stdio: 'ignore' }); } catch { /* gone */ }
  }
  try {
    const like = `${prefix}%`;
    const dbs = mysql(`SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE '${like}';`).split('\n').filter(Boolean);
    const dbUsers = mysql(`SELECT CONCAT(QUOTE(User), '@', QUOTE(Host)) FROM mysql.user WHERE User LIKE '${like}';`).split('\n').filter(Boolean);
    mysql([...dbs.map((d) => `DROP DATABASE IF EXISTS \`${d}\`;`), ...dbUsers.map((u) => `DROP USER IF EXISTS ${u};`)].join('\n') || 'SELECT 1;');
  } catch { /* MariaDB gone: nothing to drop */ }
  fs.rmSync(dir, { recursive: true, force: true });
}
