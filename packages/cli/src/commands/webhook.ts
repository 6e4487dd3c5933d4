// hc webhook …: the endpoints events are POSTed to, their delivery log, and a ping to test one.
import { setTimeout as sleep } from 'node:timers/promises';
import { type Command, Option } from 'commander';
import type { Webhook, WebhookDelivery } from '@hostcloud/sdk';
import { CommandFailed } from '../errors.js';
import { type Runtime, collect, command, group, positiveInt } from '../runtime.js';

const COLUMNS = [
  { header: 'ID', value: (w: Webhook) => w.id },
  { header: 'URL', value: (w: Webhook) => w.url },
  { header: 'EVENTS', value: (w: Webhook) => w.events.join(',') },
  { header: 'ENABLED', value: (w: Webhook) => (w.enabled ? 'yes' : `no${w.disabled_reason ? ` (${w.disabled_reason})` : ''}`) },
  { header: 'DESCRIPTION', value: (w: Webhook) => w.description ?? '' },
];

const DELIVERY_COLUMNS = [
  { header: 'ID', value: (d: WebhookDelivery) => d.id },
  { header: 'CREATED', value: (d: WebhookDelivery) => d.created_at },
  { header: 'EVENT', value: (d: WebhookDelivery) => d.event_type },
  { header: 'STATUS', value: (d: WebhookDelivery) => d.status },
  { header: 'ATTEMPTS', value: (d: WebhookDelivery) => d.attempt },
  { header: 'HTTP', value: (d: WebhookDelivery) => d.response_status ?? '' },
  { header: 'ERROR', value: (d: WebhookDelivery) => d.error ?? '' },
];

const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

/** How often `ping --wait` reads the delivery log. */
const PING_POLL_MS = 500;

export function webhookCommands(program: Command, rt: Runtime): void {
  const webhook = group(program, 'webhook', 'Endpoints your events are POSTed to, signed (verify them with verifyWebhook of @hostcloud/sdk)', [
    'hc webhook create --url https://hooks.example.com/hostcloud --event "server.*" --event operation.failed',
    'hc webhook list',
    'hc webhook ping whk_5Hq2sLk9Xw3Zp5Nb --wait',
  ], 'wh');

  command(webhook, 'create', 'Register an endpoint; the answer shows its signing secret, once: keep it', [
    'hc webhook create --url https://hooks.example.com/hostcloud',
    'hc webhook create --url https://hooks.example.com/hostcloud --event "server.*" --event operation.failed --description CI -o json | jq -r .secret',
  ])
    .requiredOption('--url <url>', 'where events are POSTed (https, a public address)')
    .option('--event <type>', 'an event type or family such as server.* (repeat; default every type)', collect(String))
    .option('--description <text>', 'your note')
    .action(async (opts: { url: string; event?: string[]; description?: string }, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.print(cmd, await hc.webhooks.create({
        url: opts.url,
        ...(opts.event ? { events: opts.event } : {}),
        ...(opts.description !== undefined ? { description: opts.description } : {}),
      }));
    });

  command(webhook, 'list', 'List your endpoints', ['hc webhook list', 'hc webhook list -o json | jq -r ".[] | select(.enabled | not) | .id"'])
    .action(async (_opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.printAll(cmd, hc.webhooks.list({ per_page: 100 }), COLUMNS);
    });

  command(webhook, 'get <id>', 'Show an endpoint (without its secret)', ['hc webhook get whk_5Hq2sLk9Xw3Zp5Nb'])
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.print(cmd, await hc.webhooks.get(id));
    });

  command(webhook, 'delete <id>', 'Delete an endpoint and its delivery log (pending deliveries are not sent)', ['hc webhook delete whk_5Hq2sLk9Xw3Zp5Nb'])
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.print(cmd, await hc.webhooks.delete(id));
    });

  command(webhook, 'ping <id>', 'Send a webhook.ping event to this endpoint; with --wait, show how its first attempt went (exit 1 unless 2xx)', [
    'hc webhook ping whk_5Hq2sLk9Xw3Zp5Nb',
    'hc webhook ping whk_5Hq2sLk9Xw3Zp5Nb --wait -o json',
  ])
    .option('--wait', 'wait for the first attempt\'s outcome')
    .addOption(new Option('--wait-timeout <seconds>', 'give up waiting after this long (the delivery goes on)').argParser(positiveInt).default(60))
    .action(async (id: string, opts: { wait?: boolean; waitTimeout: number }, cmd: Command) => {
      const hc = await rt.client(cmd);
      let delivery = await hc.webhooks.ping(id);
      if (opts.wait) {
        const deadline = Date.now() + opts.waitTimeout * 1000;
        // The log is newest first and the ping is new: the first page holds it.
        while (delivery.status === 'pending' && delivery.attempt === 0) {
          if (Date.now() > deadline) throw new CommandFailed(`delivery ${delivery.id} was not attempted within ${opts.waitTimeout} s`);
          await sleep(PING_POLL_MS, undefined, rt.io.signal ? { signal: rt.io.signal } : {});
          const page = await hc.webhooks.deliveries(id, { per_page: 100 }).firstPage();
          delivery = page.items.find((d) => d.id === delivery.id) ?? delivery;
        }
        await rt.print(cmd, delivery);
        if (delivery.status !== 'succeeded') {
          throw new CommandFailed(`delivery ${delivery.id} ${delivery.status === 'failed' ? 'failed' : 'failed its first attempt (retried later)'}: ${delivery.error ?? `HTTP ${delivery.response_status ?? '?'}`}`);
        }
        return;
      }
      await rt.print(cmd, delivery);
    });

  command(webhook, 'deliveries <id>', 'The delivery log of an endpoint, newest first', ['hc webhook deliveries whk_5Hq2sLk9Xw3Zp5Nb', 'hc webhook deliveries whk_5Hq2sLk9Xw3Zp5Nb --status failed -o json'])
    .addOption(new Option('--status <status>', 'only deliveries in this state').choices(DELIVERY_STATUSES))
    .action(async (id: string, opts: { status?: (typeof DELIVERY_STATUSES)[number] }, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.printAll(cmd, hc.webhooks.deliveries(id, { per_page: 100, ...(opts.status ? { status: opts.status } : {}) }), DELIVERY_COLUMNS);
    });
}
