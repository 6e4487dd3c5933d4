import { HostcloudError } from '../errors.js';
import { Resource, seg } from '../resource.js';
import { type RequestOptions, sleep } from '../transport.js';
import type { Operation } from '../types.js';

export interface WaitOptions {
  /** Give up (HostcloudError WAIT_TIMEOUT; the operation goes on) after this long. Default 10 minutes. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called with each state read (progress_pct, detail) before the final one is returned. */
  onProgress?: (operation: Operation) => void;
  /**
   * Longest the server holds one request (`?wait=`, 0–60 s). Default 30. Lower it to hear of
   * progress more often: the server answers a long-poll only when the operation ends.
   */
  longPollS?: number;
  /** Polling (a server without the long-poll): first interval, growing ×1.5 up to maxPollIntervalMs. Default 250 ms. */
  pollIntervalMs?: number;
  /** Default 5000 ms. */
  maxPollIntervalMs?: number;
}

const finished = (op: Operation) => op.status === 'completed' || op.status === 'failed';

/** Was this the server refusing `?wait=` as an unknown parameter (a server without the long-poll)? */
function refusedWait(e: unknown): boolean {
  return e instanceof HostcloudError && e.status === 422 && e.fieldErrors.some((f) => f.field === 'wait');
}

/** The asynchronous work started by creates, actions and snapshots. */
export class Operations extends Resource {
  get(id: string, opts?: RequestOptions): Promise<Operation> {
    return this.read(`/operations/${seg(id)}`, undefined, opts);
  }

  /**
   * Resolves with the operation once it is `completed` or `failed` (check `status`: a failed
   * operation resolves too, its `detail` says why). Uses the server's long-poll
   * (`GET /operations/{id}?wait=N`), one request per N seconds; a server that has none is polled
   * instead, with a growing interval.
   */
  async wait(id: string, opts: WaitOptions = {}): Promise<Operation> {
    const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
    const longPollS = Math.max(0, Math.min(60, Math.floor(opts.longPollS ?? 30)));
    let interval = opts.pollIntervalMs ?? 250;
    const maxInterval = opts.maxPollIntervalMs ?? 5_000;
    const req: RequestOptions = opts.signal ? { signal: opts.signal } : {};
    // This call's own mode: an early answer to a long-poll means this server does not hold it.
    let longPoll = this.transport.longPoll && longPollS > 0;
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new HostcloudError({ status: 0, code: 'WAIT_TIMEOUT', message: `operation ${id} had not finished after ${opts.timeoutMs ?? 600_000} ms` });
      }
      let op: Operation;
      const waitS = Math.min(longPollS, Math.floor(remaining / 1000));
      if (longPoll && waitS > 0) {
        const started = Date.now();
        try {
          op = (await this.transport.request<Operation>({ method: 'GET', path: `/operations/${seg(id)}`, query: { wait: waitS }, extraTimeoutMs: waitS * 1000 }, req)).data;
        } catch (e) {
          if (!refusedWait(e)) throw e;
          this.transport.longPoll = false;
          longPoll = false;
          continue;
        }
        if (finished(op)) return op;
        opts.onProgress?.(op);
        if (Date.now() - started >= waitS * 1000 - 500) continue;
        longPoll = false;
      } else {
        op = await this.get(id, req);
        if (finished(op)) return op;
        opts.onProgress?.(op);
      }
      await sleep(Math.min(interval, Math.max(0, deadline - Date.now())), opts.signal);
      interval = Math.min(Math.ceil(interval * 1.5), maxInterval);
    }
  }
}
