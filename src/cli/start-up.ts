// What `hostcloud serve` tells the operator as it starts: a listen failure in one line naming the
// setting to change, and a banner whose commands work as printed, from any directory.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { type Config, ConfigError } from '../config.ts';

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
  token: string;
  generated: boolean;
}

export function banner({ config, port, clusterDir, token, generated }: BannerInput): string {
  const pgLink = path.join(config.dataDir, 'pg');
  const where = clusterDir === null
    ? 'DATABASE_URL'
    : clusterDir === pgLink ? `embedded PostgreSQL in ${pgLink}` : `embedded PostgreSQL in ${clusterDir} (linked from ${pgLink})`;
  const url = localUrl(config.host, port);
  // The admin command names everything it needs, so it works from any directory: node, this
  // installation's bin/hostcloud.js, the URL, and where the token is (DATA_DIR) or that it is ADMIN_TOKEN's.
  const env = config.adminToken ? 'ADMIN_TOKEN="$ADMIN_TOKEN"' : `DATA_DIR=${shellWord(config.dataDir)}`;
  const admin = `${env} ${shellWord(process.execPath)} ${shellWord(BIN)} admin --url ${url}`;
  return [
    '',
    `  Hostcloud is listening on http://${config.host}:${port}  (public URL ${config.publicUrl})`,
    `  Database: ${where}; rate limits: ${config.redisUrl ? 'Redis' : 'in-process'}; worker: ${config.worker}`,
    // Printed in full once, when it is made; afterwards only recognisably, so restarts do not
    // keep writing the secret into service logs.
    generated
      ? `  Admin token (new, saved in ${path.join(config.dataDir, 'admin-token')}): ${token}`
      : `  Admin token: ${token.slice(0, 10)}… (${config.adminToken ? 'from ADMIN_TOKEN' : `in ${path.join(config.dataDir, 'admin-token')}`})`,
    `  Try: curl -s ${url}/healthz`,
    `  Admin (from any directory${config.adminToken ? ', with ADMIN_TOKEN set as for the server' : ''}):`,
    `    ${admin} accounts create --email you@example.com --deposit 100 --ip 127.0.0.1`,
    '',
  ].join('\n') + '\n';
}
