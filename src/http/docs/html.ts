export function esc(s: unknown): string {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#1d2330}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px;background:#f3f4f7;border-radius:4px}
code{padding:.1em .3em;-webkit-box-decoration-break:clone;box-decoration-break:clone}
pre{line-height:1.5;padding:.6rem .8rem;overflow-x:auto}pre code{background:none;padding:0;border-radius:0}
a>code{color:inherit}a:has(>code){text-decoration:none}a:has(>code):hover>code{outline:1px solid #0969da}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem}th,td{border-bottom:1px solid #e3e5ea;text-align:left;padding:.35rem .5rem;vertical-align:top}
.m{display:inline-block;min-width:4.2rem;font-weight:600}.GET{color:#1a7f37}.POST{color:#0969da}.PUT,.PATCH{color:#9a6700}.DELETE{color:#cf222e}
section{border-top:1px solid #e3e5ea;padding-top:.5rem;margin-top:1rem} :target{background:#fff8c5}
</style></head><body>${body}</body></html>`;
}
