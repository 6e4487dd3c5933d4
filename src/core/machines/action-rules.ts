// Action rules every kind of machine shares — servers and VDC VMs are both machines on the compute
// platform, and a customer should meet the same answer from both: which power verb is pointless in
// which power state (409), and a verb's body holding only that verb's fields (422).
import type { PowerState } from '../../db/schema.ts';
import type { PowerAction } from '../../providers/compute/types.ts';
import { ApiError, type FieldError } from '../errors.ts';

/** Which power state makes a power verb pointless, and the state shown while it runs. */
const POWER: Record<PowerAction, { refuse: PowerState; during: PowerState; why: string }> = {
  start: { refuse: 'running', during: 'starting', why: 'is already running' },
  stop: { refuse: 'stopped', during: 'stopping', why: 'is already stopped' },
  reboot: { refuse: 'stopped', during: 'stopping', why: 'is stopped; start it instead' },
};

/**
 * The power state to show while `action` runs; 409 STATE_CONFLICT when the machine's `power` makes
 * it pointless. `what` names the machine in the message ("Server srv_…", "VM vm_…").
 */
export function powerStateDuring(what: string, power: PowerState, action: PowerAction): PowerState {
  const rule = POWER[action];
  if (power === rule.refuse) throw new ApiError('STATE_CONFLICT', `${what} ${rule.why}`);
  return rule.during;
}

/** A field of another verb is a mistake the client should hear about, not something to ignore. */
export function checkVerbFields<I extends object>(verb: string, input: I, allowed: readonly (keyof I)[]): void {
  const stray = Object.entries(input).filter(([k, v]) => v !== undefined && !allowed.includes(k as keyof I)).map(([k]) => k);
  if (stray.length === 0) return;
  const takes = allowed.length ? `takes only ${allowed.join(', ')}` : 'takes no fields';
  const errors: FieldError[] = stray.map((field) => ({ field, code: 'INVALID', message: `is not a field of the ${verb} action (it ${takes})` }));
  throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
}
