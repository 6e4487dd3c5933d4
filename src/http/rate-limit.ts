// Fixed-window request budgets per key (or per IP before authentication). In-process by default;
// through Redis when REDIS_URL is set so every API process draws on one budget.
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (at least 1). */
  resetS: number;
}

export interface RateLimiter {
  consume(key: string): Promise<RateDecision>;
  close(): Promise<void>;
}

export interface RateLimitOptions {
  max: number;
  windowS: number;
  redisUrl?: string | undefined;
  /** Redis key prefix; tests use their own so parallel files do not share budgets. Default hostcloud:rl. */
  prefix?: string;
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
    redis = new Redis(opts.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
    // Errors surface through the limiter (which then falls back to memory); don't crash on them.
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
        throw e;
      }
    },
    async close() {
      if (redis) await redis.quit().catch(() => redis?.disconnect());
    },
  };
}
