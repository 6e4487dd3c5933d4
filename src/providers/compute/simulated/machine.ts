// How a simulated machine looks to the caller: its network as ServerNetwork and its extra addresses.
import type { VmLease } from '../../../db/queries/ip-pools.ts';
import type { ServerNetwork, SimVm } from '../../../db/schema.ts';
import type { Machine } from '../types.ts';
import { netmask, parseBlock } from '../../../core/ip-pools/ip-math.ts';

export function machineOf(vm: Pick<SimVm, 'id' | 'ipv4' | 'ipv6'>, leases: VmLease[]): Machine {
  const primary4 = leases.find((l) => l.address === vm.ipv4);
  const primary6 = leases.find((l) => l.address === vm.ipv6);
  const network: ServerNetwork = {
    ipv4: primary4 ? {
      address: primary4.address, gateway: primary4.gateway, netmask: netmask(parseBlock(primary4.cidr)!.prefix), subnet: primary4.cidr,
    } : null,
    ipv6: primary6 ? { address: primary6.address, gateway: primary6.gateway, subnet: primary6.cidr } : null,
  };
  const extraIps = leases.filter((l) => l !== primary4 && l !== primary6).map((l) => ({ address: l.address, version: l.version }));
  return { ref: vm.id, network, extraIps };
}
