// An instance's console through LXD's console API: POST /1.0/instances/{name}/console opens an
// operation with two websockets, "0" (the terminal's bytes both ways) and "control" (window
// size). Only our server talks to LXD; the browser talks to our server.
import { EventEmitter } from 'node:events';
import type { ConsoleStream } from '../types.ts';
import type { LxdOperation } from './api-types.ts';
import { type LxdClient, LxdError } from './client.ts';
import { path } from './instance.ts';

export async function attachInstanceConsole(client: LxdClient, name: string, size: { cols: number; rows: number }): Promise<ConsoleStream> {
  const op = await client.request<LxdOperation>('POST', `${path(name)}/console`, {
    body: { width: size.cols, height: size.rows, type: 'console' }, wait: false,
  });
  const fds = (op.metadata as { fds?: Record<string, string> } | null)?.fds;
  if (!fds?.['0'] || !fds.control) throw new LxdError(`LXD did not open the console of ${name}`, null, true);
  const control = await client.websocket(op.id, fds.control);
  const data = await client.websocket(op.id, fds['0']).catch((e: unknown) => {
    control.close();
    throw e;
  });
  const events = new EventEmitter();
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    data.close();
    control.close();
    events.emit('close');
  };
  data.on('message', (msg: Buffer | ArrayBuffer | Buffer[]) => {
    const buf = Buffer.isBuffer(msg) ? msg : Array.isArray(msg) ? Buffer.concat(msg) : Buffer.from(msg);
    // An empty message is LXD's end of the stream.
    if (buf.length === 0) close();
    else events.emit('data', buf);
  });
  data.on('close', close);
  data.on('error', close);
  control.on('close', close);
  control.on('error', close);
  return {
    write(chunk) {
      if (!closed) data.send(typeof chunk === 'string' ? Buffer.from(chunk) : chunk, { binary: true });
    },
    resize(cols, rows) {
      if (!closed) control.send(JSON.stringify({ command: 'window-resize', args: { width: String(cols), height: String(rows) } }));
    },
    onData(listener) {
      events.on('data', listener);
    },
    onClose(listener) {
      events.on('close', listener);
    },
    close,
  };
}
