import { type Command, Option } from 'commander';
import type { ServerAction, ServerListItem } from '@hostcloud/sdk';
import { UsageError } from '../errors.js';
import { money } from '../output.js';
import { type Runtime, collect, command, group, positiveInt, waitOptions } from '../runtime.js';

const specs = (s: { cpu_cores: number; ram_mb: number; storage_gb: number } | undefined) =>
  (s ? `${s.cpu_cores} vCPU, ${s.ram_mb / 1024} GB, ${s.storage_gb} GB disk` : '-');

export const SERVER_COLUMNS = [
  { header: 'ID', value: (s: ServerListItem) => s.id },
  { header: 'NAME', value: (s: ServerListItem) => s.name },
  { header: 'STATUS', value: (s: ServerListItem) => s.status },
  { header: 'PLAN', value: (s: ServerListItem) => s.plan?.name },
  { header: 'SPECS', value: (s: ServerListItem) => specs(s.specs) },
  { header: 'PRICE', value: (s: ServerListItem) => `${money(s.billing)}/${s.billing.cycle}` },
];

export function serverCommands(program: Command, rt: Runtime): void {
  const server = group(program, 'server', 'Servers: create, list, inspect, power, resize, snapshot, delete', [
    'hc server list',
    'hc server create --name web-1.example.com --plan 2 --location 1 --os 1 --password "$ROOT_PASSWORD" --wait',
    'hc server reboot srv_8fJ2kLmN4pQ7rS1t --wait',
  ]);

  command(server, 'list', 'List your servers (every page)', ['hc server list', 'hc server list --status active -o json', 'hc server list --no-header | wc -l'])
    .addOption(new Option('--status <status>', 'only servers in this status').choices(['active', 'suspended', 'pending', 'cancelled']))
    .action(async (opts: { status?: 'active' | 'suspended' | 'pending' | 'cancelled' }, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.printAll(cmd, hc.servers.list({ per_page: 100, ...(opts.status ? { status: opts.status } : {}) }), SERVER_COLUMNS);
    });

  command(server, 'get <id>', 'Show a server with its live state', ['hc server get srv_8fJ2kLmN4pQ7rS1t', 'hc server get srv_8fJ2kLmN4pQ7rS1t -o json | jq .network.ipv4.address'])
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.print(cmd, await hc.servers.get(id));
    });

  waitOptions(command(server, 'create', 'Create a server (billable: its first month is charged now)', [
    'hc server create --name web-1.example.com --plan 2 --location 1 --os 1 --password "$ROOT_PASSWORD"',
    'hc server create --name db-1.example.com --plan 3 --location 1 --os 2 --password "$ROOT_PASSWORD" --ssh-key 12 --wait -o json',
    'hc server create --name app.example.com --cpu 2 --ram 4096 --disk 80 --location 1 --os 1 --password "$ROOT_PASSWORD" --user-data cloud-init.yaml',
  ]))
    .requiredOption('--name <hostname>', 'host name, e.g. web-1.example.com')
    .option('--plan <id>', 'a plan (hc plan list); or --cpu, --ram and --disk', positiveInt)
    .requiredOption('--location <id>', 'a location (hc location list)', positiveInt)
    .option('--os <id>', 'an operating system (hc os list)', positiveInt)
    .requiredOption('--password <password>', 'root password: 8+ characters with upper and lower case, a digit and a symbol')
    .option('--ssh-key <id>', 'an SSH key of yours to install (repeatable; hc ssh-key list)', collect(positiveInt))
    .option('--user-data <file>', 'cloud-init user data, read from this file')
    .option('--cpu <n>', 'custom size: vCPUs', positiveInt)
    .option('--ram <mb>', 'custom size: RAM in MB (a multiple of 1024)', positiveInt)
    .option('--disk <gb>', 'custom size: disk in GB', positiveInt)
    .option('--idempotency-key <uuid>', 'send this Idempotency-Key (default: a new one, kept across retries)')
    .action(async (opts: {
      name: string; plan?: number; location: number; os?: number; password: string; sshKey?: number[]; userData?: string;
      cpu?: number; ram?: number; disk?: number; idempotencyKey?: string;
    }, cmd: Command) => {
      const custom = opts.cpu !== undefined || opts.ram !== undefined || opts.disk !== undefined;
      if (opts.plan === undefined && !custom) throw new UsageError('give --plan, or --cpu, --ram and --disk for a custom size');
      const body = {
        name: opts.name,
        location_id: opts.location,
        password: opts.password,
        ...(opts.plan !== undefined ? { plan_id: opts.plan } : {}),
        ...(opts.cpu !== undefined ? { cpu_cores: opts.cpu } : {}),
        ...(opts.ram !== undefined ? { ram_mb: opts.ram } : {}),
        ...(opts.disk !== undefined ? { storage_gb: opts.disk } : {}),
        ...(opts.os !== undefined ? { os_version_id: opts.os } : {}),
        ...(opts.sshKey ? { ssh_key_ids: opts.sshKey } : {}),
        // Sent only when asked for: a server without cloud-init support refuses the field (422).
        ...(opts.userData !== undefined ? { user_data: await rt.io.readFile(opts.userData) } : {}),
      };
      const hc = await rt.client(cmd);
      const created = await hc.servers.create(body, opts.idempotencyKey ? { idempotencyKey: opts.idempotencyKey } : {});
      await rt.finish(cmd, created, created.operation, () => hc.servers.get(created.id));
    });

  command(server, 'delete <id>', 'Delete a server; the unused part of its cycle is refunded', ['hc server delete srv_8fJ2kLmN4pQ7rS1t', 'hc server delete srv_8fJ2kLmN4pQ7rS1t -o json | jq .refund'])
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.print(cmd, await hc.servers.delete(id));
    });

  const power: [ServerAction, string][] = [['start', 'Start a stopped server'], ['stop', 'Stop a running server'], ['reboot', 'Reboot a running server']];
  for (const [verb, description] of power) {
    waitOptions(command(server, `${verb} <id>`, description, [`hc server ${verb} srv_8fJ2kLmN4pQ7rS1t`, `hc server ${verb} srv_8fJ2kLmN4pQ7rS1t --wait`]))
      .action(async (id: string, _opts: unknown, cmd: Command) => {
        const hc = await rt.client(cmd);
        const answer = await hc.servers.action(id, verb);
        await rt.finish(cmd, answer, answer.operation, () => hc.servers.get(id));
      });
  }

  waitOptions(command(server, 'resize <id>', 'Resize a server (billable: the growth, prorated); disks only grow', [
    'hc server resize srv_8fJ2kLmN4pQ7rS1t --ram 8 --wait',
    'hc server resize srv_8fJ2kLmN4pQ7rS1t --cpu 4 --disk 160',
  ]))
    .option('--cpu <n>', 'vCPUs (custom servers only)', positiveInt)
    .option('--ram <gb>', 'RAM in GB', positiveInt)
    .option('--disk <gb>', 'disk in GB (only grows)', positiveInt)
    .action(async (id: string, opts: { cpu?: number; ram?: number; disk?: number }, cmd: Command) => {
      if (opts.cpu === undefined && opts.ram === undefined && opts.disk === undefined) throw new UsageError('give at least one of --cpu, --ram, --disk');
      const hc = await rt.client(cmd);
      const answer = await hc.servers.resize(id, {
        ...(opts.cpu !== undefined ? { cpu: opts.cpu } : {}),
        ...(opts.ram !== undefined ? { ram_gb: opts.ram } : {}),
        ...(opts.disk !== undefined ? { disk_gb: opts.disk } : {}),
      });
      await rt.finish(cmd, answer, answer.operation, () => hc.servers.get(id));
    });

  waitOptions(command(server, 'snapshot <id>', 'Take a snapshot of a server (billable: a monthly fee while it exists)', [
    'hc server snapshot srv_8fJ2kLmN4pQ7rS1t --name before-upgrade --wait',
  ]))
    .requiredOption('--name <name>', 'the snapshot\'s name')
    .action(async (id: string, opts: { name: string }, cmd: Command) => {
      const hc = await rt.client(cmd);
      const snap = await hc.servers.createSnapshot(id, { name: opts.name });
      await rt.finish(cmd, snap, snap.operation, async () => {
        for await (const s of hc.servers.listSnapshots(id, { per_page: 100 })) if (s.id === snap.id) return s;
        return snap;
      });
    });

  command(server, 'console <id>', 'Print a single-use web console URL (valid 300 s)', ['hc server console srv_8fJ2kLmN4pQ7rS1t', 'xdg-open "$(hc server console srv_8fJ2kLmN4pQ7rS1t -o json | jq -r .viewer_url)"'])
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      const session = await hc.servers.console(id);
      const p = rt.printer(cmd);
      if (p.format === 'table') p.write(`${session.viewer_url}\n`);
      else await rt.print(cmd, session);
    });
}
