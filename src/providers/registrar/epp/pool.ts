// EPP_SESSIONS sessions, each lent to one caller at a time. A session found dead (dropped,
// timed out, ended by the registry) is replaced by a fresh one — connect, greeting, login — when
// it is next lent; idle sessions say <hello/> now and then so the registry keeps them.
import { EppSession, type SessionOptions } from './session.ts';

export interface PoolOptions extends SessionOptions {
  size: number;
  /** An idle session says hello after this long (registries drop idle sessions after some minutes). */
  keepAliveMs: number;
}

export class SessionPool {
  private slots: (EppSession | null)[];
  private free: number[];
  private waiters: ((slot: number) => void)[] = [];
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Logins made (tests count re-logins). */
  logins = 0;

  constructor(private readonly o: PoolOptions) {
    this.slots = Array.from({ length: Math.max(1, o.size) }, () => null);
    this.free = this.slots.map((_, i) => i).reverse();
    this.timer = setInterval(() => void this.keepAlive(), Math.max(1000, Math.floor(o.keepAliveMs / 2)));
    this.timer.unref();
  }

  /** Runs `fn` with a logged-in session of its own. */
  async use<T>(fn: (s: EppSession) => Promise<T>): Promise<T> {
    const slot = await this.take();
    try {
      let s = this.slots[slot];
      if (!s || !s.alive) {
        void s?.close();
        this.slots[slot] = null;
        s = new EppSession(this.o);
        try {
          await s.open();
        } catch (e) {
          void s.close();
          throw e;
        }
        this.logins++;
        this.slots[slot] = s;
      }
      return await fn(s);
    } finally {
      this.give(slot);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.all(this.slots.map((s) => s?.close()));
    this.slots = this.slots.map(() => null);
  }

  private take(): Promise<number> {
    if (this.closed) return Promise.reject(new Error('The EPP session pool is closed'));
    const slot = this.free.pop();
    if (slot !== undefined) return Promise.resolve(slot);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private give(slot: number): void {
    const next = this.waiters.shift();
    if (next) next(slot);
    else this.free.push(slot);
  }

  private async keepAlive(): Promise<void> {
    const now = Date.now();
    for (const slot of [...this.free]) {
      const s = this.slots[slot];
      if (!s || !s.alive || now - s.lastUsed < this.o.keepAliveMs) continue;
      const i = this.free.indexOf(slot);
      if (i < 0) continue;
      this.free.splice(i, 1);
      try {
        await s.hello();
      } catch {
        // Dead now: the next use logs in afresh.
      } finally {
        this.give(slot);
      }
    }
  }
}
