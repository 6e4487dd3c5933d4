// The error catalog at /v2/docs/errors, the target of every `doc_url`: one anchored row per code
// of error-codes.ts (the table the error handler maps with, so the two cannot disagree), its
// meaning written in Markdown and rendered with marked. Raw HTML in the Markdown is shown as
// text, never passed through. marked is loaded with the page's first request, not at start.
import type { Marked } from 'marked';
import type { ErrorCode } from '../../core/errors.ts';
import { ERROR_CODES } from '../error-codes.ts';
import { esc, page } from './html.ts';

let markdown: Promise<Marked> | undefined;
const loadMarkdown = () => (markdown ??= import('marked').then((m) => new m.Marked({ gfm: true, async: false, renderer: { html: ({ text }) => esc(text) } })));

/** One line of Markdown as HTML; raw HTML in it is escaped. */
export async function inline(md: string): Promise<string> {
  return (await loadMarkdown()).parseInline(md) as string;
}

const INTRO = `Every error answers with the same envelope:

\`\`\`json
{"error": {"code": "VALIDATION_FAILED", "message": "One or more parameters are invalid",
  "errors": [{"field": "location_id", "code": "INVALID", "message": "not a location servers can be created in (see GET /locations)"}],
  "request_id": "req_7Hq2sLk9Xw3Zp5Nb8Vt1", "doc_url": "…/v2/docs/errors#VALIDATION_FAILED"}}
\`\`\`

Branch on \`code\`: it is stable. \`message\` is English for people. \`errors[]\` names each invalid field (its \`code\` is
\`INVALID\`, or \`INVALID_PASSWORD\` for a password). Quote the \`request_id\` when you contact support.
Each operation of the [reference](../docs) lists the codes it can answer under each HTTP status.`;

export async function renderErrorsPage(publicUrl: string): Promise<string> {
  const markdown = await loadMarkdown();
  const rows = (Object.entries(ERROR_CODES) as [ErrorCode, { status: number; meaning: string }][])
    .sort((a, b) => a[1].status - b[1].status || a[0].localeCompare(b[0]))
    .map(([code, info]) => `<tr id="${esc(code)}"><td><a href="#${esc(code)}"><code>${esc(code)}</code></a></td><td>${info.status}</td><td>${markdown.parseInline(info.meaning) as string}</td></tr>`)
    .join('\n');
  return page('Errors — Hosting Cloud API v2', `
<h1>Errors</h1>
${markdown.parse(INTRO) as string}
<table><thead><tr><th>Code</th><th>HTTP</th><th>Meaning</th></tr></thead><tbody>
${rows}
</tbody></table>
<p><a href="../docs">API reference</a> · <a href="../openapi.json">OpenAPI document</a> · base URL <code>${esc(publicUrl)}/v2</code></p>`);
}
