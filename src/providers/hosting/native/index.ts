// The native hosting driver (HOSTING_DRIVER=native): a web-hosting account is a real account on a
// hosting node, a Debian machine reached over SSH — a Linux user chrooted to SFTP, a home under
// the node's hosting root with public_html, an nginx server block, its own PHP-FPM pool and a
// MariaDB database (remote.ts says how). Our record of each account is hosting_node_accounts; its
// id is the HostingPanel `ref`. Placement: an enabled node with a free place and disk for the
// package, the most free places first (lowest id on a tie), in one transaction that locks the
// nodes, so two orders never take the last place twice. A retried create (same request token)
// finds its row and runs the steps again: each finds what the last attempt made.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../../db/connection.ts';
import {
  findHostingNode, findNodeAccount, findNodeAccountByToken, insertNodeAccount, listHostingNodes, lockEnabledHostingNodes, nodeDomainTaken,
  nodeUsernames, setNodeAccountState, type HostingNodeUsage,
} from '../../../db/queries/hosting-nodes.ts';
import type { HostingNodeAccount } from '../../../db/schema.ts';
import {
  type CreateAccountRequest, type HostingNodeTools, type HostingPanel, HostingPanelError, type PanelAccount,
} from '../types.ts';
import { USERNAME_MAX, deriveFromBase, usernameBase } from '../username.ts';
import { configProblem, nodeConfig } from './node-config.ts';
import { probeNode } from './probe.ts';
import { safeDomain } from './shell.ts';
import * as remote from './remote.ts';
import { type SshSession, type SshTarget, connect, loadOrCreateKey } from './ssh.ts';

export interface NativePanelOptions {
  db: Db;
  /** HOSTING_SSH_KEY: made at first use. */
  keyFile: string;
  /** Where this API is reached: the hosting page's links. */
  publicUrl: string;
  /** Tests only: called before each provisioning step with its name and the open session. */
  beforeStep?: (step: string, ssh: SshSession) => Promise<void> | void;
}

const SYSTEM_NAMES = new Set(['root', 'admin', 'www', 'www-data', 'mysql', 'nginx', 'sshd', 'nobody', 'hostcloud', 'test']);
const DB_SUFFIX = /^[a-z0-9]{1,16}$/;

const newRef = () => `na-${randomBytes(8).toString('hex')}`;

function targetOf(node: HostingNodeUsage): SshTarget {
  return { name: node.name, host: node.host, port: node.port, user: node.ssh_user, hostKey: node.host_key };
}

export function createNativePanel(opts: NativePanelOptions): HostingPanel & HostingNodeTools {
  const { db } = opts;
  let key: Promise<{ privateKey: string; publicKey: string }> | null = null;
  const keys = () => {
    key ??= loadOrCreateKey(opts.keyFile).catch((e: unknown) => {
      key = null;
      throw e;
    });
    return key;
  };

  async function withNode<T>(node: HostingNodeUsage, fn: (n: remote.NodeContext) => Promise<T>): Promise<T> {
    const config = nodeConfig(node.config);
    const ssh = await connect(targetOf(node), (await keys()).privateKey);
    try {
      return await fn({ ssh, config, httpPort: node.http_port, nodeName: node.name });
    } finally {
      ssh.close();
    }
  }

  async function nodeOf(account: HostingNodeAccount): Promise<HostingNodeUsage> {
    const node = await findHostingNode(db, account.node_id);
    if (!node) throw new HostingPanelError('UPSTREAM_ERROR', `Hosting node ${account.node_id} of account ${account.id} is gone`, false);
    return node;
  }

  async function liveAccount(ref: string): Promise<HostingNodeAccount> {
    const a = await findNodeAccount(db, ref);
    if (!a || a.state === 'terminated') throw new HostingPanelError('UPSTREAM_ERROR', `Hosting account ${ref} does not exist`, false);
    return a;
  }

  const hasRoom = (n: HostingNodeUsage, quotaMb: number) => n.status === 'enabled' && n.missing.length === 0
    && n.accounts < n.max_accounts && (n.disk_free_mb === null || n.disk_free_mb >= quotaMb);

  /** The roomiest node's row for the new account, in one locking transaction (`systemNames`: the node's own users). */
  async function place(req: CreateAccountRequest, node: HostingNodeUsage, systemNames: Set<string>): Promise<HostingNodeAccount> {
    return db.transaction().execute(async (trx) => {
      await lockEnabledHostingNodes(trx);
      const twin = await findNodeAccountByToken(trx, req.token);
      if (twin) return twin;
      // A cancelled account for the same domain may still be on its way out: worth retrying later.
      if (await nodeDomainTaken(trx, req.domain)) throw new HostingPanelError('UPSTREAM_ERROR', `A hosting node already has an account for ${req.domain}`);
      const fresh = await findHostingNode(trx, node.id);
      if (!fresh || !hasRoom(fresh, req.package.quotaMb)) throw new HostingPanelError('UPSTREAM_ERROR', `Hosting node ${node.name} filled up meanwhile`);
      const c = nodeConfig(fresh.config);
      const base = (c.user_prefix + usernameBase(req.domain)).slice(0, USERNAME_MAX);
      const taken = new Set(await nodeUsernames(trx, node.id, base.slice(0, 8)));
      const username = deriveFromBase(base, (u) => taken.has(u) || systemNames.has(u) || SYSTEM_NAMES.has(u));
      return insertNodeAccount(trx, {
        id: newRef(), node_id: node.id, request_token: req.token, username, domain: req.domain, quota_mb: req.package.quotaMb,
        max_databases: Math.max(1, req.package.maxDomains),
      });
    });
  }

  async function chooseNode(quotaMb: number): Promise<HostingNodeUsage> {
    const nodes = (await listHostingNodes(db)).filter((n) => hasRoom(n, quotaMb));
    nodes.sort((a, b) => (b.max_accounts - b.accounts) - (a.max_accounts - a.accounts) || a.id - b.id);
    if (!nodes[0]) throw new HostingPanelError('CAPACITY_UNAVAILABLE', 'No enabled hosting node has room for the account', false);
    return nodes[0];
  }

  const step = async (ssh: SshSession, name: string) => {
    if (opts.beforeStep) await opts.beforeStep(name, ssh);
  };

  return {
    async createAccount(req, progress): Promise<PanelAccount> {
      safeDomain(req.domain);
      await progress(10, 'Choosing a hosting node');
      let account = await findNodeAccountByToken(db, req.token);
      if (account?.state === 'terminated') throw new HostingPanelError('UPSTREAM_ERROR', `The account of request ${req.token} was removed`, false);
      const node = account ? await nodeOf(account) : await chooseNode(req.package.quotaMb);
      return withNode(node, async (n) => {
        if (!account) account = await place(req, node, await remote.nodeUserNames(n));
        const { username: user, domain } = account;
        await progress(20, `Creating the user ${user} on ${node.name}`);
        await step(n.ssh, 'user');
        await remote.createUser(n, user);
        await step(n.ssh, 'home');
        await remote.makeHome(n, user, domain);
        const enforced = await remote.setQuota(n, user, account.quota_mb);
        await progress(50, 'Configuring PHP and nginx');
        await step(n.ssh, 'site');
        await remote.writeServing(n, user, domain);
        await progress(80, 'Creating the database');
        await step(n.ssh, 'database');
        await remote.createDatabase(n, user, remote.mainDatabase(user));
        await setNodeAccountState(db, account.id, 'active', { quota_enforced: enforced });
        return { ref: account.id, username: user, serverHostname: node.name };
      });
    },

    async findAccount(token) {
      const a = await findNodeAccountByToken(db, token);
      return a && a.state !== 'terminated' ? a.id : null;
    },

    async suspend(ref) {
      const a = await liveAccount(ref);
      await withNode(await nodeOf(a), (n) => remote.suspendAccount(n, a.username, a.domain));
      await setNodeAccountState(db, a.id, 'suspended');
    },

    async unsuspend(ref) {
      const a = await liveAccount(ref);
      await withNode(await nodeOf(a), (n) => remote.resumeAccount(n, a.username, a.domain));
      await setNodeAccountState(db, a.id, 'active');
    },

    async terminate(ref) {
      const a = await findNodeAccount(db, ref);
      if (!a || a.state === 'terminated') return;
      await withNode(await nodeOf(a), (n) => remote.removeAccount(n, a.username));
      await setNodeAccountState(db, a.id, 'terminated');
    },

    async diskUsage(ref) {
      const a = await liveAccount(ref);
      return { usedMb: await withNode(await nodeOf(a), (n) => remote.diskUsedMb(n, a.username)) };
    },

    async ssoUrl(ref) {
      await liveAccount(ref);
      return { url: `${opts.publicUrl}/panel/web-hosting`, expiresAt: new Date(Date.now() + 300_000) };
    },

    async listServers() {
      return (await listHostingNodes(db)).filter((n) => n.status === 'enabled' && n.missing.length === 0)
        .map((n) => ({ hostname: n.name, locationId: n.location_id, capacity: n.max_accounts, accounts: n.accounts }));
    },

    async sshPublicKey() {
      return (await keys()).publicKey;
    },

    nodeConfigProblem: configProblem,

    async inspectNode(target, timeoutMs) {
      const config = nodeConfig(target.config);
      const ssh = await connect({ name: target.name, host: target.host, port: target.port, user: target.user, hostKey: target.hostKey }, (await keys()).privateKey, timeoutMs);
      try {
        return { hostKey: ssh.hostKey, ...(await probeNode(ssh, config)) };
      } finally {
        ssh.close();
      }
    },

    async siteInfo(ref) {
      const a = await liveAccount(ref);
      const node = await nodeOf(a);
      const c = nodeConfig(node.config);
      const { usedMb, databases } = await withNode(node, async (n) => ({
        usedMb: await remote.diskUsedMb(n, a.username), databases: await remote.listDatabases(n, a.username),
      }));
      return {
        domain: a.domain, documentRoot: `${c.hosting_root}/${a.username}/public_html`,
        sftp: { host: node.host, port: node.port, username: a.username }, phpVersion: c.php_version,
        siteUrl: `http://${a.domain}${node.http_port === 80 ? '' : `:${node.http_port}`}/`,
        usedMb, quotaMb: a.quota_mb, quotaEnforced: a.quota_enforced, databases, maxDatabases: a.max_databases,
      };
    },

    async resetSftpPassword(ref) {
      const a = await liveAccount(ref);
      const password = remote.randomPassword();
      await withNode(await nodeOf(a), (n) => remote.setSftpPassword(n, a.username, password));
      return password;
    },

    async createDatabase(ref, name) {
      const a = await liveAccount(ref);
      if (!DB_SUFFIX.test(name)) throw new HostingPanelError('UPSTREAM_ERROR', 'A database name is 1–16 lower-case letters and digits', false);
      const db = `${a.username}_${name}`;
      const password = remote.randomPassword();
      await withNode(await nodeOf(a), async (n) => {
        const existing = await remote.listDatabases(n, a.username);
        if (existing.some((d) => d.name === db)) throw new HostingPanelError('UPSTREAM_ERROR', `The database ${db} exists already`, false);
        if (existing.length >= a.max_databases) {
          throw new HostingPanelError('CAPACITY_UNAVAILABLE', `The package allows ${a.max_databases} database${a.max_databases === 1 ? '' : 's'}; drop one first`, false);
        }
        await remote.createDatabase(n, a.username, db, password);
      });
      return { name: db, password };
    },

    async resetDatabasePassword(ref, database) {
      const a = await liveAccount(ref);
      const password = remote.randomPassword();
      await withNode(await nodeOf(a), async (n) => {
        if (!(await remote.listDatabases(n, a.username)).some((d) => d.name === database)) {
          throw new HostingPanelError('UPSTREAM_ERROR', `The account has no database ${database}`, false);
        }
        await remote.resetDatabasePassword(n, database, password);
      });
      return password;
    },

    async dropDatabase(ref, database) {
      const a = await liveAccount(ref);
      if (!database.startsWith(`${a.username}_`)) throw new HostingPanelError('UPSTREAM_ERROR', `The account has no database ${database}`, false);
      await withNode(await nodeOf(a), (n) => remote.dropDatabase(n, database));
    },
  };
}
