import { type Command, Option } from 'commander';
import type { Domain } from '@hostcloud/sdk';
import { type Runtime, collect, command, group, positiveInt, waitOptions } from '../runtime.js';

const COLUMNS = [
  { header: 'ID', value: (d: Domain) => d.id },
  { header: 'DOMAIN', value: (d: Domain) => d.domain },
  { header: 'STATUS', value: (d: Domain) => d.status },
  { header: 'EXPIRES', value: (d: Domain) => d.expires_at },
  { header: 'AUTO-RENEW', value: (d: Domain) => (d.auto_renew ? 'yes' : 'no') },
];

const DOMAIN_STATUSES = ['pending', 'active', 'transfer_pending', 'expired', 'cancelled'] as const;

export function domainCommands(program: Command, rt: Runtime): void {
  const domain = group(program, 'domain', 'Domain names: check, register, list, renew', [
    'hc domain check example.com',
    'hc domain register example.com --years 1 --wait',
    'hc domain list -o yaml',
  ]);

  command(domain, 'check <domain>', 'Is a name available? (free; IDNs are answered in punycode)', ['hc domain check example.com', 'hc domain check bücher.de -o json'])
    .action(async (name: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.print(cmd, await hc.domains.check(name));
    });

  waitOptions(command(domain, 'register <domain>', 'Register a domain (billable: price × years)', [
    'hc domain register example.com --years 2',
    'hc domain register example.com --years 1 --ns ns1.example.net --ns ns2.example.net --privacy --wait',
  ]))
    .addOption(new Option('--years <n>', 'registration years').argParser(positiveInt).default(1))
    .option('--ns <host>', 'a nameserver (repeat: 2 to 13)', collect(String))
    .option('--privacy', 'WHOIS privacy (free, where the TLD supports it)')
    .option('--auto-renew', 'renew automatically before expiry')
    .option('--idempotency-key <uuid>', 'send this Idempotency-Key (default: a new one, kept across retries)')
    .action(async (name: string, opts: { years: number; ns?: string[]; privacy?: boolean; autoRenew?: boolean; idempotencyKey?: string }, cmd: Command) => {
      const hc = await rt.client(cmd);
      const created = await hc.domains.register({
        domain: name,
        years: opts.years,
        ...(opts.ns ? { nameservers: opts.ns } : {}),
        ...(opts.privacy ? { whois_privacy: true } : {}),
        ...(opts.autoRenew ? { auto_renew: true } : {}),
      }, opts.idempotencyKey ? { idempotencyKey: opts.idempotencyKey } : {});
      await rt.finish(cmd, created, created.operation, () => hc.domains.get(created.id));
    });

  command(domain, 'list', 'List your domains (every page)', ['hc domain list', 'hc domain list --status active -o json'])
    .addOption(new Option('--status <status>', 'only domains in this status').choices(DOMAIN_STATUSES))
    .action(async (opts: { status?: (typeof DOMAIN_STATUSES)[number] }, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.printAll(cmd, hc.domains.list({ per_page: 100, ...(opts.status ? { status: opts.status } : {}) }), COLUMNS);
    });

  command(domain, 'get <id>', 'Show a domain', ['hc domain get dom_3Jk8Lq2Mn5Pr7St9'])
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.print(cmd, await hc.domains.get(id));
    });

  command(domain, 'renew <id>', 'Renew a domain (billable: renewal price × years)', ['hc domain renew dom_3Jk8Lq2Mn5Pr7St9', 'hc domain renew dom_3Jk8Lq2Mn5Pr7St9 --years 2 -o json'])
    .addOption(new Option('--years <n>', 'years to add').argParser(positiveInt).default(1))
    .option('--idempotency-key <uuid>', 'send this Idempotency-Key (default: a new one, kept across retries)')
    .action(async (id: string, opts: { years: number; idempotencyKey?: string }, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.print(cmd, await hc.domains.renew(id, { years: opts.years }, opts.idempotencyKey ? { idempotencyKey: opts.idempotencyKey } : {}));
    });
}
