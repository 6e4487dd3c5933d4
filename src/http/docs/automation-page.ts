// The page "Automating with the SDK and CLI" at /v2/docs/automation: how customers script this
// API with @hostcloud/sdk and `hc` (packages/sdk and packages/cli of this repository). Written
// in Markdown, rendered with marked on the page's first request (raw HTML shown as text).
import type { Marked } from 'marked';
import { esc, page } from './html.ts';

let markdown: Promise<Marked> | undefined;
const loadMarkdown = () => (markdown ??= import('marked').then((m) => new m.Marked({ gfm: true, async: false, renderer: { html: ({ text }) => esc(text) } })));

export function automationMarkdown(publicUrl: string): string {
  return `# Automating with the SDK and CLI

Two packages wrap this API so that scripts need no \`curl\` loops: **\`@hostcloud/sdk\`**, a typed client
for Node.js 20+ and browsers with no dependencies, and **\`@hostcloud/cli\`**, the \`hc\` command line built on
it. Both handle paging, waiting for operations, idempotent retries of billable creates, rate limits
(429 and 503 are retried after \`Retry-After\`) and errors for you. The [reference](../docs) describes every
endpoint they call; the [error catalog](errors) every \`code\` they report.

## Installing

Your provider hands out the two packages as tarballs (or from its own npm registry). From a checkout of the
Hostcloud repository, \`npm install\` builds them and this makes the tarballs:

\`\`\`sh
npm pack -w packages/sdk -w packages/cli      # hostcloud-sdk-0.1.0.tgz, hostcloud-cli-0.1.0.tgz
npm install -g ./hostcloud-sdk-0.1.0.tgz ./hostcloud-cli-0.1.0.tgz   # hc on your PATH
npm install ./hostcloud-sdk-0.1.0.tgz                               # the SDK in a project
\`\`\`

## The command line: hc

Save the URL of this service and your API key once, as a *context* (kept readable by you alone, in
\`$XDG_CONFIG_HOME/hostcloud/contexts.json\`); \`HC_URL\` and \`HC_TOKEN\` override it, \`--context NAME\` picks another.

\`\`\`sh
hc context add prod --url ${publicUrl}         # asks for the API key without echoing it
hc plan list; hc location list; hc os list     # what to create with
hc server create --name web-1.example.com --plan "Cloud S" --location fra1 --os debian-12 --ssh-key laptop --wait
hc server ssh web-1.example.com
\`\`\`

Wherever a command takes an id it also takes a name: a server by its name, a location by its code, a plan by
its name, an operating system by its slug, an SSH key by its name (any case). A name that matches nothing,
or more than one thing, is a usage error that lists the candidates. Without \`--password\`, \`hc server create\`
generates a strong root password and shows it once: on stderr beside a table, as \`root_password\` in the JSON
or YAML otherwise. In a script, \`printf %s "$HC_TOKEN" | hc context add ci --url …\` reads the key from stdin.

With \`--wait\` the command returns once the operation has completed; on a terminal a line shows its state,
percent and step meanwhile (\`op_…  running  40%  Cloning image\`). Every command that starts an operation
takes \`--wait\`; \`hc operation wait op_…\` waits for one started earlier.

Output is a table on a terminal and JSON when piped; \`-o table|wide|json|yaml\` chooses (\`wide\` adds
columns), \`--columns name,ipv4,power\` picks a list's columns, \`--no-header\` drops a table's header.
\`hc server list\` shows each server's live power state, primary IPv4 and location. Lists print every page.
Exit codes: **0** success, **1** an API error (its code, message and request id on stderr) or a failed
operation, **2** a usage error (with the command's usage). Commands that destroy something
(\`hc server delete\`, \`hc dns zone delete\`, \`hc snapshot restore|delete\`) ask on a terminal; in a script they need \`--yes\`, and
without it exit 2 having done nothing. So a script can rely on them:

\`\`\`sh
set -euo pipefail
id=$(hc server create --name ci-runner.example.com --plan "Cloud S" --location fra1 --os debian-12 --wait -o json | jq -r .id)
hc server get "$id" -o json | jq -r .network.ipv4.address
hc server delete "$id" --yes
\`\`\`

| commands | |
|---|---|
| \`hc server list\\|get\\|create\\|delete\\|start\\|stop\\|reboot\\|resize\\|snapshot\\|console\\|ssh\` | servers |
| \`hc snapshot list\\|create\\|restore\\|delete\` | a server's snapshots |
| \`hc domain check\\|register\\|list\\|get\\|renew\` | domain names |
| \`hc hosting list\\|get\\|packages\\|create\\|renew\\|cancel\\|login\` | web hosting |
| \`hc ticket list\\|get\\|create\\|reply\\|close\\|departments\` | support tickets |
| \`hc balance [--transactions]\`, \`hc plan\\|location\\|os list\`, \`hc ssh-key list\\|add\\|delete\` | account and catalog |
| \`hc operation get\\|wait\`, \`hc events list\\|tail\` | operations and events |
| \`hc webhook create\\|list\\|get\\|delete\\|ping\\|deliveries\` | webhook endpoints |
| \`hc dns zone list\\|get\\|create\\|delete\`, \`hc dns record list\\|add\\|update\\|delete\` | DNS zones and records |
| \`hc context add\\|use\\|list\\|current\\|remove\`, \`hc completion bash\\|zsh\` | set-up |

\`hc COMMAND --help\` shows every option with examples. \`hc events tail\` prints new events as they happen
(one JSON object per line with \`-o json\`) until Ctrl-C, or until it printed \`--limit N\`. Completion (commands, options and your servers' names): \`source <(hc completion bash)\`, or
\`source <(hc completion zsh)\` after \`compinit\`.

## The SDK: @hostcloud/sdk

\`\`\`ts
import { Hostcloud, HostcloudError } from '@hostcloud/sdk';

const hc = new Hostcloud({ baseUrl: '${publicUrl}', token: process.env.HC_TOKEN! });

const server = await hc.servers.create({
  name: 'web-1.example.com', location_id: 1, plan_id: 2, os_version_id: 1, password: process.env.ROOT_PASSWORD!,
});
const op = await hc.operations.wait(server.operation.id, { timeoutMs: 5 * 60_000 });
if (op.status === 'failed') throw new Error(op.detail);

for await (const s of hc.servers.list({ status: 'active' })) console.log(s.id, s.name);
await hc.servers.delete(server.id);
\`\`\`

- \`baseUrl\` is the origin of this service (the SDK adds \`/v2\`). Methods resolve to the answer's \`data\`,
  typed from this API's OpenAPI document. One object per family: \`servers\`, \`operations\`, \`vdc\`,
  \`domains\`, \`webHosting\`, \`catalog\`, \`billing\`, \`account\`, \`tickets\`, \`subUsers\`, \`sshKeys\`,
  \`reseller\`, \`events\`, \`webhooks\`; \`hc.request({method, path, query, body})\` calls anything else.
- **Lists** are async iterables that fetch the next page as you go; \`.toArray()\`, \`.pages()\` and
  \`.firstPage()\` are there too.
- **Waiting**: \`operations.wait(id)\` holds one request on \`GET /operations/{id}?wait=30\` at a time (the server
  answers as soon as the operation ends) and polls with a growing interval where the long-poll is not
  available. \`onProgress\` hears of each state it reads.
- **Billable creates** (servers, snapshots, extra addresses, VDC VMs, domain register, transfer and renew,
  web hosting order and renew) send an \`Idempotency-Key\`, kept across the SDK's own retries: a create whose
  answer was lost is retried and charged once. Pass \`{ idempotencyKey }\` to reuse yours across runs.
- **Retries**: 429 and 503 after \`Retry-After\` (up to \`maxRetries\`, default 3; a longer wait than
  \`maxRetryDelayMs\`, default 30 s, fails at once); a network failure only where repeating is safe.
- **Timeouts and cancelling**: \`timeoutMs\` (default 30 s per attempt) on the client or any call; every
  method takes \`{ signal }\` (an \`AbortSignal\`), as do lists and \`operations.wait\`.
- **Errors** throw \`HostcloudError\`: \`status\`, \`code\`, \`message\`, \`requestId\` (quote it to support),
  \`fieldErrors\` (\`[{field, code, message}]\` of a 422), \`docUrl\`. Failures without an answer have status 0 and
  code \`TIMEOUT\`, \`NETWORK_ERROR\`, \`INVALID_RESPONSE\` or \`WAIT_TIMEOUT\`.

\`\`\`ts
try {
  await hc.domains.register({ domain: 'example.com', years: 1 });
} catch (e) {
  if (e instanceof HostcloudError && e.code === 'INSUFFICIENT_BALANCE') await topUp();
  else throw e;
}
\`\`\`

In a browser the SDK runs as it is (it uses \`fetch\` and WebCrypto); mind that an API key in a page is
visible to whoever loads it.

## Receiving webhooks

Register an endpoint (an \`https\` URL on a public address) and keep the secret the answer shows, once:

\`\`\`sh
hc webhook create --url https://hooks.example.com/hostcloud --event "server.*" --event operation.failed -o json | jq -r .secret
hc webhook ping whk_5Hq2sLk9Xw3Zp5Nb --wait     # exit 0 once your endpoint answered 2xx
hc webhook deliveries whk_5Hq2sLk9Xw3Zp5Nb --status failed
\`\`\`

In the SDK: \`hc.webhooks.create({ url, events })\` (its answer has \`secret\`), \`list()\`, \`get(id)\`,
\`update(id, { enabled })\`, \`delete(id)\`, \`ping(id)\` (answers the pending delivery), \`deliveries(id, { status })\`,
\`rotateSecret(id)\`; \`hc.events.list({ type, resource_id })\` and \`hc.events.follow()\` read the same events.

Webhook deliveries are signed as the Standard Webhooks specification says. \`verifyWebhook(secret, headers,
rawBody)\` checks the signature (either one while a rotated secret overlaps) and that the timestamp is within
five minutes, and resolves to the event; anything else throws \`WebhookVerificationError\`. Verify the raw
body, before parsing it:

\`\`\`ts
import http from 'node:http';
import { verifyWebhook } from '@hostcloud/sdk';

http.createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c);
  try {
    const event = await verifyWebhook(process.env.WEBHOOK_SECRET!, req.headers, Buffer.concat(chunks));
    console.log(event.type, event.resource.id);   // deliver at least once: dedupe by event.id
    res.writeHead(204).end();
  } catch {
    res.writeHead(400).end();
  }
}).listen(8000);
\`\`\`
`;
}

export async function renderAutomationPage(publicUrl: string): Promise<string> {
  const md = await loadMarkdown();
  return page('Automating with the SDK and CLI — Hosting Cloud API v2', `${md.parse(automationMarkdown(publicUrl)) as string}
<p><a href="../docs">API reference</a> · <a href="errors">Error catalog</a> · <a href="../openapi.json">OpenAPI document</a></p>`);
}
