// The fault switch as every simulated driver obeys it (compute, registrar, hosting panel, payments), with the
// timing helpers they share. Operators and tests set a provider's switch (sim_settings
// 'fault:<provider>', through src/providers/simulated/fault-switch.ts) to see how the rest of the
// system copes with an upstream that errs, is full, or hangs.
import type { Db } from '../../db/connection.ts';
import { consumeFault } from '../../db/queries/sim-faults.ts';
import type { SimFaultMode } from '../../db/schema.ts';
import { ProviderError } from '../errors.ts';
import type { ProviderCall, ProviderName } from '../names.ts';

export const FAULT_MODES = ['none', 'upstream_error', 'capacity_unavailable', 'timeout'] as const satisfies readonly SimFaultMode[];

/** How each provider's upstream is named in its failures. */
const UPSTREAM: Record<ProviderName, string> = { compute: 'platform', registrar: 'registrar', hosting: 'hosting panel', payments: 'payment provider' };

export const sleep = (ms: number) => (ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

/**
 * Fails the call if the provider's switch says so: capacity_unavailable → a final
 * CAPACITY_UNAVAILABLE, upstream_error → a retryable UPSTREAM_ERROR, timeout → hangs `hangMs`,
 * then a retryable UPSTREAM_ERROR. Pass the step's delay as `hangMs`, or for a read with its own
 * deadline (withDeadline) something longer than the deadline, so the caller sees the deadline as
 * with a real hang. Call it first thing in every method of a simulated driver.
 */
export async function obeyFault<P extends ProviderName>(db: Db, provider: P, call: ProviderCall<P>, hangMs: number): Promise<void> {
  await failAs(provider, call, await consumeFault(db, provider, call), hangMs);
}

/** obeyFault for a mode already consumed (a hot read that spends the fault and reads in one statement). */
export async function failAs<P extends ProviderName>(provider: P, call: ProviderCall<P>, mode: SimFaultMode | null, hangMs: number): Promise<void> {
  if (mode === null || mode === 'none') return;
  if (mode === 'capacity_unavailable') throw new ProviderError('CAPACITY_UNAVAILABLE', `Simulated capacity shortage (${call})`, false);
  if (mode === 'timeout') {
    await sleep(hangMs);
    throw new ProviderError('UPSTREAM_ERROR', `Simulated ${UPSTREAM[provider]} timed out after ${hangMs} ms (${call})`);
  }
  throw new ProviderError('UPSTREAM_ERROR', `Simulated upstream error (${call})`);
}

/** Rejects with a retryable UPSTREAM_ERROR when `work` takes longer than `ms`. */
export async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProviderError('UPSTREAM_ERROR', `${what} timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
