// DNS_DRIVER=off, and the sandbox's: nothing is served, every call succeeds at once.
import type { DnsProvider } from './types.ts';

export const noopDns: DnsProvider = {
  name: 'off',
  async putZone() {},
  async patchZone() {},
  async deleteZone() {},
};
