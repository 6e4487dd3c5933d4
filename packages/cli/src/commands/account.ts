// hc balance, hc plan|location|os list, hc ssh-key …: the account and the catalog.
import type { Command } from 'commander';
import { money } from '../output.js';
import { type Runtime, command, group, positiveInt } from '../runtime.js';

export function accountCommands(program: Command, rt: Runtime): void {
  command(program, 'balance', 'Show your balance (with --transactions, the ledger too)', ['hc balance', 'hc balance -o json | jq -r .balance.amount', 'hc balance --transactions'])
    .option('--transactions', 'list the ledger instead, newest first')
    .action(async (opts: { transactions?: boolean }, cmd: Command) => {
      const hc = await rt.client(cmd);
      if (opts.transactions) {
        return rt.printAll(cmd, hc.billing.transactions({ per_page: 100 }), [
          { header: 'ID', value: (t) => t.id },
          { header: 'DATE', value: (t) => t.created_at },
          { header: 'TYPE', value: (t) => t.type },
          { header: 'AMOUNT', value: (t) => money(t.amount) },
          { header: 'DESCRIPTION', value: (t) => t.description },
        ]);
      }
      const b = await hc.billing.balance();
      const p = rt.printer(cmd);
      if (p.format === 'table') p.write(`${money(b.balance)}\n`);
      else await rt.print(cmd, b);
    });

  const plan = group(program, 'plan', 'Server plans', ['hc plan list']);
  command(plan, 'list', 'List the server plans (ids for hc server create --plan)', ['hc plan list', 'hc plan list -o json | jq ".[] | select(.available)"'])
    .action(async (_opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.printAll(cmd, hc.catalog.plans({ per_page: 100 }), [
        { header: 'ID', value: (p) => p.id },
        { header: 'NAME', value: (p) => p.name },
        { header: 'CPU', value: (p) => p.specs.cpu_cores },
        { header: 'RAM MB', value: (p) => p.specs.ram_mb },
        { header: 'DISK GB', value: (p) => p.specs.storage_gb },
        { header: 'MONTHLY', value: (p) => money(p.price) },
        { header: 'AVAILABLE', value: (p) => (p.available ? 'yes' : 'no') },
      ]);
    });

  const location = group(program, 'location', 'Locations', ['hc location list']);
  command(location, 'list', 'List the locations (ids for --location)', ['hc location list'])
    .action(async (_opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.printAll(cmd, hc.catalog.locations({ per_page: 100 }), [
        { header: 'ID', value: (l) => l.id },
        { header: 'NAME', value: (l) => l.name },
        { header: 'CODE', value: (l) => l.code },
        { header: 'COUNTRY', value: (l) => l.country },
      ]);
    });

  const os = group(program, 'os', 'Operating systems', ['hc os list']);
  command(os, 'list', 'List the installable operating systems (ids for --os)', ['hc os list'])
    .action(async (_opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.printAll(cmd, hc.catalog.operatingSystems({ per_page: 100 }), [
        { header: 'ID', value: (o) => o.id },
        { header: 'NAME', value: (o) => o.name },
        { header: 'SLUG', value: (o) => o.slug },
      ]);
    });

  const sshKey = group(program, 'ssh-key', 'SSH keys installed on servers created with them', ['hc ssh-key add --name laptop --public-key-file ~/.ssh/id_ed25519.pub', 'hc ssh-key list']);
  command(sshKey, 'list', 'List your SSH keys', ['hc ssh-key list'])
    .action(async (_opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.printAll(cmd, hc.sshKeys.list({ per_page: 100 }), [
        { header: 'ID', value: (k) => k.id },
        { header: 'NAME', value: (k) => k.name },
        { header: 'FINGERPRINT', value: (k) => k.fingerprint },
      ]);
    });
  command(sshKey, 'add', 'Add a public key', ['hc ssh-key add --name laptop --public-key-file ~/.ssh/id_ed25519.pub'])
    .requiredOption('--name <name>', 'a name for it')
    .requiredOption('--public-key-file <file>', 'the OpenSSH public key file (.pub)')
    .action(async (opts: { name: string; publicKeyFile: string }, cmd: Command) => {
      const hc = await rt.client(cmd);
      const publicKey = (await rt.io.readFile(opts.publicKeyFile)).trim();
      await rt.print(cmd, await hc.sshKeys.create({ name: opts.name, public_key: publicKey }));
    });
  command(sshKey, 'delete', 'Remove a key from the account (not from servers that have it)', ['hc ssh-key delete 12'])
    .argument('<id>', 'the key\'s id', positiveInt)
    .action(async (id: number, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.print(cmd, await hc.sshKeys.delete(id));
    });
}
