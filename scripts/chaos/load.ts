// Light client load for fault drills (scripts/chaos/main.ts and the fault tests): a few clients
// loop over cheap reads and, optionally, billable creates that retry with the same
// Idempotency-Key on 503 — the way a well-behaved client would — recording what they saw.
import { randomBytes, randomUUID } from 'node:crypto';

export interface Answer {
  /** HTTP status; 0 when no answer came (connection refused or reset, timeout). */
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

export type Send = (method: string, path: string, opts?: { body?: unknown; headers?: Record<string, string> }) => Promise<Answer>;

export interface Sample {
  /** When the answer came (epoch ms). */
  at: number;
  /** How long it took. */
  ms: number;
  status: number;
  path: string;
  code?: string;
  retryAfter?: string;
}

export interface LoadOptions {
  send: Send;
  clients: number;
  /** Make every Nth request of a client a POST /v2/servers (0: reads only). Default 0. */
  createEvery?: number;
  /** The create body (without name); the plan, location and OS to use. */
  createBody?: Record<string, unknown>;
  /** Pause between a client's requests. Default 20 ms. */
  pauseMs?: number;
  /** Pause before retrying a create after a 503 or no answer. Default 100 ms. */
  retryPauseMs?: number;
}

export interface Load {
  samples: Sample[];
  /** Ids of the servers whose create answered 201. */
  created: string[];
  /** Creates that answered neither 201 nor a retryable error, with the answer. */
  rejected: { status: number; body: string }[];
  stop(): Promise<void>;
  /** Stops at once, creates included (one left undecided stays so): what a failed drill or test
   * calls on its way out, so that no client loops on a closed app and keeps its process alive. */
  abort(): void;
}

const RETRYABLE = new Set([0, 503]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function errorCode(body: string): string | undefined {
  try {
    return (JSON.parse(body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

export function startLoad(opts: LoadOptions): Load {
  const samples: Sample[] = [];
  const created: string[] = [];
  const rejected: { status: number; body: string }[] = [];
  let stopping = false;
  let aborted = false;
  const pause = opts.pauseMs ?? 20;
  const retryPause = opts.retryPauseMs ?? 100;

  const record = (path: string, a: Answer, started: number) => {
    const ra = a.headers['retry-after'];
    const at = Date.now();
    samples.push({
      at, ms: at - started, status: a.status, path, code: a.status >= 400 ? errorCode(a.body) : undefined,
      ...(ra !== undefined ? { retryAfter: String(ra) } : {}),
    });
  };
  const ask = async (method: string, path: string, o?: Parameters<Send>[2]): Promise<Answer> => {
    let a: Answer;
    const started = Date.now();
    try {
      a = await opts.send(method, path, o);
    } catch {
      a = { status: 0, headers: {}, body: '' };
    }
    record(path, a, started);
    return a;
  };

  /** One create, retried with its key until it is decided — even after stop(), so none is left half-known. */
  const create = async () => {
    const key = randomUUID();
    const body = { ...opts.createBody, name: `chaos-${randomBytes(4).toString('hex')}` };
    for (;;) {
      const a = await ask('POST', '/v2/servers', { body, headers: { 'idempotency-key': key } });
      if (a.status === 201) {
        created.push((JSON.parse(a.body) as { data: { id: string } }).data.id);
        return;
      }
      if (!RETRYABLE.has(a.status)) {
        rejected.push({ status: a.status, body: a.body });
        return;
      }
      if (aborted) return;
      await sleep(retryPause);
    }
  };

  const reads = ['/v2/billing/balance', '/v2/servers?per_page=5', '/v2/account'];
  const client = async (n: number) => {
    for (let i = 0; !stopping; i++) {
      if (opts.createEvery && i % opts.createEvery === opts.createEvery - 1) await create();
      else await ask('GET', reads[(i + n) % reads.length]!);
      await sleep(pause);
    }
  };
  const running = Array.from({ length: opts.clients }, (_, n) => client(n));
  return {
    samples,
    created,
    rejected,
    async stop() {
      stopping = true;
      await Promise.all(running);
    },
    abort() {
      stopping = true;
      aborted = true;
    },
  };
}

/** Answers counted by status ("0" = no answer), e.g. { "200": 812, "503": 41 }. */
export function countByStatus(samples: Sample[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of samples) out[String(s.status)] = (out[String(s.status)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => Number(a) - Number(b)));
}

const ok = (s: Sample) => s.status >= 200 && s.status < 300;

export interface FaultReport {
  /** Answers from the fault's start until the end of the observation. */
  counts: Record<string, number>;
  /** Failed answers (5xx or none) from the fault's start. */
  failed: number;
  /** ms from the fault's end (restore, or the one-shot fault itself) until clients were served
   * again for good: the first success after the last failure; 0 if nothing failed after the end. */
  recoveryMs: number;
  /** ms between the first and the last failed answer (how long clients saw the outage). */
  disruptionMs: number;
}

/**
 * What clients saw of a fault that started at `start` and was lifted at `end` (equal for a
 * one-shot fault such as terminating backends), observed until `until`.
 */
export function reportFault(samples: Sample[], start: number, end: number, until = Date.now()): FaultReport {
  const seen = samples.filter((s) => s.at >= start && s.at <= until).sort((a, b) => a.at - b.at);
  const failures = seen.filter((s) => !ok(s) && (s.status >= 500 || s.status === 0));
  const last = failures.at(-1);
  let recoveryMs = 0;
  if (last && last.at >= end) {
    const next = seen.find((s) => s.at > last.at && ok(s));
    recoveryMs = (next?.at ?? until) - end;
  }
  return {
    counts: countByStatus(seen),
    failed: failures.length,
    recoveryMs,
    disruptionMs: failures.length ? failures.at(-1)!.at - failures[0]!.at : 0,
  };
}

/** Waits until `probe` is truthy, polling; throws after `timeoutMs`. */
export async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}
