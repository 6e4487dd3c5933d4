import { type Command, Option } from 'commander';
import type { Ticket } from '@hostcloud/sdk';
import { type Runtime, command, group, positiveInt } from '../runtime.js';

const COLUMNS = [
  { header: 'ID', value: (t: Ticket) => t.id },
  { header: 'SUBJECT', value: (t: Ticket) => t.subject },
  { header: 'STATUS', value: (t: Ticket) => t.status },
  { header: 'PRIORITY', value: (t: Ticket) => t.priority },
  { header: 'UPDATED', value: (t: Ticket) => t.updated_at },
];

const STATUSES = ['open', 'answered', 'customer_reply', 'in_progress', 'pending', 'closed'] as const;

export function ticketCommands(program: Command, rt: Runtime): void {
  const ticket = group(program, 'ticket', 'Support tickets: open, list, read, reply, close', [
    'hc ticket create --subject "web-1 does not boot" --message "The console shows no bootable device since this morning."',
    'hc ticket list --status answered',
    'hc ticket get 482913',
  ]);

  command(ticket, 'list', 'List your tickets, newest first (every page)', ['hc ticket list', 'hc ticket list --status open -o json'])
    .addOption(new Option('--status <status>', 'only tickets in this status').choices(STATUSES))
    .action(async (opts: { status?: (typeof STATUSES)[number] }, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.printAll(cmd, hc.tickets.list({ per_page: 100, ...(opts.status ? { status: opts.status } : {}) }), COLUMNS);
    });

  command(ticket, 'get <id>', 'Show a ticket with its whole thread', ['hc ticket get 482913', 'hc ticket get 482913 -o yaml'])
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      const t = await hc.tickets.get(id);
      const p = rt.printer(cmd);
      if (p.format !== 'table') return rt.print(cmd, t);
      p.write(`#${t.id}  ${t.subject}  [${t.status}, ${t.priority}]\n`);
      for (const m of t.messages) p.write(`\n--- ${typeof m.author === 'string' ? m.author : JSON.stringify(m.author)}, ${m.created_at}\n${m.message}\n`);
    });

  command(ticket, 'create', 'Open a ticket', [
    'hc ticket create --subject "Invoice question" --message "Could you send the invoice for March again, please?"',
    'hc ticket create --subject "web-1 is down" --message "$(cat report.txt)" --priority urgent --department 2',
  ])
    .requiredOption('--subject <text>', 'at least one letter')
    .requiredOption('--message <text>', 'at least 25 characters, 15 of them letters')
    .option('--department <id>', 'a department (hc ticket departments)', positiveInt)
    .addOption(new Option('--priority <priority>', 'priority').choices(['low', 'medium', 'high', 'urgent']))
    .action(async (opts: { subject: string; message: string; department?: number; priority?: 'low' | 'medium' | 'high' | 'urgent' }, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.print(cmd, await hc.tickets.create({
        subject: opts.subject,
        message: opts.message,
        ...(opts.department !== undefined ? { department_id: opts.department } : {}),
        ...(opts.priority ? { priority: opts.priority } : {}),
      }));
    });

  command(ticket, 'reply <id>', 'Reply to a ticket', ['hc ticket reply 482913 --message "It boots again after the reinstall, thank you."'])
    .requiredOption('--message <text>', 'at least 25 characters, 15 of them letters')
    .action(async (id: string, opts: { message: string }, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.print(cmd, await hc.tickets.reply(id, opts.message));
    });

  command(ticket, 'close <id>', 'Close a ticket', ['hc ticket close 482913'])
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.print(cmd, await hc.tickets.close(id));
    });

  command(ticket, 'departments', 'List the support departments', ['hc ticket departments'])
    .action(async (_opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.printAll(cmd, hc.tickets.departments({ per_page: 100 }), [{ header: 'ID', value: (d) => d.id }, { header: 'NAME', value: (d) => d.name }]);
    });
}
