// When a failed delivery is tried again: the Standard Webhooks specification's example schedule —
// 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h after each failed attempt (ten attempts over
// about 75 hours) — then the delivery has failed for good. WEBHOOK_RETRY_SCHEDULE may set another
// (tests use a fast one).

export const DEFAULT_RETRY_SCHEDULE_S: readonly number[] = [5, 300, 1_800, 7_200, 18_000, 36_000, 50_400, 72_000, 86_400];

/** The wait after the `attempt`-th attempt failed (1 = the first), or null when none is left. */
export function retryDelayS(attempt: number, schedule: readonly number[] = DEFAULT_RETRY_SCHEDULE_S): number | null {
  return attempt >= 1 && attempt <= schedule.length ? schedule[attempt - 1]! : null;
}
