// The OpenAPI document's `info.description` (CommonMark): the walkthrough and the conventions
// every operation shares. The reference page shows its `#` headings in its sidebar. The lists of
// panel-only endpoints and of idempotent operations are generated from the routes.
import { EVENT_CATALOGUE, EVENT_TYPES } from '../../core/events/catalogue.ts';
import { PANEL_ONLY } from '../v2/not-implemented.ts';

function panelOnly(): string {
  return PANEL_ONLY.filter((r) => !r.hidden)
    .map((r) => `- \`${[r.method].flat().join(', ')} ${r.url.replace(/:(\w+)/g, '{$1}')}\`: ${r.what.toLowerCase()} (panel: \`${r.page}\`)`)
    .join('\n');
}

/** What the base URL is reached over: HTTPS where this service is published with TLS (a proxy in front), else plain HTTP. */
function transport(publicUrl: string): string {
  return publicUrl.startsWith('https:') ? 'HTTPS' : 'HTTP (this service is published without TLS)';
}

/** Every event type: what it is about, and when it is written. */
function catalogue(): string {
  const rows = EVENT_TYPES.map((t) => `| \`${t}\` | ${EVENT_CATALOGUE[t].resource} | ${EVENT_CATALOGUE[t].when} |`);
  return ['| type | `resource.type` (and `data`) | written when |', '|---|---|---|', ...rows].join('\n');
}

/** Replaced by the operations that take an Idempotency-Key once the routes are known (docs/openapi.ts). */
export const IDEMPOTENT_OPERATIONS = '{{idempotent operations}}';

export function introduction(publicUrl: string): string {
  const base = `${publicUrl}/v2`;
  return `Manage servers and the VMs of your virtual data center, domain names (registration, transfer, renewal, nameservers)
and web hosting accounts, SSH keys, support tickets and sub-users, and read the catalog, your balance and upcoming
charges, your account and your reseller status: JSON over ${transport(publicUrl)}.
This reference is generated from the code that serves the API, so it cannot drift from it; the
machine-readable document is [openapi.json](${base}/openapi.json), and every error code is explained in
the [error catalog](${base}/docs/errors).

# First server in five minutes

You need \`curl\`, and \`jq\` to pick fields out of the answers.

**1. Get an API key.** Create one in the customer panel (\`/panel/api-keys\` on this service's origin, once
the operator has invited you), with the IP addresses it may be used from. If you run this service yourself, create an account with a key for your
address, from the checkout of this service (it prints the key once):

\`\`\`sh
node bin/hostcloud.js admin accounts create --email you@example.com --name You --deposit 100 --ip 127.0.0.1/32
\`\`\`

A live key starts \`hc_live_\`; a test key (\`hc_test_\`) runs everything in the sandbox and charges nothing.

\`\`\`sh
export HC=${base}
export KEY=hc_live_...    # your key
\`\`\`

**2. Pick a location, a plan and an operating system.** Note their \`id\`s.

\`\`\`sh
curl -s "$HC/locations" -H "Authorization: Bearer $KEY" | jq '.data[] | {id, name}'
curl -s "$HC/plans" -H "Authorization: Bearer $KEY" | jq '.data[] | {id, name, price: .price.amount}'
curl -s "$HC/operating-systems" -H "Authorization: Bearer $KEY" | jq '.data[] | {id, name}'
\`\`\`

**3. Create the server.** This is billable: the first month is charged from your balance now. Keep the
\`Idempotency-Key\`: if the connection drops, send the very same request again with it, and you get the
first answer back instead of a second server.

\`\`\`sh
IDEMPOTENCY_KEY=$(uuidgen)    # or: node -e 'console.log(crypto.randomUUID())'
curl -s -X POST "$HC/servers" -H "Authorization: Bearer $KEY" \\
  -H "Content-Type: application/json" -H "Idempotency-Key: $IDEMPOTENCY_KEY" \\
  -d '{"name": "web-1.example.com", "location_id": 1, "plan_id": 2, "os_version_id": 1, "password": "c0rrect-Horse-battery"}' \\
  | tee server.json | jq '{server: .data.id, status: .data.status, operation: .data.operation.id}'
\`\`\`

The answer is 201 with the server, \`pending\`, and the operation that provisions it.

**4. Wait for the operation** to be \`completed\` (or \`failed\`: then \`detail\` says why, and the charge was refunded).
With \`?wait=60\` the request answers the moment it finishes (or after 60 seconds with it still running: ask again).

\`\`\`sh
OP=$(jq -r .data.operation.id server.json)
until curl -s "$HC/operations/$OP?wait=60" -H "Authorization: Bearer $KEY" | tee op.json | jq -e '.data.status | test("completed|failed")' >/dev/null; do :; done
jq '.data | {status, detail}' op.json
\`\`\`

**5. Read your server.**

\`\`\`sh
SERVER=$(jq -r .data.id server.json)
curl -s "$HC/servers/$SERVER" -H "Authorization: Bearer $KEY" | jq '.data | {name, status, power_state, ipv4: .network.ipv4.address}'
\`\`\`

From here: \`runServerAction\` (reboot, resize, clone…), \`createServerSnapshot\`, \`deleteServer\` (refunds the unused hours).

# Conventions

- **Base URL** \`${base}\`; every path in this reference is relative to it. JSON only: a request body is sent
  with \`Content-Type: application/json\` (anything else is 415), field names are snake_case.
- **Authentication**: \`Authorization: Bearer <API_KEY>\` on every request; there is no query-string key.
  A key works only from the addresses on its allowlist and, if it has scopes, only in them
  (\`<area>:read\` for GET, \`<area>:write\` otherwise; reading a domain's
  auth code, which lets the domain leave the account, needs \`domains:write\`). A key of a sub-user does only what both its scopes and
  the sub-user's permissions allow, and nothing while the sub-user is not \`active\`.
- **Success** is the HTTP status: \`{"data": …, "meta": {"request_id", "version": "2.0.0"}}\`. Lists add
  \`meta.pagination\` \`{page, per_page, total, total_pages}\`; ask with \`page\` (from 1) and \`per_page\`
  (default 25, at most 100).
- **Money** is \`{"amount": "12.50", "currency": "USD"}\`: a decimal string, never a float.
  **Timestamps** are RFC 3339 UTC: \`2026-11-22T08:30:00Z\`.
- **Unknown body fields and query parameters are errors**, not ignored: a typo (\`?pre_page=1\`) is
  reported (422 naming it), not silently dropped. Integers in the path and query are plain digits.
- Every response carries \`X-Request-Id\`: quote it (or \`meta.request_id\`) to support.
- A **201** carries \`Location\`: the URL of what was created (a replayed 201 too).

# Errors

Every failure is \`{"error": {"code", "message", "errors": [{"field", "code", "message"}], "request_id", "doc_url"}}\`.
Branch on \`error.code\`, which is stable; \`message\` is English for people, and \`errors[]\` names each invalid
field. Each operation lists the codes it can answer under each HTTP status, so a generated client can switch on
them. The [error catalog](${base}/docs/errors) explains every code.

# Rate limits

Every response carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds until the
window resets). Over the limit, the answer is 429 \`RATE_LIMITED\` with \`Retry-After\` (seconds to wait). A key
spends its own budget; requests without a valid key spend the budget of their IP address.

# Idempotency

Billable POSTs and creates (${IDEMPOTENT_OPERATIONS}) accept \`Idempotency-Key: <uuid>\`.
The same key with the same body within 24 hours replays the first successful answer, with
\`Idempotent-Replayed: true\`, and charges (or creates) nothing more; the same key with another body is 409
\`IDEMPOTENCY_KEY_CONFLICT\`. A failed request is not remembered, so it can be retried with its key.

# Asynchronous operations

Creates, actions and snapshots answer at once with an \`operation\` (\`op_…\`); the work happens in the
background. Ask \`GET /operations/{id}?wait=60\` until \`status\` is \`completed\` or \`failed\`: the answer comes as soon as
it is, or after the \`wait\` seconds (at most 60) with its state then. One operation runs on a
server (or VDC VM) at a time: starting another meanwhile is 409 \`STATE_CONFLICT\`.

# Events and webhooks

Every change your account cares about is an **event**, written in the same transaction as the change:
an operation completed or failed, a server created, suspended, resumed, cancelled or deleted, a VM created or
deleted, a domain registered, transferred, renewed, expiring or expired, web hosting created, suspended, resumed or
cancelled, a deposit, a charge, a refund, a charge that failed, a ticket opened, answered or closed. An event exists
exactly when its change committed: a request refused (for balance, say) or made with a test key leaves none.
Read them with \`GET /events\` (newest first, by \`type\`, \`resource_type\`, \`resource_id\`); they are kept
\`EVENT_RETENTION_DAYS\` (30 by default). Each is \`{id, type, created_at, resource: {type, id}, data}\`, \`data\` being
the resource as this API shows it at that moment (the operation for \`operation.*\`). The catalogue below lists every type.

Rather than asking, be told: **register a webhook endpoint** (\`createWebhook\`, scope \`webhooks:write\`) with an
\`https\` URL and the types you want (\`*\`, a family such as \`server.*\`, or types). Keep the \`secret\` it answers
(\`whsec_…\`): it is shown once. \`pingWebhook\` sends a \`webhook.ping\` to test the endpoint.

**A delivery** is a \`POST\` of the event as JSON, as [Standard Webhooks](https://www.standardwebhooks.com/) specifies,
with these headers:

- \`webhook-id\`: the event's \`id\`, the same at every attempt: deduplicate by it (delivery is *at least once*, and
  the order of deliveries is not guaranteed);
- \`webhook-timestamp\`: when this attempt was signed, in Unix seconds (refuse old ones, to stop replays);
- \`webhook-signature\`: \`v1,\` and the base64 HMAC-SHA256 of \`{webhook-id}.{webhook-timestamp}.{body}\`, keyed with the
  base64-decoded part of your secret after \`whsec_\`. For 24 hours after \`rotateWebhookSecret\` there are two,
  space-separated, one per secret: accept the delivery if any verifies.

Answer with any 2xx within 15 seconds (do the work after answering). Anything else — another status, a
redirect (never followed), no answer in time, no connection — is tried again 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
14 h, 20 h and 24 h after each failure (ten attempts over about 75 hours); then the delivery has failed. Each
endpoint gets a few deliveries at a time, so a slow one only slows itself. \`410 Gone\` disables the endpoint at
once; so does every attempt failing for 5 days. A notice tells you, and \`PATCH {"enabled": true}\` turns it back on.
\`listWebhookDeliveries\` shows each delivery's attempts, last status or error and next attempt. The URL must
resolve to public addresses only, checked when it is set and again at every connection.

**Verifying with the \`standardwebhooks\` package** (npm; it exists for Python, Go, Ruby, PHP, Java, Rust too):

\`\`\`js
import express from 'express';
import { Webhook } from 'standardwebhooks';

const wh = new Webhook(process.env.HOSTCLOUD_WEBHOOK_SECRET);   // "whsec_…"
const app = express();
app.post('/hooks/hostcloud', express.raw({ type: 'application/json' }), (req, res) => {
  let event;
  try {
    event = wh.verify(req.body.toString('utf8'), req.headers);    // checks the signature and the timestamp
  } catch {
    return res.sendStatus(400);
  }
  res.sendStatus(204);                                            // answer first, then work
  handle(event);                                                  // dedupe on event.id
});
\`\`\`

**Verifying by hand** (Node's \`crypto\`; the same few lines in any language with HMAC-SHA256): use the body exactly as
received, before any JSON parsing.

\`\`\`js
import { createHmac, timingSafeEqual } from 'node:crypto';

function verified(secret, headers, rawBody) {
  const id = headers['webhook-id'], ts = headers['webhook-timestamp'];
  if (Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;          // five minutes' tolerance
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(\`\${id}.\${ts}.\${rawBody}\`).digest();
  return headers['webhook-signature'].split(' ').some((s) => {
    const [version, signature = ''] = s.split(',');
    const got = Buffer.from(signature, 'base64');
    return version === 'v1' && got.length === expected.length && timingSafeEqual(got, expected);
  });
}
\`\`\`

## Event catalogue

${catalogue()}

Every type's sample delivery is in the *Event catalogue* section of this reference, after the operations.

# Sandbox

A test key (\`hc_test_…\`) runs the same validation and rules against a sandbox: its answers (and only
its answers) carry \`meta.sandbox: true\`, nothing is stored, nothing is charged, and its operations report
\`completed\`. The samples in this reference are a live key's answers, without \`sandbox\`.

# SDK and command line

\`@hostcloud/sdk\` (a typed client for Node.js and browsers) and \`hc\` (the command line, \`@hostcloud/cli\`) page
through lists, wait for operations, retry rate-limited requests and send \`Idempotency-Key\` on billable creates
for you: see [Automating with the SDK and CLI](${base}/docs/automation).

# Legacy v1

The legacy v1 API is served beside this one, from the same data: \`${publicUrl}/v1\`, described by its own
[OpenAPI 3.0.3 document](${publicUrl}/v1/openapi.json). It authenticates with \`X-API-Key: <API_KEY>\` (the same keys,
allowlists, scopes, rate limits and sandbox), answers \`{success: true, data, message?, pagination?}\` or
\`{success: false, error: {code, message, details}}\`, names things its own way (\`server_id\`, \`ip_address\`,
money as JSON numbers) and uses fewer statuses: 401 \`INVALID_API_KEY\` for a bad key or a disallowed address,
403 \`FORBIDDEN\`, 404 \`NOT_FOUND\`, 422 with this API's code for validation, balance and state conflicts, 429.
A server made in one version is the same server in the other (\`server_id\` is its \`id\` here). What v1 had
and this API lacked is here too, marked *Addition to the Hosting Cloud API v2*: reverse DNS of an address, cancelling an extra
address, deleting and restoring a server snapshot. New integrations should use this API.

# Done in the web panel

These endpoints exist but answer 501 \`NOT_IMPLEMENTED\` (after authentication, like any other); they are
not listed as operations here. The customer panel at \`/panel\` on this service's origin does them:

${panelOnly()}
`;
}
