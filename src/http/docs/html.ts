export function esc(s: unknown): string {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#1d2330}
code,pre{font:13px ui-monospace,monospace;background:#f3f4f7;border-radius:4px;padding:.1rem .3rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem}th,td{border-bottom:1px solid #e3e5ea;text-align:left;padding:.35rem .5rem;vertical-align:top}
.m{display:inline-block;min-width:4.2rem;font-weight:600}.GET{color:#1a7f37}.POST{color:#0969da}.PUT,.PATCH{color:#9a6700}.DELETE{color:#cf222e}
section{border-top:1px solid #e3e5ea;padding-top:.5rem;margin-top:1rem} :target{background:#fff8c5}
</style></head><body>${body}</body></html>`;
}
