// An instance's console through LXD's console API: POST /1.0/instances/{name}/console opens an
// operation with two websockets, "0" (the terminal's bytes both ways) and "control" (window
// size). Only our server talks to LXD; the browser talks to our server.
import { EventEmitter } from 'node:events';
import type { ConsoleStream } from '../types.ts';
import type { LxdOperation } from './api-types.ts';
import { type LxdClient, LxdError } from './client.ts';
import { path } from './instance.ts';

/**
 * LXD attaches to the console a moment after both websockets are open, and liblxc then sets up the
 * terminal with TCSAFLUSH: whatever arrived before (the page's first Enter, quickly typed keys) is
 * discarded, and LXD says nothing when it is ready (1-200 ms measured; more under load). So until
 * the console sends its first byte, Enter is sent every NUDGE_MS (what the page does once anyway)
 * and the customer's keys are held, then passed on in order; after NUDGE_LIMIT silent tries (a
 * console with nothing on it) they are passed on all the same.
 */
const NUDGE_MS = 150;
const NUDGE_LIMIT = 40;

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
  /** The customer's keys while the console has not answered yet; null once it has. */
  let held: Buffer[] | null = [];
  let nudges = 0;
  const send = (buf: Buffer) => data.send(buf, { binary: true });
  const ready = () => {
    clearInterval(nudger);
    if (held === null) return;
    const keys = held;
    held = null;
    if (!closed) for (const k of keys) send(k);
  };
  const nudge = () => {
    if (closed || held === null) return;
    if (nudges++ >= NUDGE_LIMIT) return ready();
    send(Buffer.from('\r'));
  };
  const nudger = setInterval(nudge, NUDGE_MS);
  nudger.unref();
  nudge();
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(nudger);
    data.close();
    control.close();
    events.emit('close');
  };
  data.on('message', (msg: Buffer | ArrayBuffer | Buffer[]) => {
    const buf = Buffer.isBuffer(msg) ? msg : Array.isArray(msg) ? Buffer.concat(msg) : Buffer.from(msg);
    // An empty message is LXD's end of the stream.
    if (buf.length === 0) return close();
    ready();
    events.emit('data', buf);
  });
  data.on('close', close);
  data.on('error', close);
  control.on('close', close);
  control.on('error', close);
  return {
    write(chunk) {
      if (closed) return;
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      if (held) held.push(buf);
      else send(buf);
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
