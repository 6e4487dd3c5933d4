// The firewall every new machine starts with, whatever the platform: SSH, web and ping from
// anywhere, everything else inbound dropped — per address family the machine has. Written with the
// machine's record in the create's own transaction (db/queries/machine-reservation.ts); here, below
// the core and the drivers, because both write it (a simulated machine made without a reservation).
import type { SimFirewallRuleValue as FirewallRule } from './schema.ts';

export function defaultFirewall(ipv6: boolean): FirewallRule[] {
  const rules: Omit<FirewallRule, 'position'>[] = [];
  for (const source of ipv6 ? ['0.0.0.0/0', '::/0'] : ['0.0.0.0/0']) {
    for (const port of ['22', '80', '443']) rules.push({ direction: 'inbound', protocol: 'tcp', port, source, action: 'accept' });
    rules.push({ direction: 'inbound', protocol: 'icmp', port: null, source, action: 'accept' });
  }
  for (const source of ipv6 ? ['0.0.0.0/0', '::/0'] : ['0.0.0.0/0']) {
    rules.push({ direction: 'inbound', protocol: 'any', port: null, source, action: 'drop' });
  }
  return rules.map((r, i) => ({ ...r, position: i + 1 }));
}
