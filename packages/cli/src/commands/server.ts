import { randomInt } from 'node:crypto';
import { type Command, Option } from 'commander';
import type { Hostcloud, ServerAction, ServerListItem } from '@hostcloud/sdk';
import { CommandFailed, UsageError } from '../errors.js';
import { type Column, money } from '../output.js';
import { findServer, locationId, osId, planId, serverId, sshKeyId } from '../resolve.js';
import { type Runtime, TAKES_SERVER, command, group, positiveInt, waitOptions, yesOption } from '../runtime.js';

const specs = (s: { cpu_cores: number; ram_mb: number; storage_gb: number } | undefined) =>
  (s ? `${s.cpu_cores} vCPU, ${s.ram_mb / 1024} GB, ${s.storage_gb} GB disk` : '-');

/** A list item with its location's code (one catalog call per list, not one per server). */
type Row = ServerListItem & { location_code?: string };

export const SERVER_COLUMNS: Column<Row>[] = [
  { header: 'ID', value: (s) => s.id },
  { header: 'NAME', value: (s) => s.name },
  { header: 'STATUS', value: (s) => s.status },
  { header: 'POWER', value: (s) => s.power_state },
  { header: 'IPV4', value: (s) => s.primary_ip },
  { header: 'LOCATION', value: (s) => s.location_code ?? s.location_id ?? null },
  { header: 'PLAN', value: (s) => s.plan?.name ?? 'custom' },
  { header: 'SPECS', value: (s) => specs(s.specs), wide: true },
  { header: 'PRICE', value: (s) => `${money(s.billing)}/${s.billing.cycle}` },
  { header: 'NEXT BILLING', value: (s) => s.billing.next_billing_at, wide: true },
];

const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SYMBOLS = '-_.+=@%';

/**
 * A root password that meets the API's rule (upper, lower, digit, symbol): 24 characters from
 * crypto's randomness (about 140 bits), without look-alikes (l/1, O/0) or shell-special symbols,
 * so it can be read off a screen and pasted into a shell.
 */
export function generatePassword(length = 24): string {
  const all = LOWER + UPPER + DIGITS + SYMBOLS;
  const chars = [LOWER, UPPER, DIGITS, SYMBOLS].map((set) => set[randomInt(set.length)]!);
  while (chars.length < length) chars.push(all[randomInt(all.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

async function locationCodes(hc: Hostcloud): Promise<Map<number, string>> {
  const codes = new Map<number, string>();
  for await (const l of hc.catalog.locations({ per_page: 100 })) codes.set(l.id, l.code);
  return codes;
}

/** Declares a command whose first argument is a server: completion offers server names for it. */
function serverCommand(parent: Command, spec: string, description: string, examples: string[]): Command {
  const c = command(parent, spec, description, examples);
  TAKES_SERVER.add(c);
  return c;
}

export function serverCommands(program: Command, rt: Runtime): void {
  const server = group(program, 'server', 'Servers: create, list, inspect, power, resize, snapshot, delete', [
    'hc server list',
    'hc server create --name web-1.example.com --plan "Cloud S" --location fra1 --os debian-12 --wait',
    'hc server reboot web-1.example.com --wait',
  ]);

  command(server, 'list', 'List your servers (every page) with their address, location and live power state', [
    'hc server list', 'hc server list -o wide', 'hc server list --columns name,ipv4,power', 'hc server list --status active -o json', 'hc server list --no-header | wc -l',
  ])
    .addOption(new Option('--status <status>', 'only servers in this status').choices(['active', 'suspended', 'pending', 'cancelled']))
    .action(async (opts: { status?: 'active' | 'suspended' | 'pending' | 'cancelled' }, cmd: Command) => {
      const hc = await rt.client(cmd);
      // One request per page carries the live power states, locations and addresses, not one per server.
      const items = hc.servers.list({ per_page: 100, include: 'power_state,location,primary_ip', ...(opts.status ? { status: opts.status } : {}) });
      if (rt.printer(cmd).format !== 'table') return rt.printAll(cmd, items, SERVER_COLUMNS);
      const [codes, rows] = await Promise.all([locationCodes(hc), (async () => {
        const all: Row[] = [];
        for await (const s of items) all.push(s);
        return all;
      })()]);
      await rt.printAll(cmd, (async function* () {
        for (const r of rows) yield { ...r, ...(r.location_id !== undefined && codes.has(r.location_id) ? { location_code: codes.get(r.location_id)! } : {}) };
      })(), SERVER_COLUMNS);
    });

  serverCommand(server, 'get <server>', 'Show a server with its live state (by id or name)', [
    'hc server get web-1.example.com', 'hc server get srv_8fJ2kLmN4pQ7rS1t -o json | jq .network.ipv4.address',
  ])
    .action(async (ref: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.print(cmd, await findServer(hc, ref));
    });

  waitOptions(command(server, 'create', 'Create a server (billable: its first month is charged now)', [
    'hc server create --name web-1.example.com --plan "Cloud S" --location fra1 --os debian-12 --ssh-key laptop --wait',
    'hc server create --name db-1.example.com --plan 3 --location 1 --os 2 --password "$ROOT_PASSWORD" --ssh-key 12 --wait -o json',
    'hc server create --name app.example.com --cpu 2 --ram 4096 --disk 80 --location fra1 --os debian-12 --user-data cloud-init.yaml',
  ]))
    .requiredOption('--name <hostname>', 'host name, e.g. web-1.example.com')
    .option('--plan <plan>', 'a plan by name or id (hc plan list); or --cpu, --ram and --disk')
    .requiredOption('--location <location>', 'a location by code, name or id (hc location list)')
    .option('--os <os>', 'an operating system by slug or id (hc os list)')
    .option('--password <password>', 'root password: 8+ characters with upper and lower case, a digit and a symbol (default: a strong one is generated and shown once)')
    .option('--ssh-key <key>', 'an SSH key of yours to install, by name or id (repeatable; hc ssh-key list)', (v: string, prev: string[] | undefined) => [...(prev ?? []), v])
    .option('--user-data <file>', 'cloud-init user data, read from this file')
    .option('--cpu <n>', 'custom size: vCPUs', positiveInt)
    .option('--ram <mb>', 'custom size: RAM in MB (a multiple of 1024)', positiveInt)
    .option('--disk <gb>', 'custom size: disk in GB', positiveInt)
    .option('--idempotency-key <uuid>', 'send this Idempotency-Key (default: a new one, kept across retries)')
    .action(async (opts: {
      name: string; plan?: string; location: string; os?: string; password?: string; sshKey?: string[]; userData?: string;
      cpu?: number; ram?: number; disk?: number; idempotencyKey?: string;
    }, cmd: Command) => {
      const custom = opts.cpu !== undefined || opts.ram !== undefined || opts.disk !== undefined;
      if (opts.plan === undefined && !custom) throw new UsageError('give --plan, or --cpu, --ram and --disk for a custom size');
      const hc = await rt.client(cmd);
      const [location, plan, os, keys] = await Promise.all([
        locationId(hc, opts.location),
        opts.plan === undefined ? undefined : planId(hc, opts.plan),
        opts.os === undefined ? undefined : osId(hc, opts.os),
        Promise.all((opts.sshKey ?? []).map((k) => sshKeyId(hc, k))),
      ]);
      const generated = opts.password === undefined ? generatePassword() : undefined;
      const body = {
        name: opts.name,
        location_id: location,
        password: opts.password ?? generated!,
        ...(plan !== undefined ? { plan_id: plan } : {}),
        ...(opts.cpu !== undefined ? { cpu_cores: opts.cpu } : {}),
        ...(opts.ram !== undefined ? { ram_mb: opts.ram } : {}),
        ...(opts.disk !== undefined ? { storage_gb: opts.disk } : {}),
        ...(os !== undefined ? { os_version_id: os } : {}),
        ...(keys.length ? { ssh_key_ids: keys } : {}),
        // Sent only when asked for: a server without cloud-init support refuses the field (422).
        ...(opts.userData !== undefined ? { user_data: await rt.io.readFile(opts.userData) } : {}),
      };
      const created = await hc.servers.create(body, opts.idempotencyKey ? { idempotencyKey: opts.idempotencyKey } : {});
      // Shown once, never kept: on stderr beside a table (so that `> file` does not catch it
      // unawares), inside the JSON/YAML a script reads otherwise.
      const table = rt.printer(cmd).format === 'table';
      if (generated && table) rt.io.stderr(`root password (generated, shown only now): ${generated}\n`);
      const withPassword = <T extends object>(data: T) => (generated && !table ? { ...data, root_password: generated } : data);
      await rt.finish(cmd, withPassword(created), created.operation, async () => withPassword(await hc.servers.get(created.id)));
    });

  yesOption(serverCommand(server, 'delete <server>', 'Delete a server (asks first); the unused part of its cycle is refunded', [
    'hc server delete web-1.example.com', 'hc server delete srv_8fJ2kLmN4pQ7rS1t --yes -o json | jq .refund',
  ]))
    .action(async (ref: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      const target = await findServer(hc, ref);
      await rt.confirm(cmd, `Delete server ${target.name} (${target.id})? Its disk and snapshots are destroyed.`);
      await rt.print(cmd, await hc.servers.delete(target.id));
    });

  serverCommand(server, 'ssh <server> [args...]', 'Open an SSH session to a server: ssh root@<its primary address>, with any further arguments passed to ssh', [
    'hc server ssh web-1.example.com', 'hc server ssh web-1.example.com -- uptime', 'hc server ssh srv_8fJ2kLmN4pQ7rS1t --user deploy -- -i ~/.ssh/deploy',
  ])
    .option('--user <user>', 'the user to log in as', 'root')
    .option('--ipv6', 'use the primary IPv6 address')
    .action(async (ref: string, args: string[], opts: { user: string; ipv6?: boolean }, cmd: Command) => {
      const hc = await rt.client(cmd);
      const target = await findServer(hc, ref);
      const address = opts.ipv6 ? target.network.ipv6?.address : target.network.ipv4?.address;
      if (!address) throw new CommandFailed(`server ${target.name} has no ${opts.ipv6 ? 'IPv6' : 'IPv4'} address yet (status ${target.status})`);
      const code = await rt.io.exec('ssh', [`${opts.user}@${address}`, ...args]);
      if (code !== 0) throw new CommandFailed(`ssh exited with ${code}`);
    });

  const power: [ServerAction, string][] = [['start', 'Start a stopped server'], ['stop', 'Stop a running server'], ['reboot', 'Reboot a running server']];
  for (const [verb, description] of power) {
    waitOptions(serverCommand(server, `${verb} <server>`, description, [`hc server ${verb} web-1.example.com`, `hc server ${verb} srv_8fJ2kLmN4pQ7rS1t --wait`]))
      .action(async (ref: string, _opts: unknown, cmd: Command) => {
        const hc = await rt.client(cmd);
        const id = await serverId(hc, ref);
        const answer = await hc.servers.action(id, verb);
        await rt.finish(cmd, answer, answer.operation, () => hc.servers.get(id));
      });
  }

  waitOptions(serverCommand(server, 'resize <server>', 'Resize a server (billable: the growth, prorated); disks only grow', [
    'hc server resize srv_8fJ2kLmN4pQ7rS1t --ram 8 --wait',
    'hc server resize srv_8fJ2kLmN4pQ7rS1t --cpu 4 --disk 160',
  ]))
    .option('--cpu <n>', 'vCPUs (custom servers only)', positiveInt)
    .option('--ram <gb>', 'RAM in GB', positiveInt)
    .option('--disk <gb>', 'disk in GB (only grows)', positiveInt)
    .action(async (ref: string, opts: { cpu?: number; ram?: number; disk?: number }, cmd: Command) => {
      if (opts.cpu === undefined && opts.ram === undefined && opts.disk === undefined) throw new UsageError('give at least one of --cpu, --ram, --disk');
      const hc = await rt.client(cmd);
      const id = await serverId(hc, ref);
      const answer = await hc.servers.resize(id, {
        ...(opts.cpu !== undefined ? { cpu: opts.cpu } : {}),
        ...(opts.ram !== undefined ? { ram_gb: opts.ram } : {}),
        ...(opts.disk !== undefined ? { disk_gb: opts.disk } : {}),
      });
      await rt.finish(cmd, answer, answer.operation, () => hc.servers.get(id));
    });

  waitOptions(serverCommand(server, 'snapshot <server>', 'Take a snapshot of a server (billable: a monthly fee while it exists; hc snapshot lists them)', [
    'hc server snapshot web-1.example.com --name before-upgrade --wait',
  ]))
    .requiredOption('--name <name>', 'the snapshot\'s name')
    .action(async (ref: string, opts: { name: string }, cmd: Command) => {
      const hc = await rt.client(cmd);
      const id = await serverId(hc, ref);
      const snap = await hc.servers.createSnapshot(id, { name: opts.name });
      await rt.finish(cmd, snap, snap.operation, async () => {
        for await (const s of hc.servers.listSnapshots(id, { per_page: 100 })) if (s.id === snap.id) return s;
        return snap;
      });
    });

  serverCommand(server, 'console <server>', 'Print a single-use web console URL (valid 300 s)', ['hc server console web-1.example.com', 'xdg-open "$(hc server console srv_8fJ2kLmN4pQ7rS1t -o json | jq -r .viewer_url)"'])
    .action(async (ref: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      const id = await serverId(hc, ref);
      const session = await hc.servers.console(id);
      const p = rt.printer(cmd);
      if (p.format === 'table') p.write(`${session.viewer_url}\n`);
      else await rt.print(cmd, session);
    });
}
