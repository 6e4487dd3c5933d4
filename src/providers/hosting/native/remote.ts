// What a hosting node runs for one account, step by step. Each step is one shell script sent over
// SSH, idempotent (run twice, it finds what the first run made and does only what is left), and
// checked: a script that fails names what failed. Values come in quoted (shell.ts) and file
// contents on standard input. Changes to nginx and PHP-FPM happen under a lock on the node
// (flock), so two accounts provisioned at once never test or reload each other's half-written
// configuration; nginx's configuration is tested before every reload, and a failed test puts the
// previous file back, so the sites already served keep being served.
import { randomBytes } from 'node:crypto';
import { HostingPanelError } from '../types.ts';
import type { NodeConfig } from './node-config.ts';
import { grantDb, q, safeDomain, safeUsername, sqlIdent, sqlString } from './shell.ts';
import type { ExecResult, SshSession } from './ssh.ts';
import { indexPage, nginxFile, poolConfig, poolFile, serverBlock, siteNames } from './templates.ts';

export interface NodeContext {
  ssh: SshSession;
  config: NodeConfig;
  httpPort: number;
  nodeName: string;
}

/** Exit status of a script whose configuration test failed (nginx -t, php-fpm -t): not worth retrying. */
const CONFIG_TEST_FAILED = 3;

async function run(n: NodeContext, what: string, script: string, stdin?: string): Promise<ExecResult> {
  const r = await n.ssh.exec(`set -eu\n${script}`, stdin);
  if (r.code !== 0) {
    const detail = (r.stderr || r.stdout).trim().split('\n').slice(-5).join(' | ').slice(0, 800);
    // A failed configuration test will fail again: the operation fails (and its order is refunded).
    throw new HostingPanelError('UPSTREAM_ERROR', `${what} failed on hosting node ${n.nodeName} (exit ${r.code}): ${detail}`, r.code !== CONFIG_TEST_FAILED);
  }
  return r;
}

export const randomPassword = () => randomBytes(15).toString('base64url').replace(/[-_]/g, 'x');

const lock = (c: NodeConfig, name: string) => `${c.state_dir}/${name}.lock`;

/** Runs `body` (a script) under the node's lock `name`, at most 120 s waiting for it. */
function locked(c: NodeConfig, name: string, body: string): string {
  return `mkdir -p ${q(c.state_dir)}\nflock -w 120 ${q(lock(c, name))} sh -euc ${q(body)}`;
}

/**
 * Installs `content` as `file` (staged in the state directory, then moved in), tests nginx and
 * reloads it; a failed test restores what was there before (or removes the new file) and exits 3.
 * `content` null removes the file.
 */
function nginxInstall(c: NodeConfig, file: string, staged: string | null): string {
  const backup = `${c.state_dir}/nginx-backup-${file.split('/').pop()}`;
  const body = [
    `F=${q(file)}; B=${q(backup)}`,
    'if [ -e "$F" ]; then cp -p "$F" "$B"; had=1; else rm -f "$B"; had=0; fi',
    staged === null ? 'rm -f "$F"' : `mv -f ${q(staged)} "$F"`,
    `if ! out=$( { ${c.nginx_test} ; } 2>&1); then`,
    '  if [ "$had" = 1 ]; then mv -f "$B" "$F"; else rm -f "$F"; fi',
    '  printf "nginx -t refused the configuration: %s\\n" "$out" >&2; exit 3',
    'fi',
    'rm -f "$B"',
    `{ ${c.nginx_reload} ; } >/dev/null`,
  ].join('\n');
  return locked(c, 'nginx', body);
}

/** Writes the server block of an account (serving or suspended), tested and reloaded. */
async function writeSite(n: NodeContext, user: string, domain: string, suspended: boolean): Promise<void> {
  const c = n.config;
  const staged = `${c.state_dir}/nginx-new-hostcloud-${user}.conf`;
  const content = serverBlock(c, n.httpPort, siteNames(c, user, domain), suspended);
  await run(n, 'The nginx server block', `mkdir -p ${q(c.state_dir)}\ncat > ${q(staged)}\n${nginxInstall(c, nginxFile(c, user), staged)}`, content);
}

/** Tests PHP-FPM's configuration and reloads it; a failed test exits 3 after `undo`. */
function phpReload(c: NodeConfig, undo: string): string {
  return [
    `if ! out=$( { ${c.php_test} ; } 2>&1); then`,
    `  ${undo || ':'}`,
    '  printf "php-fpm -t refused the configuration: %s\\n" "$out" >&2; exit 3',
    'fi',
    `{ ${c.php_reload} ; } >/dev/null`,
  ].join('\n');
}

/** Waits (up to ~10 s) until `test` holds for the socket: PHP-FPM reloads in the background. */
const waitSocket = (socket: string, present: boolean) =>
  `i=0; while ${present ? '!' : ''} [ -S ${q(socket)} ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; ${present ? `[ -S ${q(socket)} ]` : 'true'}`;

async function writePool(n: NodeContext, user: string, domain: string): Promise<void> {
  const c = n.config;
  const s = siteNames(c, user, domain);
  const file = poolFile(c, user);
  const staged = `${c.state_dir}/pool-new-hostcloud-${user}.conf`;
  const body = [
    `mv -f ${q(staged)} ${q(file)}`,
    phpReload(c, `rm -f ${q(file)}`),
    waitSocket(s.socket, true),
  ].join('\n');
  await run(n, 'The PHP-FPM pool', `mkdir -p ${q(c.state_dir)}\ncat > ${q(staged)}\n${locked(c, 'php', body)}`, poolConfig(c, s));
}

async function removePool(n: NodeContext, user: string): Promise<void> {
  const c = n.config;
  const file = poolFile(c, user);
  const socket = siteNames(c, user, 'x').socket;
  const body = [`[ -e ${q(file)} ] || exit 0`, `rm -f ${q(file)}`, phpReload(c, ''), waitSocket(socket, false)].join('\n');
  await run(n, 'Stopping the PHP-FPM pool', locked(c, 'php', body));
}

/** Runs SQL as the node's MariaDB root; answers tab-separated rows. */
async function mysql(n: NodeContext, what: string, statements: string[]): Promise<string[][]> {
  const r = await run(n, what, `${n.config.mysql} --batch --skip-column-names`, `${statements.join(';\n')};\n`);
  return r.stdout.split('\n').filter(Boolean).map((l) => l.split('\t'));
}

/** The node's user names (to derive a new account's name beside the system's). */
export async function nodeUserNames(n: NodeContext): Promise<Set<string>> {
  const r = await run(n, 'Listing users', 'getent passwd | cut -d: -f1');
  return new Set(r.stdout.split('\n').filter(Boolean));
}

export async function createUser(n: NodeContext, user: string): Promise<void> {
  const c = n.config;
  const u = q(safeUsername(user));
  const home = q(`${c.hosting_root}/${user}`);
  await run(n, 'Creating the Linux user', [
    `getent group ${q(c.sftp_group)} >/dev/null || groupadd ${q(c.sftp_group)}`,
    `if id -u ${u} >/dev/null 2>&1; then`,
    // A user of that name that is not ours (another home) is never taken over.
    `  [ "$(getent passwd ${u} | cut -d: -f6)" = ${home} ] || { echo "user ${user} exists and is not a hosting account" >&2; exit 3; }`,
    'else',
    `  useradd --no-create-home --home-dir ${home} --shell /usr/sbin/nologin --user-group --groups ${q(c.sftp_group)} ${u}`,
    'fi',
    `usermod -a -G ${q(c.sftp_group)} ${u}`,
  ].join('\n'));
}

export async function makeHome(n: NodeContext, user: string, domain: string): Promise<void> {
  const c = n.config;
  const home = `${c.hosting_root}/${safeUsername(user)}`;
  const u = q(user);
  const web = `${home}/public_html`;
  await run(n, 'Making the home directory', [
    // sshd's chroot: the home and every parent are root's and writable by no one else.
    `install -d -o root -g root -m 755 ${q(c.hosting_root)} ${q(home)}`,
    // nginx (the web group) reads the site; no other account can enter it.
    `install -d -o ${u} -g ${q(c.web_group)} -m 2750 ${q(web)}`,
    `install -d -o ${u} -g ${u} -m 700 ${q(`${home}/tmp`)}`,
    `if [ -z "$(ls -A ${q(web)})" ]; then cat > ${q(`${web}/index.html`)}; chown ${u}:${q(c.web_group)} ${q(`${web}/index.html`)}; chmod 640 ${q(`${web}/index.html`)}; else cat >/dev/null; fi`,
  ].join('\n'), indexPage(safeDomain(domain)));
}

/** Sets the disk quota; false when the home's filesystem has no quotas (then usage is measured). */
export async function setQuota(n: NodeContext, user: string, quotaMb: number): Promise<boolean> {
  const c = n.config;
  const kb = Math.max(1, quotaMb) * 1024;
  const r = await n.ssh.exec([
    `mnt=$(df -P ${q(c.hosting_root)} | awk 'NR==2 {print $6}')`,
    `command -v setquota >/dev/null 2>&1 && quotaon -pu "$mnt" 2>/dev/null | grep -q ' is on' && setquota -u ${q(safeUsername(user))} ${kb} ${kb} 0 0 "$mnt" && echo enforced || echo measured`,
  ].join('\n'));
  return r.stdout.trim() === 'enforced';
}

export async function writeServing(n: NodeContext, user: string, domain: string): Promise<void> {
  await writePool(n, safeUsername(user), safeDomain(domain));
  await writeSite(n, user, domain, false);
}

export const mainDatabase = (user: string) => `${user}_main`;

export async function createDatabase(n: NodeContext, user: string, db: string, password: string = randomPassword()): Promise<void> {
  safeUsername(user);
  await mysql(n, 'Creating the database', [
    `CREATE DATABASE IF NOT EXISTS ${sqlIdent(db)}`,
    `CREATE USER IF NOT EXISTS ${sqlString(db)}@'localhost' IDENTIFIED BY ${sqlString(password)}`,
    `GRANT ALL PRIVILEGES ON ${grantDb(db)}.* TO ${sqlString(db)}@'localhost'`,
  ]);
}

export async function resetDatabasePassword(n: NodeContext, db: string, password: string): Promise<void> {
  await mysql(n, 'Setting the database password', [`ALTER USER ${sqlString(db)}@'localhost' IDENTIFIED BY ${sqlString(password)}`]);
}

export async function dropDatabase(n: NodeContext, db: string): Promise<void> {
  await mysql(n, 'Dropping the database', [`DROP DATABASE IF EXISTS ${sqlIdent(db)}`, `DROP USER IF EXISTS ${sqlString(db)}@'localhost'`]);
}

/** The account's databases (`<user>_…`) with their size in MB. */
export async function listDatabases(n: NodeContext, user: string): Promise<{ name: string; sizeMb: number }[]> {
  const like = sqlString(`${safeUsername(user)}\\_%`);
  const rows = await mysql(n, 'Listing databases', [
    `SELECT s.schema_name, COALESCE(ROUND(SUM(t.data_length + t.index_length) / 1048576, 1), 0) FROM information_schema.schemata s `
    + `LEFT JOIN information_schema.tables t ON t.table_schema = s.schema_name WHERE s.schema_name LIKE ${like} GROUP BY s.schema_name ORDER BY s.schema_name`,
  ]);
  return rows.map(([name, size]) => ({ name: name!, sizeMb: Number(size) }));
}

export async function setSftpPassword(n: NodeContext, user: string, password: string): Promise<void> {
  await run(n, 'Setting the SFTP password', 'chpasswd', `${safeUsername(user)}:${password}\n`);
}

export async function suspendAccount(n: NodeContext, user: string, domain: string): Promise<void> {
  const u = q(safeUsername(user));
  // Expired and locked: sshd refuses every login; the open SFTP sessions and PHP workers end.
  await run(n, 'Locking the SFTP login', `usermod -L -e 1 ${u}\npkill -KILL -u ${u} || true`);
  await writeSite(n, user, safeDomain(domain), true);
  await removePool(n, user);
}

export async function resumeAccount(n: NodeContext, user: string, domain: string): Promise<void> {
  const u = q(safeUsername(user));
  await writeServing(n, user, domain);
  // An account whose password was never set stays locked (`usermod -U` refuses an empty password).
  await run(n, 'Unlocking the SFTP login', `usermod -e '' ${u}\nusermod -U ${u} 2>/dev/null || true`);
}

export async function removeAccount(n: NodeContext, user: string): Promise<void> {
  const c = n.config;
  const u = q(safeUsername(user));
  await run(n, 'Ending the account\'s processes', `if id -u ${u} >/dev/null 2>&1; then usermod -L -e 1 ${u}; pkill -KILL -u ${u} || true; fi`);
  await run(n, 'Removing the nginx server block', `[ -e ${q(nginxFile(c, user))} ] || exit 0\n${nginxInstall(c, nginxFile(c, user), null)}`);
  await removePool(n, user);
  for (const db of await listDatabases(n, user)) await dropDatabase(n, db.name);
  await dropDatabase(n, mainDatabase(user));
  const home = `${c.hosting_root}/${user}`;
  await run(n, 'Removing the user and files', [
    `if id -u ${u} >/dev/null 2>&1; then pkill -KILL -u ${u} || true; userdel ${u}; fi`,
    `getent group ${u} >/dev/null && groupdel ${u} || true`,
    `rm -rf --one-file-system ${q(home)}`,
  ].join('\n'));
}

export async function diskUsedMb(n: NodeContext, user: string): Promise<number> {
  const r = await run(n, 'Measuring disk usage', `du -sk ${q(`${n.config.hosting_root}/${safeUsername(user)}`)} 2>/dev/null | cut -f1 || echo 0`);
  return Math.round((Number(r.stdout.trim()) || 0) / 1024);
}
