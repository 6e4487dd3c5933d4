import type { Command } from 'commander';
import type { Event, EventQuery } from '@hostcloud/sdk';
import { type Runtime, command, group, positiveInt, waitOptions } from '../runtime.js';

const EVENT_COLUMNS = [
  { header: 'TIME', value: (e: Event) => e.created_at },
  { header: 'TYPE', value: (e: Event) => e.type },
  { header: 'RESOURCE', value: (e: Event) => `${e.resource.type} ${e.resource.id}` },
  { header: 'ID', value: (e: Event) => e.id },
];

export function operationCommands(program: Command, rt: Runtime): void {
  const operation = group(program, 'operation', 'Asynchronous operations (creates, actions, snapshots)', ['hc operation get op_4Kq9vX2mLp8RtY1z', 'hc operation wait op_4Kq9vX2mLp8RtY1z'], 'op');

  command(operation, 'get <id>', 'Show an operation', ['hc operation get op_4Kq9vX2mLp8RtY1z -o json'])
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.print(cmd, await hc.operations.get(id));
    });

  waitOptions(command(operation, 'wait <id>', 'Wait until an operation completes (exit 1 if it fails)', [
    'hc operation wait op_4Kq9vX2mLp8RtY1z',
    'hc operation wait op_4Kq9vX2mLp8RtY1z --wait-timeout 120 -o json',
  ]))
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      const op = await hc.operations.get(id);
      await rt.print(cmd, await rt.wait(cmd, op));
    });

  const events = group(program, 'events', 'What happened to your resources', ['hc events tail', 'hc events list --type server.created'], 'event');

  command(events, 'list', 'List events, newest first (every page)', ['hc events list', 'hc events list --resource-id srv_8fJ2kLmN4pQ7rS1t -o json'])
    .option('--type <type>', 'only this type, e.g. server.created')
    .option('--resource-type <type>', 'only events of this kind of resource, e.g. server')
    .option('--resource-id <id>', 'only events of this resource')
    .action(async (opts: { type?: string; resourceType?: string; resourceId?: string }, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.printAll(cmd, hc.events.list({ per_page: 100, ...filters(opts) }), EVENT_COLUMNS);
    });

  command(events, 'tail', 'Print new events as they happen, oldest first, until Ctrl-C (one JSON object a line with -o json)', [
    'hc events tail',
    'hc events tail --type operation.failed',
    'hc events tail -o json | jq -c "{type, id: .resource.id}"',
    'hc events tail --type server.created --limit 1 -o json',
  ])
    .option('--type <type>', 'only this type, e.g. operation.completed')
    .option('--resource-type <type>', 'only events of this kind of resource, e.g. server')
    .option('--resource-id <id>', 'only events of this resource')
    .option('--backlog <n>', 'first print this many of the latest events', (v) => (v === '0' ? 0 : positiveInt(v)), 0)
    .option('--interval <seconds>', 'how often to look for new events', positiveInt, 2)
    .option('--limit <n>', 'stop (exit 0) after printing this many events, backlog included', positiveInt)
    .action(async (opts: { type?: string; resourceType?: string; resourceId?: string; backlog: number; interval: number; limit?: number }, cmd: Command) => {
      const hc = await rt.client(cmd);
      const p = rt.printer(cmd);
      let printed = 0;
      if (p.format === 'table' && p.header) p.write(`${'TIME'.padEnd(24)} ${'TYPE'.padEnd(26)} RESOURCE\n`);
      for await (const e of hc.events.follow(filters(opts), { backlog: opts.backlog, intervalMs: opts.interval * 1000, ...(rt.io.signal ? { signal: rt.io.signal } : {}) })) {
        // A stream: one line per event, never a document that only ends with the command.
        if (p.format === 'json') p.write(`${JSON.stringify(e)}\n`);
        else if (p.format === 'yaml') p.write(`---\n${(await import('yaml')).stringify(e)}`);
        else p.write(`${e.created_at.padEnd(24)} ${e.type.padEnd(26)} ${e.resource.type} ${e.resource.id}\n`);
        // Leaving the loop ends follow(): no further request is made.
        if (opts.limit !== undefined && ++printed >= opts.limit) break;
      }
    });
}

/** The server checks the type names (422 naming the parameter: exit 1), so the list lives in one place. */
function filters(opts: { type?: string; resourceType?: string; resourceId?: string }): Omit<EventQuery, 'page' | 'per_page'> {
  return {
    ...(opts.type ? { type: opts.type } : {}),
    ...(opts.resourceType ? { resource_type: opts.resourceType } : {}),
    ...(opts.resourceId ? { resource_id: opts.resourceId } : {}),
  } as Omit<EventQuery, 'page' | 'per_page'>;
}
