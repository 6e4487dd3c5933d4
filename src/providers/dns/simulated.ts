// DNS_DRIVER=simulated (the default): the zones live in Hostcloud's database only, answered by no
// nameserver. The pusher still runs, so serials and `synced_at` behave as with a real provider.
import type { DnsProvider } from './types.ts';

export function createSimulatedDns(): DnsProvider {
  return {
    name: 'simulated',
    async putZone() {},
    async patchZone() {},
    async deleteZone() {},
  };
}
