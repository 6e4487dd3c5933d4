// Counts and times every call to an upstream provider, whatever its interface: each method of
// the object is wrapped, so the compute provider, and the registrar and hosting panel to come,
// are instrumented by one line in the wiring (runtime.ts).
import type { Metrics } from './metrics.ts';

function codeOf(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z_]{1,40}$/.test(code) ? code : 'ERROR';
}

/** `onFailure`: told of every call that fails (after it is counted), e.g. to log the failures an operator must act on. */
export function instrumentProvider<T extends object>(provider: string, impl: T, metrics: Metrics, onFailure?: (method: string, e: unknown) => void): T {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(impl, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      let w = wrapped.get(prop);
      if (!w) {
        const method = prop;
        const fn = value as (...args: unknown[]) => unknown;
        const labels = { provider, method };
        w = function (this: unknown, ...args: unknown[]) {
          metrics.providerCalls.inc(labels);
          const end = metrics.providerDuration.startTimer(labels);
          const failed = (e: unknown) => {
            end();
            metrics.providerFailures.inc({ ...labels, code: codeOf(e) });
            onFailure?.(method, e);
            throw e;
          };
          let result: unknown;
          try {
            result = fn.apply(this === receiver ? target : this, args);
          } catch (e) {
            return failed(e);
          }
          if (result instanceof Promise) return result.then((v) => { end(); return v; }, failed);
          end();
          return result;
        };
        wrapped.set(prop, w);
      }
      return w;
    },
  });
}
