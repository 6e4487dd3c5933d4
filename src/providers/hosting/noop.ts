// The sandbox's hosting panel: no I/O at all, an immediate plausible answer, never an error. Its
// hosts are under .invalid (RFC 2606), so a sandbox answer can never be mistaken for a real panel.
import { randomBytes } from 'node:crypto';
import type { HostingPanel } from './types.ts';
import { deriveUsername } from './username.ts';

const HOST = 'panel.sandbox.invalid';

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
};
