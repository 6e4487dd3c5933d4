// The web console's WebSocket: GET /v2/console/{ticket}/attach?expires&token upgraded by the
// terminal page. The token (made when the link was opened, good for a minute) must be ours and
// the platform must agree to attach the ticket's console once; then bytes flow between the
// browser and the console, through us. Binary messages are keystrokes; a text message
// {"resize":{cols,rows}} sizes the terminal.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer } from 'ws';
import { attachTokenValid, consoleSigningKey } from '../../core/servers/console.ts';
import type { Db } from '../../core/types.ts';
import type { ComputeProvider } from '../../providers/compute/types.ts';

const ATTACH_PATH = /^\/v2\/console\/([^/?]{1,256})\/attach$/;

function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
}

export function attachConsoleSockets(app: FastifyInstance, deps: { db: Db; compute: ComputeProvider; now: () => Date }): void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  app.addHook('onClose', (_app, done) => {
    for (const c of wss.clients) c.terminate();
    wss.close(() => done());
  });
  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const m = ATTACH_PATH.exec(url.pathname);
    if (!m) return refuse(socket, 404, 'Not Found');
    void (async () => {
      const ticket = decodeURIComponent(m[1]!);
      const key = await consoleSigningKey(deps.db);
      if (!attachTokenValid(key, ticket, url.searchParams.get('expires') ?? '', url.searchParams.get('token') ?? '', deps.now())) {
        return refuse(socket, 403, 'Forbidden');
      }
      const stream = deps.compute.attachConsole ? await deps.compute.attachConsole(ticket, { cols: 80, rows: 24 }) : null;
      if (!stream) return refuse(socket, 409, 'Conflict');
      wss.handleUpgrade(req, socket, head, (ws) => {
        stream.onData((data) => ws.send(data, { binary: true }));
        stream.onClose(() => ws.close());
        ws.on('message', (data, isBinary) => {
          const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
          if (isBinary) return stream.write(buf);
          try {
            const msg = JSON.parse(buf.toString('utf8')) as { resize?: { cols?: unknown; rows?: unknown } };
            const { cols, rows } = msg.resize ?? {};
            if (Number.isInteger(cols) && Number.isInteger(rows)) stream.resize(Math.min(500, Number(cols)), Math.min(200, Number(rows)));
          } catch { /* not a control message: ignored */ }
        });
        ws.on('close', () => stream.close());
        ws.on('error', () => stream.close());
      });
    })().catch((err: unknown) => {
      // Usually the ticket is spent by now: the operator needs the platform's reason (the customer
      // sees only that the page could not connect). The error names the machine, never the ticket.
      app.log.error({ err, component: 'console' }, 'attaching a console to the platform failed');
      refuse(socket, 502, 'Bad Gateway');
    });
  });
}
