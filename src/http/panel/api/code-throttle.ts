// Wrong second-factor codes count against the person's code budget, as at sign-in (throttle.ts).
import { ApiError } from '../../../core/errors.ts';
import type { PanelDeps } from '../deps.ts';

export async function throttledCode<T>(deps: PanelDeps, userId: number, fn: () => Promise<T>): Promise<T> {
  const key = `code:${userId}`;
  await deps.throttle.check([key]);
  try {
    return await fn();
  } catch (e) {
    if (e instanceof ApiError && e.code === 'VALIDATION_FAILED') await deps.throttle.fail([key]);
    throw e;
  }
}
