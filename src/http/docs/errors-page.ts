import type { ErrorCode } from '../../core/errors.ts';
import { ERROR_CODES } from '../error-codes.ts';
import { esc, page } from './html.ts';

export function renderErrorsPage(): string {
  const rows = (Object.entries(ERROR_CODES) as [ErrorCode, { status: number; meaning: string }][])
    .sort((a, b) => a[1].status - b[1].status || a[0].localeCompare(b[0]))
    .map(([code, info]) => `<tr id="${esc(code)}"><td><a href="#${esc(code)}"><code>${esc(code)}</code></a></td><td>${info.status}</td><td>${esc(info.meaning)}</td></tr>`)
    .join('\n');
  return page('Errors — Hosting Cloud API v2', `
<h1>Errors</h1>
<p>Every error answers with the envelope <code>{"error": {"code", "message", "errors": [{"field", "code", "message"}], "request_id", "doc_url"}}</code>.
Branch on <code>code</code>; <code>message</code> is English text for people. <code>errors[]</code> names each invalid field (code <code>INVALID</code>).
Quote the <code>request_id</code> when you contact support.</p>
<table><thead><tr><th>Code</th><th>HTTP</th><th>Meaning</th></tr></thead><tbody>
${rows}
</tbody></table>
<p><a href="/v2/docs">API reference</a> · <a href="/v2/openapi.json">OpenAPI document</a></p>`);
}
