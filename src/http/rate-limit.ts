// Fixed-window request budgets per key (or per IP before authentication). In-process by default;
// through Redis when REDIS_URL is set so every API process draws on one budget.
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from '../core/errors.ts';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (at least 1). */
  resetS: number;
}

export interface RateLimiter {
  consume(key: string): Promise<RateDecision>;
  /**
   * Whether the shared store is reachable, waiting up to `timeoutMs` for it (true at once for the
   * in-process limiter). Until it is, each process limits on its own.
   */
  ready(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface RateLimitOptions {
  max: number;
  windowS: number;
  redisUrl?: string | undefined;
  /**
   * Redis key prefix of the budgets (RATE_LIMIT_PREFIX; config.ts derives the default from the
   * database name). Tests use their own so parallel files do not share budgets. Default hostcloud:rl.
   */
  prefix?: string | undefined;
}

function decision(max: number, res: RateLimiterRes, allowed: boolean): RateDecision {
  return { allowed, limit: max, remaining: Math.max(0, res.remainingPoints), resetS: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
}

export function createRateLimiter(opts: RateLimitOptions): RateLimiter {
  const keyPrefix = opts.prefix ?? 'hostcloud:rl';
  const memory = new RateLimiterMemory({ points: opts.max, duration: opts.windowS, keyPrefix });
  let redis: Redis | undefined;
  let limiter: RateLimiterMemory | RateLimiterRedis = memory;
  if (opts.redisUrl) {
    // Loaded only when REDIS_URL is set.
    const { Redis } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
    redis = new Redis(opts.redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      lazyConnect: false,
      // A Redis that hangs must not hang requests: the insurance limiter answers instead.
      connectTimeout: 2_000,
      commandTimeout: 1_000,
      // Keep reconnecting, never give up for good: budgets move back to Redis when it returns.
      retryStrategy: (times) => Math.min(times * 200, 2_000),
    });
    // An 'error' event without a listener would end the process; a lost Redis is not fatal.
    // Each failed command surfaces through the limiter, which then falls back to memory.
    redis.on('error', () => {});
    // If Redis is unreachable each process limits on its own rather than failing requests.
    limiter = new RateLimiterRedis({ storeClient: redis, points: opts.max, duration: opts.windowS, keyPrefix, insuranceLimiter: memory });
  }
  return {
    async consume(key) {
      try {
        return decision(opts.max, await limiter.consume(key), true);
      } catch (e) {
        if (e instanceof RateLimiterRes) return decision(opts.max, e, false);
        // Only reachable if the insurance limiter itself failed: refuse for now, never a 500.
        throw new ApiError('SERVICE_UNAVAILABLE', 'Rate limits cannot be checked right now; retry shortly', [], { retryAfterS: 1 });
      }
    },
    async ready(timeoutMs) {
      const r = redis;
      if (!r || r.status === 'ready') return true;
      return new Promise<boolean>((resolve) => {
        const done = (ok: boolean) => { clearTimeout(timer); r.off('ready', onReady); resolve(ok); };
        const onReady = () => done(true);
        const timer = setTimeout(() => done(false), timeoutMs);
        r.on('ready', onReady);
      });
    },
    async close() {
      if (redis) await redis.quit().catch(() => redis?.disconnect());
    },
  };
}

/** The RateLimit-* headers of a decision: every rate-limited answer carries them. */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  return { 'RateLimit-Limit': String(d.limit), 'RateLimit-Remaining': String(d.remaining), 'RateLimit-Reset': String(d.resetS) };
}

/** The 429 of a spent budget. */
export function rateLimited(d: RateDecision): ApiError {
  return new ApiError('RATE_LIMITED', `Too many requests; retry in ${d.resetS} s`, [], { retryAfterS: d.resetS });
}
