// Wrong second-factor codes count against the person's code budget, as at sign-in (core/panel/throttle.ts):
// the attempt is taken before the code is checked.
import { ApiError } from '../../../core/errors.ts';
import type { PanelDeps } from '../deps.ts';

export function throttledCode<T>(deps: PanelDeps, userId: number, fn: () => Promise<T>): Promise<T> {
  return deps.throttle.attempt([`code:${userId}`], (e) => e instanceof ApiError && e.code === 'VALIDATION_FAILED', fn);
}
