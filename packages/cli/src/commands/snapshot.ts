// hc snapshot list|create|restore|delete: a server's snapshots, the server by id or name and the
// snapshot by id or name. Restore and delete cannot be undone: they ask (or need --yes).
import type { Command } from 'commander';
import type { Hostcloud, Snapshot } from '@hostcloud/sdk';
import { UsageError } from '../errors.js';
import { serverId } from '../resolve.js';
import { type Runtime, TAKES_SERVER, command, group, waitOptions, yesOption } from '../runtime.js';

const COLUMNS = [
  { header: 'ID', value: (s: Snapshot) => s.id },
  { header: 'NAME', value: (s: Snapshot) => s.name },
  { header: 'STATUS', value: (s: Snapshot) => s.status },
  { header: 'SIZE GB', value: (s: Snapshot) => s.size_gb },
  { header: 'CREATED', value: (s: Snapshot) => s.created_at },
];

async function findSnapshot(hc: Hostcloud, server: string, ref: string): Promise<Snapshot> {
  const all: Snapshot[] = [];
  for await (const s of hc.servers.listSnapshots(server, { per_page: 100 })) all.push(s);
  const found = /^\d+$/.test(ref) ? all.filter((s) => s.id === Number(ref)) : all.filter((s) => s.name.toLowerCase() === ref.toLowerCase());
  if (found.length === 1) return found[0]!;
  const listed = (found.length ? found : all).map((s) => `  ${s.id}  ${s.name}  ${s.created_at}`).join('\n');
  if (found.length > 1) throw new UsageError(`${found.length} snapshots are named "${ref}": give an id\n${listed}`);
  throw new UsageError(`no snapshot "${ref}" on server ${server}${listed ? `; it has:\n${listed}` : ' (it has none)'}`);
}

function onServer(parent: Command, spec: string, description: string, examples: string[]): Command {
  const c = command(parent, spec, description, examples);
  TAKES_SERVER.add(c);
  return c;
}

export function snapshotCommands(program: Command, rt: Runtime): void {
  const snapshot = group(program, 'snapshot', 'A server\'s snapshots: list, take, restore, delete', [
    'hc snapshot list web-1.example.com',
    'hc snapshot create web-1.example.com --name before-upgrade --wait',
    'hc snapshot restore web-1.example.com before-upgrade --wait',
  ]);

  onServer(snapshot, 'list <server>', 'List a server\'s snapshots', ['hc snapshot list web-1.example.com', 'hc snapshot list srv_8fJ2kLmN4pQ7rS1t -o json'])
    .action(async (ref: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.printAll(cmd, hc.servers.listSnapshots(await serverId(hc, ref), { per_page: 100 }), COLUMNS);
    });

  waitOptions(onServer(snapshot, 'create <server>', 'Take a snapshot (billable: a monthly fee while it exists)', ['hc snapshot create web-1.example.com --name before-upgrade --wait']))
    .requiredOption('--name <name>', 'the snapshot\'s name')
    .action(async (ref: string, opts: { name: string }, cmd: Command) => {
      const hc = await rt.client(cmd);
      const id = await serverId(hc, ref);
      const snap = await hc.servers.createSnapshot(id, { name: opts.name });
      await rt.finish(cmd, snap, snap.operation, async () => (await findSnapshot(hc, id, String(snap.id))));
    });

  yesOption(waitOptions(onServer(snapshot, 'restore <server> <snapshot>', 'Put a snapshot back on its server (asks first): the disk as it is now is lost', [
    'hc snapshot restore web-1.example.com before-upgrade --wait', 'hc snapshot restore srv_8fJ2kLmN4pQ7rS1t 42 --yes',
  ])))
    .action(async (ref: string, snapshotRef: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      const id = await serverId(hc, ref);
      const snap = await findSnapshot(hc, id, snapshotRef);
      await rt.confirm(cmd, `Restore snapshot ${snap.name} (${snap.id}) on server ${ref}? Its disk is replaced by the snapshot's.`);
      const answer = await hc.servers.restoreSnapshot(id, snap.id);
      await rt.finish(cmd, answer, answer.operation, () => hc.servers.get(id));
    });

  yesOption(onServer(snapshot, 'delete <server> <snapshot>', 'Delete a snapshot (asks first); its fee stops', [
    'hc snapshot delete web-1.example.com before-upgrade', 'hc snapshot delete srv_8fJ2kLmN4pQ7rS1t 42 --yes',
  ]))
    .action(async (ref: string, snapshotRef: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      const id = await serverId(hc, ref);
      const snap = await findSnapshot(hc, id, snapshotRef);
      await rt.confirm(cmd, `Delete snapshot ${snap.name} (${snap.id}) of server ${ref}?`);
      await rt.print(cmd, await hc.servers.deleteSnapshot(id, snap.id));
    });
}
