// What `hostcloud serve` tells the operator as it starts: a listen failure in one line naming the
// setting to change, and a banner whose commands work as printed, from any directory.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { type Config, ConfigError } from '../config.ts';
import { usePretty } from '../http/logger.ts';

/** bin/hostcloud.js of this installation, absolute. */
export const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/hostcloud.js');

/** A word for a POSIX shell: as is when plain, else single-quoted. */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Listens, or explains in one line why it cannot (a taken port, a port that needs root, a foreign HOST). */
export async function listen(app: FastifyInstance, config: Config): Promise<number> {
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new ConfigError(`port ${config.port} is in use; set PORT to another port`);
    if (code === 'EACCES') throw new ConfigError(`port ${config.port} needs more privileges; set PORT to a port above 1023`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new ConfigError(`HOST ${config.host} is not an address of this machine; set HOST (e.g. 127.0.0.1 or 0.0.0.0)`);
    throw e;
  }
  const addr = app.server.address();
  return typeof addr === 'object' && addr ? addr.port : config.port;
}

/** An address to reach a server listening on `host` from this machine. */
function localUrl(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}

export interface BannerInput {
  config: Config;
  port: number;
  /** The embedded cluster's directory, or null with DATABASE_URL. */
  clusterDir: string | null;
  /** The admin token in full, or null where another process of the installation made it. */
  token: string | null;
  generated: boolean;
  /** DATA_DIR/admin-token holds another installation's token. */
  staleFile?: boolean;
  /** What a customer cannot buy yet for want of setup (GET /admin/v1/setup); empty when ready. */
  missing?: string[];
}

/**
 * `hostcloud admin` as it runs from any directory against this server: node, this installation's
 * bin/hostcloud.js, the URL, and where the token is (DATA_DIR) or that it is ADMIN_TOKEN's.
 */
export function adminCommand(config: Config, port: number, tokenInDataDir = true): string {
  // Where this process does not hold the token (another process of the installation made it), the
  // operator passes it as ADMIN_TOKEN.
  const env = config.adminToken || !tokenInDataDir ? 'ADMIN_TOKEN="$ADMIN_TOKEN"' : `DATA_DIR=${shellWord(config.dataDir)}`;
  return `${env} ${shellWord(process.execPath)} ${shellWord(BIN)} admin --url ${localUrl(config.host, port)}`;
}

/** What the banner says, as fields: the JSON log line is made of these, the text banner reads them. */
export function startFacts({ config, port, clusterDir, token, generated, staleFile = false, missing = [] }: BannerInput) {
  const pgLink = path.join(config.dataDir, 'pg');
  const database = clusterDir === null
    ? 'DATABASE_URL'
    : clusterDir === pgLink ? `embedded PostgreSQL in ${pgLink}` : `embedded PostgreSQL in ${clusterDir} (linked from ${pgLink})`;
  const url = localUrl(config.host, port);
  // The admin command names everything it needs, so it works from any directory.
  const admin = adminCommand(config, port, token !== null);
  const file = path.join(config.dataDir, 'admin-token');
  return {
    listen: `http://${config.host}:${port}`,
    public_url: config.publicUrl,
    database,
    rate_limits: config.redisUrl ? 'Redis' : 'in-process',
    worker: config.worker,
    // In full once, when it is made; afterwards only recognisably, so restarts do not keep
    // writing the secret into service logs.
    admin_token: token === null ? null : generated ? token : `${token.slice(0, 10)}…`,
    admin_token_source: generated ? `new, saved in ${file}` : config.adminToken ? 'ADMIN_TOKEN'
      : token === null
        ? `made by another process of this installation (in its DATA_DIR/admin-token)${staleFile ? `; ${file} holds another installation's token` : ''}`
        : file,
    setup_missing: missing,
    try: `curl -s ${url}/healthz`,
    admin_command: `${admin} accounts create --email you@example.com --deposit 100 --ip 127.0.0.1`,
  };
}

export function banner(input: BannerInput): string {
  const f = startFacts(input);
  return [
    '',
    `  Hostcloud is listening on ${f.listen}  (public URL ${f.public_url})`,
    `  Database: ${f.database}; rate limits: ${f.rate_limits}; worker: ${f.worker}`,
    input.generated
      ? `  Admin token (${f.admin_token_source}): ${f.admin_token}`
      : f.admin_token === null
        ? `  Admin token: ${f.admin_token_source}; this process accepts it`
        : `  Admin token: ${f.admin_token} (${f.admin_token_source === 'ADMIN_TOKEN' ? 'from ADMIN_TOKEN' : `in ${f.admin_token_source}`})`,
    `  Try: ${f.try}`,
    `  Admin (from any directory${input.config.adminToken ? ', with ADMIN_TOKEN set as for the server' : input.token === null ? ', with ADMIN_TOKEN set to the admin token' : ''}):`,
    `    ${f.admin_command}`,
    ...(f.setup_missing.length
      ? [`  Before a customer can buy (GET /admin/v1/setup), set up:`, ...f.setup_missing.map((m) => `    - ${m}`)]
      : []),
    '',
  ].join('\n') + '\n';
}

/**
 * Says the server is up: the text banner for a person (pretty logs), or, when the log is JSON
 * lines, one more JSON line among them — whatever LOG_LEVEL, as the banner is always shown.
 */
export function announceStart(input: BannerInput, logger: Logger, write: (text: string) => void = (t) => process.stdout.write(t)): void {
  if (usePretty(input.config.logFormat)) write(banner(input));
  else logger.child({ component: 'serve' }, { level: 'info' }).info(startFacts(input), 'hostcloud listening');
}

/** The last word of a stop, in the log's own form. */
export function announceStop(config: Config, logger: Logger, write: (text: string) => void = (t) => process.stdout.write(t)): void {
  if (usePretty(config.logFormat)) write('  Hostcloud stopped cleanly.\n');
  else logger.child({ component: 'serve' }, { level: 'info' }).info('hostcloud stopped cleanly');
}
