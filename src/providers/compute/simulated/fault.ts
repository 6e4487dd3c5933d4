// The fault switch, as the simulated platform obeys it. Operators and tests set it (sim_settings
// 'fault') to see how the rest of the system copes with an upstream that errs, is full, or hangs.
import type { Db } from '../../../db/connection.ts';
import { consumeFault } from '../../../db/queries/sim.ts';
import type { SimFaultMode } from '../../../db/schema.ts';
import { type ComputeCall, ProviderError } from '../types.ts';

export const FAULT_MODES = ['none', 'upstream_error', 'capacity_unavailable', 'timeout'] as const satisfies readonly SimFaultMode[];

export const sleep = (ms: number) => (ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

/**
 * Fails the call if the switch says so. A `timeout` hangs first: `hangMs` for a status read (its
 * own deadline, which the hang always outlasts), a step's delay for anything else.
 */
export async function obeyFault(db: Db, call: ComputeCall, hangMs: number): Promise<void> {
  const mode = await consumeFault(db, call);
  if (mode === null || mode === 'none') return;
  if (mode === 'capacity_unavailable') throw new ProviderError('CAPACITY_UNAVAILABLE', `Simulated capacity shortage (${call})`, false);
  if (mode === 'timeout') {
    await sleep(hangMs);
    throw new ProviderError('UPSTREAM_ERROR', `Simulated platform timed out after ${hangMs} ms (${call})`);
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
