// The sandbox's hosting panel: no I/O at all, an immediate plausible answer, never an error. Its
// hosts are under .invalid (RFC 2606), so a sandbox answer can never be mistaken for a real panel.
import { randomBytes } from 'node:crypto';
import type { HostingPanel } from './types.ts';
import { deriveUsername } from './username.ts';

const HOST = 'panel.sandbox.invalid';
/** What a test key's password reset answers: plainly not a password anything accepts. */
const SANDBOX_PASSWORD = 'sandbox-password-not-set';

export const noopPanel: HostingPanel = {
  async createAccount(req) {
    return { ref: `noop-${randomBytes(8).toString('hex')}`, username: deriveUsername(req.domain, () => false), serverHostname: HOST };
  },
  async findAccount() {
    return null;
  },
  async suspend() {},
  async unsuspend() {},
  async terminate() {},
  async diskUsage() {
    return { usedMb: 0 };
  },
  async ssoUrl() {
    return { url: `https://${HOST}/login`, expiresAt: new Date(Date.now() + 60_000) };
  },
  async listServers() {
    return [{ hostname: HOST, locationId: null, capacity: 1, accounts: 0 }];
  },
  async siteInfo() {
    return {
      domain: 'example.invalid', documentRoot: '/home/sandbox/public_html', sftp: { host: HOST, port: 22, username: 'sandbox' },
      phpVersion: '8.2', siteUrl: 'https://example.invalid/', usedMb: 0, quotaMb: 0, quotaEnforced: false, databases: [], maxDatabases: 1,
    };
  },
  async resetSftpPassword() {
    return SANDBOX_PASSWORD;
  },
  async createDatabase(_ref, name) {
    return { name: `sandbox_${name}`, password: SANDBOX_PASSWORD };
  },
  async resetDatabasePassword() {
    return SANDBOX_PASSWORD;
  },
  async dropDatabase() {},
};
