// A webhook receiver on 127.0.0.1 for the delivery tests: it verifies every delivery with the
// `standardwebhooks` package (a library nobody here wrote), keeps what arrived, and answers as the
// test says — a status, or never (`hang`) until released.
import { once } from 'node:events';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** The body, parsed. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  /** Which of the secrets given verified it (standardwebhooks' Webhook.verify); empty when none did. */
  verifiedWith: string[];
  path: string;
  at: number;
}

/** A status at once, none until released (`hang`), or a status after `afterMs` (a slow receiver). */
export type Answer = number | 'hang' | { status: number; afterMs: number };

export interface Receiver {
  url: string;
  received: Received[];
  /** Secrets to verify with (set after the endpoint is made). */
  secrets: string[];
  /** How to answer the n-th request (0-based) of a path; default 200. */
  answer: (n: number, path: string) => Answer;
  /** Requests in progress now (answered or not), and the most at once. */
  open: number;
  mostOpen: number;
  /** The same, by path. */
  openByPath: Map<string, number>;
  mostOpenByPath: Map<string, number>;
  /** Resolves once `n` requests (to `path`, when given) have arrived. */
  until(n: number, path?: string): Promise<Received[]>;
  /** Answers every hanging request with `status` (default 200). */
  release(status?: number): void;
  close(): Promise<void>;
}

// Closed after every test of the file (registered at import time, in the file's root context).
const receivers: Receiver[] = [];
after(async () => {
  for (const r of receivers) await r.close();
});

export async function startReceiver(): Promise<Receiver> {
  const events = new EventEmitter();
  const hanging = new Set<http.ServerResponse>();
  const byPath = new Map<string, number>();
  const r: Receiver = {
    url: '', received: [], secrets: [], answer: () => 200, open: 0, mostOpen: 0, openByPath: new Map(), mostOpenByPath: new Map(),
    async until(n, path) {
      const matching = () => r.received.filter((x) => path === undefined || x.path === path);
      while (matching().length < n) await once(events, 'request');
      return matching();
    },
    release(status = 200) {
      for (const res of hanging) res.writeHead(status).end();
      hanging.clear();
    },
    close: () => new Promise((resolve) => {
      if (!server.listening) return resolve();
      r.release(503);
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server = http.createServer((req, res) => {
    r.open++;
    r.mostOpen = Math.max(r.mostOpen, r.open);
    const at = req.url ?? '/';
    const openHere = (r.openByPath.get(at) ?? 0) + 1;
    r.openByPath.set(at, openHere);
    r.mostOpenByPath.set(at, Math.max(r.mostOpenByPath.get(at) ?? 0, openHere));
    res.on('close', () => {
      r.open--;
      r.openByPath.set(at, r.openByPath.get(at)! - 1);
    });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = { 'webhook-id': String(req.headers['webhook-id']), 'webhook-timestamp': String(req.headers['webhook-timestamp']), 'webhook-signature': String(req.headers['webhook-signature']) };
      const verifiedWith = r.secrets.filter((s) => {
        try {
          new Webhook(s).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      });
      const path = req.url ?? '/';
      const n = byPath.get(path) ?? 0;
      byPath.set(path, n + 1);
      r.received.push({ id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], signature: headers['webhook-signature'], body, json: JSON.parse(body), verifiedWith, path, at: Date.now() });
      const answer = r.answer(n, path);
      const respond = (status: number) => res.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 300 ? `answer ${status}` : 'ok');
      if (answer === 'hang') hanging.add(res);
      else if (typeof answer === 'number') respond(answer);
      else {
        hanging.add(res);
        setTimeout(() => {
          if (hanging.delete(res)) respond(answer.status);
        }, answer.afterMs);
      }
      events.emit('request');
    });
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receivers.push(r);
  return r;
}
