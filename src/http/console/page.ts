// The web console's page and its assets: xterm.js from its npm package, served by us (no CDN).
// The page holds no secret beyond its one-minute attach token; its script (console.js) connects
// the terminal to our WebSocket, which alone talks to the platform's console.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

let assets: { js: string; css: string } | undefined;

/** xterm.js and its stylesheet, read once from the installed package. */
export function xtermAssets(): { js: string; css: string } {
  assets ??= {
    js: fs.readFileSync(require.resolve('@xterm/xterm/lib/xterm.js'), 'utf8'),
    css: fs.readFileSync(require.resolve('@xterm/xterm/css/xterm.css'), 'utf8'),
  };
  return assets;
}

/** The glue: a Terminal in #terminal, bytes to and from the WebSocket named by the page. */
export const CONSOLE_SCRIPT = `(function () {
  var el = document.getElementById('terminal');
  var status = document.getElementById('status');
  // A phone gets a smaller font; either way the terminal takes as many columns and rows as fit the
  // window (and follows it when it turns or is resized), so the page never scrolls sideways.
  var size = window.innerWidth < 600 ? 12 : 15;
  var term = new Terminal({ cursorBlink: true, convertEol: false, fontFamily: 'monospace', fontSize: size });
  term.open(el);
  function fit() {
    var probe = document.createElement('span');
    probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre;font-family:monospace;font-size:' + size + 'px';
    probe.textContent = 'WWWWWWWWWWWWWWWWWWWW';
    document.body.appendChild(probe);
    var box = probe.getBoundingClientRect();
    document.body.removeChild(probe);
    var cell = box.width / 20;
    var line = Math.ceil(size * 1.2);
    var cols = Math.max(20, Math.floor((document.documentElement.clientWidth - 16) / cell) - 1);
    var rows = Math.max(5, Math.floor((window.innerHeight - el.getBoundingClientRect().top - 16) / line));
    if (cols !== term.cols || rows !== term.rows) term.resize(cols, rows);
  }
  fit();
  var fitting;
  window.addEventListener('resize', function () { clearTimeout(fitting); fitting = setTimeout(fit, 100); });
  term.focus();
  var url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + el.getAttribute('data-socket');
  var ws = new WebSocket(url);
  ws.binaryType = 'arraybuffer';
  var enc = new TextEncoder();
  ws.onopen = function () {
    status.textContent = 'connected';
    ws.send(JSON.stringify({ resize: { cols: term.cols, rows: term.rows } }));
    ws.send(enc.encode('\\r'));
  };
  ws.onmessage = function (e) { term.write(typeof e.data === 'string' ? e.data : new Uint8Array(e.data)); };
  var opened = false;
  ws.addEventListener('open', function () { opened = true; });
  ws.onclose = function () {
    status.textContent = opened
      ? 'disconnected: this console link has been used; request a new one'
      : 'could not connect to the console (the link may have been used already); request a new one';
  };
  term.onData(function (d) { if (ws.readyState === 1) ws.send(enc.encode(d)); });
  term.onResize(function (s) { if (ws.readyState === 1) ws.send(JSON.stringify({ resize: { cols: s.cols, rows: s.rows } })); });
})();
`;

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The terminal page; `socket` is the WebSocket path (with its token), null for a sandbox link. */
export function consolePage(opts: { socket: string | null; assetBase: string }): string {
  const body = opts.socket === null
    ? '<p id="status">Sandbox link: valid, but no console session exists behind a test key.</p>'
    : `<p id="status">connecting…</p><div id="terminal" data-socket="${escape(opts.socket)}"></div>
<script src="${escape(opts.assetBase)}/xterm.js"></script>
<script src="${escape(opts.assetBase)}/console.js"></script>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>Server console</title>
<link rel="stylesheet" href="${escape(opts.assetBase)}/xterm.css">
<style>body{margin:0;background:#111;color:#ddd;font-family:sans-serif}#status{margin:.4em .8em;font-size:.85em}#terminal{padding:.4em;overflow:hidden;max-width:100vw;box-sizing:border-box}</style>
</head><body>${body}</body></html>`;
}
