// A readable reference rendered on the server from the generated OpenAPI document, so it needs
// no JavaScript and no assets from elsewhere.
import { esc, page } from './html.ts';

interface Schema { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; description?: string; enum?: unknown[]; items?: Schema; $ref?: string; default?: unknown; minimum?: number; maximum?: number }
interface Operation { summary?: string; tags?: string[]; parameters?: { name: string; in: string; required?: boolean; schema?: Schema; description?: string }[]; requestBody?: { content?: Record<string, { schema?: Schema }> }; responses?: Record<string, unknown> }
interface OpenApi { info: { title: string; version: string; description?: string }; paths?: Record<string, Record<string, Operation>> }

function typeOf(s: Schema | undefined): string {
  if (!s) return '';
  if (s.$ref) return s.$ref.split('/').pop()!;
  if (s.enum) return s.enum.map(String).join(' | ');
  const t = Array.isArray(s.type) ? s.type.join(' | ') : s.type ?? 'object';
  return t === 'array' ? `${typeOf(s.items)}[]` : t;
}

function limits(s: Schema | undefined): string {
  if (!s) return '';
  const parts = [];
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  if (s.minimum !== undefined) parts.push(`min ${s.minimum}`);
  if (s.maximum !== undefined) parts.push(`max ${s.maximum}`);
  return [s.description, parts.join(', ')].filter(Boolean).join(' — ');
}

function operationHtml(method: string, path: string, op: Operation): string {
  const id = `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-');
  const params = (op.parameters ?? []).map((p) =>
    `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${esc(typeOf(p.schema))}</td><td>${p.required ? 'yes' : ''}</td><td>${esc(limits(p.schema) || p.description || '')}</td></tr>`);
  const body = op.requestBody?.content?.['application/json']?.schema;
  const fields = Object.entries(body?.properties ?? {}).map(([name, s]) =>
    `<tr><td><code>${esc(name)}</code></td><td>body</td><td>${esc(typeOf(s))}</td><td>${body?.required?.includes(name) ? 'yes' : ''}</td><td>${esc(limits(s))}</td></tr>`);
  const rows = [...params, ...fields];
  const statuses = Object.keys(op.responses ?? {}).join(', ');
  return `<section id="${esc(id)}"><h3><span class="m ${esc(method.toUpperCase())}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></h3>
<p>${esc(op.summary ?? '')}</p>
${rows.length ? `<table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Required</th><th>Notes</th></tr></thead><tbody>${rows.join('')}</tbody></table>` : ''}
<p>Responses: ${esc(statuses)}</p></section>`;
}

export function renderReferencePage(doc: OpenApi, publicUrl: string): string {
  const byTag = new Map<string, string[]>();
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = op.tags?.[0] ?? 'Other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(method, path, op)]);
    }
  }
  const toc = [...byTag.keys()].map((t) => `<a href="#tag-${esc(t.replace(/\W+/g, '-'))}">${esc(t)}</a>`).join(' · ');
  const sections = [...byTag.entries()].map(([t, ops]) => `<h2 id="tag-${esc(t.replace(/\W+/g, '-'))}">${esc(t)}</h2>${ops.join('\n')}`).join('\n');
  return page(`${doc.info.title} ${doc.info.version}`, `
<h1>${esc(doc.info.title)} <small>${esc(doc.info.version)}</small></h1>
<p>Base URL <code>${esc(publicUrl)}/v2</code>. Authenticate with <code>Authorization: Bearer &lt;API_KEY&gt;</code>.
Success: <code>{"data", "meta": {"request_id", "version"}}</code>; lists add <code>meta.pagination</code> (<code>page</code> ≥ 1, <code>per_page</code> 1–100, default 25).
Money is <code>{"amount": "12.50", "currency": "USD"}</code>; timestamps are <code>YYYY-MM-DDTHH:MM:SSZ</code>.
Every response carries <code>RateLimit-Limit</code>, <code>RateLimit-Remaining</code> and <code>RateLimit-Reset</code>.
See the <a href="/v2/docs/errors">error codes</a> and the <a href="/v2/openapi.json">OpenAPI document</a>.</p>
<p>${toc}</p>
${sections}`);
}
