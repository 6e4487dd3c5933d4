// The fault switches of the simulated providers (compute, registrar, hosting panel): one rule set
// for all three. Storage in src/db/queries/sim-faults.ts; the drivers obey through
// src/providers/simulated/fault.ts; the admin API and CLI adapt.
import { findFault, saveFault } from '../../db/queries/sim-faults.ts';
import type { SimFault, SimFaultMode } from '../../db/schema.ts';
import { PROVIDER_CALLS, PROVIDERS, type ProviderName, isProviderName } from '../names.ts';
import { FAULT_MODES } from './fault.ts';
import { ApiError, type FieldError, invalid } from '../../core/errors.ts';
import type { Db } from '../../core/types.ts';
import { inTransaction } from '../../db/transaction.ts';

const OFF: SimFault = { mode: 'none', remaining: null, calls: [] };

/** A provider named in a path or an option; an unknown one is a resource that does not exist. */
export function requireProvider(name: string): ProviderName {
  if (isProviderName(name)) return name;
  throw new ApiError('RESOURCE_NOT_FOUND', `Provider "${name.slice(0, 64)}" not found; providers are ${PROVIDERS.join(', ')}`);
}

/** The switch as it acts now: a spent one (remaining 0) is off. */
export async function getFaultSwitch(db: Db, provider: ProviderName): Promise<SimFault> {
  const fault = await findFault(db, provider);
  return fault.mode === 'none' || fault.remaining === 0 ? OFF : fault;
}

export interface FaultInput {
  mode: string;
  /** How many calls fail; null or absent = until cleared. */
  remaining?: number | null;
  /** Which calls of the provider fail; absent or empty = every call. */
  calls?: string[];
}

export async function setFaultSwitch(db: Db, provider: ProviderName, input: FaultInput): Promise<SimFault> {
  if (!(FAULT_MODES as readonly string[]).includes(input.mode)) throw invalid('mode', `must be one of ${FAULT_MODES.join(', ')}`);
  const mode = input.mode as SimFaultMode;
  // In a transaction: an operator's switch commits with its audit row (db/transaction.ts).
  if (mode === 'none') return inTransaction(db, (trx) => saveFault(trx, provider, OFF));
  const remaining = input.remaining ?? null;
  if (remaining !== null && (!Number.isInteger(remaining) || remaining < 1 || remaining > 1_000_000)) {
    throw invalid('remaining', 'must be a whole number from 1 to 1000000, or null for "until cleared"');
  }
  const known: readonly string[] = PROVIDER_CALLS[provider];
  const wrong: FieldError[] = (input.calls ?? []).flatMap((c, i) => (known.includes(c) ? [] : [{
    field: `calls[${i}]`, code: 'INVALID', message: `"${c.slice(0, 64)}" is not a ${provider} call; calls are ${known.join(', ')}`,
  }]));
  if (wrong.length > 0) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', wrong);
  return inTransaction(db, (trx) => saveFault(trx, provider, { mode, remaining, calls: [...new Set(input.calls ?? [])] }));
}
