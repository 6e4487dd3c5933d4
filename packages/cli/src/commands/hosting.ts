import { type Command, Option } from 'commander';
import type { WebHosting } from '@hostcloud/sdk';
import { money } from '../output.js';
import { type Runtime, command, group, positiveInt, waitOptions } from '../runtime.js';

const COLUMNS = [
  { header: 'ID', value: (h: WebHosting) => h.id },
  { header: 'DOMAIN', value: (h: WebHosting) => h.domain },
  { header: 'STATUS', value: (h: WebHosting) => h.status },
  { header: 'PLAN', value: (h: WebHosting) => h.plan?.name },
  { header: 'PRICE', value: (h: WebHosting) => `${money(h.billing)}/${h.billing.cycle}` },
];

export function hostingCommands(program: Command, rt: Runtime): void {
  const hosting = group(program, 'hosting', 'Web hosting accounts: order, list, renew, cancel, log in to the control panel', [
    'hc hosting packages',
    'hc hosting create --domain example.com --package 1 --wait',
    'hc hosting login wh_5Tq2Lm8Nk3Pr6Sx1',
  ]);

  command(hosting, 'list', 'List your web hosting accounts (every page)', ['hc hosting list', 'hc hosting list --status active -o json'])
    .addOption(new Option('--status <status>', 'only accounts in this status').choices(['active', 'suspended', 'cancelled']))
    .action(async (opts: { status?: 'active' | 'suspended' | 'cancelled' }, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.printAll(cmd, hc.webHosting.list({ per_page: 100, ...(opts.status ? { status: opts.status } : {}) }), COLUMNS);
    });

  command(hosting, 'get <id>', 'Show a web hosting account with its disk usage', ['hc hosting get wh_5Tq2Lm8Nk3Pr6Sx1'])
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.print(cmd, await hc.webHosting.get(id));
    });

  command(hosting, 'packages', 'List the web hosting packages you can order', ['hc hosting packages', 'hc hosting packages -o json'])
    .action(async (_opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.printAll(cmd, hc.webHosting.packages({ per_page: 100 }), [
        { header: 'ID', value: (p) => p.id },
        { header: 'NAME', value: (p) => p.name },
        { header: 'MONTHLY', value: (p) => money(p.price.monthly) },
        { header: 'YEARLY', value: (p) => money(p.price.yearly) },
        { header: 'DISK MB', value: (p) => p.disk_quota_mb },
      ]);
    });

  waitOptions(command(hosting, 'create', 'Order a web hosting account (billable: its first cycle)', [
    'hc hosting create --domain example.com --package 1',
    'hc hosting create --domain example.com --package 2 --cycle yearly --wait -o json',
  ]))
    .requiredOption('--domain <domain>', 'the site\'s domain')
    .requiredOption('--package <id>', 'a package (hc hosting packages)', positiveInt)
    .addOption(new Option('--cycle <cycle>', 'billing cycle').choices(['monthly', 'yearly']).default('monthly'))
    .option('--idempotency-key <uuid>', 'send this Idempotency-Key (default: a new one, kept across retries)')
    .action(async (opts: { domain: string; package: number; cycle: 'monthly' | 'yearly'; idempotencyKey?: string }, cmd: Command) => {
      const hc = await rt.client(cmd);
      const created = await hc.webHosting.create({ domain: opts.domain, package_id: opts.package, billing_cycle: opts.cycle }, opts.idempotencyKey ? { idempotencyKey: opts.idempotencyKey } : {});
      await rt.finish(cmd, created, created.operation, () => hc.webHosting.get(created.id));
    });

  command(hosting, 'renew <id>', 'Renew an active account by one cycle (billable)', ['hc hosting renew wh_5Tq2Lm8Nk3Pr6Sx1'])
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.print(cmd, await hc.webHosting.renew(id));
    });

  command(hosting, 'cancel <id>', 'Cancel an account (its panel account is terminated)', ['hc hosting cancel wh_5Tq2Lm8Nk3Pr6Sx1 --reason "moved away"', 'hc hosting cancel wh_5Tq2Lm8Nk3Pr6Sx1 --refund --send-email'])
    .option('--refund', 'refund the last charged cycle in full')
    .option('--send-email', 'e-mail a cancellation notice')
    .option('--reason <text>', 'why (kept with the account)')
    .action(async (id: string, opts: { refund?: boolean; sendEmail?: boolean; reason?: string }, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.print(cmd, await hc.webHosting.cancel(id, {
        ...(opts.refund ? { refund: true } : {}),
        ...(opts.sendEmail ? { send_email: true } : {}),
        ...(opts.reason ? { reason: opts.reason } : {}),
      }));
    });

  command(hosting, 'login <id>', 'Print a single-use control-panel login URL', ['hc hosting login wh_5Tq2Lm8Nk3Pr6Sx1'])
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      const login = await hc.webHosting.login(id);
      const p = rt.printer(cmd);
      if (p.format === 'table' && 'login_url' in login) p.write(`${String(login.login_url)}\n`);
      else await rt.print(cmd, login);
    });
}
