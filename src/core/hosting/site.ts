// The customer's hosting page: what the account is (domain, document root, SFTP, PHP, disk, its
// databases) and the few things its owner may do there — a new SFTP password, databases created
// within the package's limit, a database's password reset, a database dropped. A new password is
// made by the driver and returned once, in the answer only: it is never stored, logged or put in
// an event. Who may is the route's (hosting:write; a read-only sub-user or page session is refused
// before it gets here); what this file adds is that the account must be live and the database the
// account's own.
import type { WebHostingRow } from '../../db/queries/web-hosting.ts';
import type { HostingSiteInfo } from '../../providers/hosting/types.ts';
import type { Ctx } from '../context.ts';
import { ApiError, invalid, notFound } from '../errors.ts';
import { panelCall } from './panel-calls.ts';
import { requireHosting } from './read.ts';

/**
 * How long a page call waits for the driver: a native node answers over SSH (a connection, a
 * command, MariaDB), slower than a read of the server list, and a write the customer gave up on
 * would leave a password nobody saw.
 */
const deadline = (ctx: Ctx) => Math.max(ctx.providerTimeoutMs, 30_000);

/** A new database's name as the customer gives it: what follows `<user>_`. */
export const DATABASE_SUFFIX = /^[a-z0-9]{1,16}$/;

export interface HostingSite extends HostingSiteInfo {
  id: string;
  status: WebHostingRow['status'];
}

/** The account with its panel account, live (active, or suspended when only reading). */
async function liveHosting(ctx: Ctx, id: string, writing: boolean): Promise<{ hosting: WebHostingRow; ref: string }> {
  const hosting = await requireHosting(ctx, id);
  const ok = hosting.status === 'active' || (!writing && hosting.status === 'suspended');
  if (!ok || !hosting.panel_ref) {
    throw new ApiError('STATE_CONFLICT', writing
      ? `Web hosting ${id} is ${hosting.status}; only an active account can change its passwords and databases`
      : `Web hosting ${id} is ${hosting.status}; it has no site to show yet`);
  }
  return { hosting, ref: hosting.panel_ref };
}

export async function getHostingSite(ctx: Ctx, id: string): Promise<HostingSite> {
  const { hosting, ref } = await liveHosting(ctx, id, false);
  const info = await panelCall(() => ctx.hosting.siteInfo(ref), deadline(ctx), 'site');
  // A test key's panel knows no account: the names are the record's.
  const named = ctx.sandbox ? { ...info, domain: hosting.domain, sftp: { ...info.sftp, username: hosting.username ?? info.sftp.username } } : info;
  return { id: hosting.id, status: hosting.status, ...named };
}

export async function resetHostingSftpPassword(ctx: Ctx, id: string): Promise<{ username: string; password: string }> {
  const { hosting, ref } = await liveHosting(ctx, id, true);
  const password = await panelCall(() => ctx.hosting.resetSftpPassword(ref), deadline(ctx), 'SFTP password');
  return { username: hosting.username ?? '', password };
}

/** The account's database of that full name, or RESOURCE_NOT_FOUND (another account's included). */
async function requireDatabase(ctx: Ctx, ref: string, database: string): Promise<void> {
  const info = await panelCall(() => ctx.hosting.siteInfo(ref), deadline(ctx), 'databases');
  if (!ctx.sandbox && !info.databases.some((d) => d.name === database)) throw notFound('Database');
}

export async function createHostingDatabase(ctx: Ctx, id: string, name: string): Promise<{ name: string; password: string }> {
  if (!DATABASE_SUFFIX.test(name)) throw invalid('name', 'A database name is 1–16 lower-case letters and digits (it is prefixed with the account\'s user name and _)');
  const { hosting, ref } = await liveHosting(ctx, id, true);
  const info = await panelCall(() => ctx.hosting.siteInfo(ref), deadline(ctx), 'databases');
  const full = `${hosting.username}_${name}`;
  if (!ctx.sandbox) {
    if (info.databases.some((d) => d.name === full)) throw new ApiError('STATE_CONFLICT', `The database ${full} exists already`);
    if (info.databases.length >= info.maxDatabases) throw databaseLimit(info.maxDatabases);
  }
  try {
    return await panelCall(() => ctx.hosting.createDatabase(ref, name), deadline(ctx), 'new database');
  } catch (e) {
    // Another create took the last place between our count and the driver's.
    if (e instanceof ApiError && e.code === 'SERVICE_UNAVAILABLE') throw databaseLimit(info.maxDatabases);
    throw e;
  }
}

function databaseLimit(max: number): ApiError {
  return new ApiError('QUOTA_EXCEEDED', `The package allows ${max} database${max === 1 ? '' : 's'}; drop one before creating another`);
}

export async function resetHostingDatabasePassword(ctx: Ctx, id: string, database: string): Promise<{ name: string; password: string }> {
  const { ref } = await liveHosting(ctx, id, true);
  await requireDatabase(ctx, ref, database);
  const password = await panelCall(() => ctx.hosting.resetDatabasePassword(ref, database), deadline(ctx), 'database password');
  return { name: database, password };
}

export async function dropHostingDatabase(ctx: Ctx, id: string, database: string): Promise<void> {
  const { ref } = await liveHosting(ctx, id, true);
  await requireDatabase(ctx, ref, database);
  await panelCall(() => ctx.hosting.dropDatabase(ref, database), deadline(ctx), 'drop database');
}
