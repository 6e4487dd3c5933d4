// The simulated hosting panel: the default HostingPanel. It behaves like a multi-server cPanel/WHM
// installation — every step takes `delayMs`, state lives in our database (sim_hosting_* tables, so
// it survives restarts and is shared by every worker), an account is placed on a server with
// room, a retried create returns the account of the first attempt, disk usage grows with time, and
// the `hosting` fault switch makes it fail on demand. The account's tools (the customer's hosting
// page) answer like the native driver's: databases `<user>_<name>` up to the package's limit (one
// per domain it allows, at least one; `<user>_main` made with the account), passwords made and
// returned once and never stored.
//
// Placement: the server with the most free places (capacity − accounts, those being created
// included), the lowest id on a tie, in any location (an order names none). Placements lock every
// server for their transaction, so two creates never take the last place twice.
import { randomBytes, randomInt } from 'node:crypto';
import type { Db } from '../../../db/connection.ts';
import {
  deleteSimDatabase, findPanelAccount, findPanelAccountByToken, findPanelServer, insertPanelAccount, insertSimDatabase, insertSsoSession, listPanelServerUsage,
  listSimDatabases, lockPanelServers, panelDomainTaken, setPanelAccountState, usernamesOnServer,
} from '../../../db/queries/sim-hosting.ts';
import type { SimHostingAccount } from '../../../db/schema.ts';
import { obeyFault, sleep, withDeadline } from '../../simulated/fault.ts';
import { type CreateAccountRequest, type HostingCall, type HostingPanel, HostingPanelError, type PanelAccount, type PanelProgress } from '../types.ts';
import { deriveUsername, usernameBase } from '../username.ts';
import { diskUsedMb } from './disk.ts';

export interface SimulatedPanelOptions {
  db: Db;
  /** Wait of each step (SIM_DELAY_MS); 0 answers at once. */
  delayMs: number;
  /** The clock of disk usage; defaults to the system clock. */
  now?: () => Date;
}

/** How long the panel's own SSO URL works: our link redirects to it at once. */
export const SSO_TTL_S = 60;

const newId = () => `pa-${randomBytes(8).toString('hex')}`;
const newPassword = () => randomBytes(15).toString('base64url').replace(/[-_]/g, 'x');
const DB_SUFFIX = /^[a-z0-9]{1,16}$/;
/** A package's database limit, as the native driver counts it. */
const maxDatabases = (account: SimHostingAccount) => Math.max(1, account.max_domains);

export function createSimulatedPanel({ db, delayMs, now = () => new Date() }: SimulatedPanelOptions): HostingPanel {
  const step = async (progress: PanelProgress, pct: number, detail: string) => {
    await progress(pct, detail);
    await sleep(delayMs);
  };
  const fault = (call: HostingCall) => obeyFault(db, 'hosting', call, delayMs);

  /** The account, unless it never existed or was terminated — then no retry can help. */
  const liveAccount = async (ref: string): Promise<SimHostingAccount> => {
    const account = await findPanelAccount(db, ref);
    if (!account || account.state === 'terminated') throw new HostingPanelError('UPSTREAM_ERROR', `Hosting account ${ref} does not exist`, false);
    return account;
  };

  const panelAccountOf = async (account: SimHostingAccount): Promise<PanelAccount> => {
    const server = await findPanelServer(db, account.server_id);
    return { ref: account.id, username: account.username, serverHostname: server!.hostname };
  };

  /** The account row on the roomiest server, in one transaction; an existing account of the token wins. */
  const place = (req: CreateAccountRequest): Promise<SimHostingAccount> => db.transaction().execute(async (trx) => {
    await lockPanelServers(trx);
    const twin = await findPanelAccountByToken(trx, req.token);
    if (twin) return twin;
    // The account of a cancelled order may still be on its way out (its termination is queued):
    // worth retrying once it is gone.
    if (await panelDomainTaken(trx, req.domain)) throw new HostingPanelError('UPSTREAM_ERROR', `The panel already has an account for ${req.domain}`);
    const servers = (await listPanelServerUsage(trx)).filter((s) => s.accounts < s.capacity);
    servers.sort((a, b) => (b.capacity - b.accounts) - (a.capacity - a.accounts) || a.id - b.id);
    const server = servers[0];
    if (!server) throw new HostingPanelError('CAPACITY_UNAVAILABLE', 'Every hosting panel server is full', false);
    const taken = new Set(await usernamesOnServer(trx, server.id, usernameBase(req.domain).slice(0, 8)));
    return insertPanelAccount(trx, {
      id: newId(), request_token: req.token, server_id: server.id, username: deriveUsername(req.domain, (u) => taken.has(u)),
      domain: req.domain, package_name: req.package.name, quota_mb: req.package.quotaMb, max_domains: req.package.maxDomains,
      contact_email: req.contactEmail,
    });
  });

  return {
    async createAccount(req, progress) {
      await fault('createAccount');
      await step(progress, 10, 'Choosing a panel server');
      const account = (await findPanelAccountByToken(db, req.token)) ?? (await place(req));
      if (account.state === 'terminated') throw new HostingPanelError('UPSTREAM_ERROR', `The account of request ${req.token} was terminated`, false);
      // A retry after a crash resumes here: the account exists, only the remaining steps run.
      if (account.state === 'creating') {
        await step(progress, 40, 'Creating the account');
        await step(progress, 70, 'Setting up DNS and mail');
        await step(progress, 90, 'Installing the SSL certificate');
        await insertSimDatabase(db, account.id, `${account.username}_main`, maxDatabases(account));
        await setPanelAccountState(db, account.id, ['creating'], 'active');
      }
      return panelAccountOf(account);
    },

    async findAccount(token) {
      await fault('findAccount');
      const account = await findPanelAccountByToken(db, token);
      return account && account.state !== 'terminated' ? account.id : null;
    },

    async suspend(ref, reason) {
      await fault('suspend');
      await liveAccount(ref);
      await sleep(delayMs);
      await setPanelAccountState(db, ref, ['active', 'suspended'], 'suspended', reason);
    },

    async unsuspend(ref) {
      await fault('unsuspend');
      await liveAccount(ref);
      await sleep(delayMs);
      await setPanelAccountState(db, ref, ['suspended', 'active'], 'active');
    },

    async terminate(ref) {
      await fault('terminate');
      const account = await findPanelAccount(db, ref);
      if (!account || account.state === 'terminated') return;
      await sleep(delayMs);
      await setPanelAccountState(db, ref, ['creating', 'active', 'suspended'], 'terminated');
    },

    async diskUsage(ref, timeoutMs) {
      return withDeadline((async () => {
        // A timeout fault hangs past the deadline, so the caller sees the deadline, as with a real hang.
        await obeyFault(db, 'hosting', 'diskUsage', timeoutMs * 2);
        const account = await liveAccount(ref);
        return { usedMb: diskUsedMb(account, now()) };
      })(), timeoutMs, 'Disk usage');
    },

    async ssoUrl(ref) {
      await fault('ssoUrl');
      const account = await liveAccount(ref);
      if (account.state !== 'active') throw new HostingPanelError('UPSTREAM_ERROR', `Hosting account ${ref} is ${account.state}; it cannot log in`, false);
      const server = await findPanelServer(db, account.server_id);
      const token = randomBytes(24).toString('base64url');
      const expiresAt = await insertSsoSession(db, token, account.id, SSO_TTL_S);
      // cPanel's shape: a session path and the one-time token in the query.
      const url = `https://${server!.hostname}:2083/cpsess${randomInt(1e9, 1e10 - 1)}/login/?session=${encodeURIComponent(`${account.username}:${token}`)}`;
      return { url, expiresAt };
    },

    async listServers() {
      await fault('listServers');
      return (await listPanelServerUsage(db)).map((s) => ({ hostname: s.hostname, locationId: s.location_id, capacity: s.capacity, accounts: s.accounts }));
    },

    async siteInfo(ref) {
      await fault('siteInfo');
      const account = await liveAccount(ref);
      const server = await findPanelServer(db, account.server_id);
      return {
        domain: account.domain, documentRoot: `/home/${account.username}/public_html`,
        sftp: { host: server!.hostname, port: 22, username: account.username }, phpVersion: '8.2',
        siteUrl: `https://${account.domain}/`, usedMb: diskUsedMb(account, now()), quotaMb: account.quota_mb, quotaEnforced: true,
        databases: (await listSimDatabases(db, account.id)).map((name) => ({ name, sizeMb: 0 })), maxDatabases: maxDatabases(account),
      };
    },

    async resetSftpPassword(ref) {
      await fault('resetSftpPassword');
      await liveAccount(ref);
      await sleep(delayMs);
      return newPassword();
    },

    async createDatabase(ref, name) {
      await fault('createDatabase');
      const account = await liveAccount(ref);
      if (!DB_SUFFIX.test(name)) throw new HostingPanelError('UPSTREAM_ERROR', 'A database name is 1–16 lower-case letters and digits', false);
      const full = `${account.username}_${name}`;
      await sleep(delayMs);
      const added = await insertSimDatabase(db, account.id, full, maxDatabases(account));
      if (added === 'exists') throw new HostingPanelError('UPSTREAM_ERROR', `The database ${full} exists already`, false);
      if (added === 'full') {
        throw new HostingPanelError('CAPACITY_UNAVAILABLE', `The package allows ${maxDatabases(account)} database${maxDatabases(account) === 1 ? '' : 's'}; drop one first`, false);
      }
      return { name: full, password: newPassword() };
    },

    async resetDatabasePassword(ref, database) {
      await fault('resetDatabasePassword');
      const account = await liveAccount(ref);
      if (!(await listSimDatabases(db, account.id)).includes(database)) throw new HostingPanelError('UPSTREAM_ERROR', `The account has no database ${database}`, false);
      await sleep(delayMs);
      return newPassword();
    },

    async dropDatabase(ref, database) {
      await fault('dropDatabase');
      const account = await liveAccount(ref);
      await sleep(delayMs);
      await deleteSimDatabase(db, account.id, database);
    },
  };
}
