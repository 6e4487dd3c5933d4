// Pure rules of VM input.
import { ApiError, type FieldError } from '../errors.ts';
import { CUSTOM_LIMITS } from '../servers/rules.ts';

/** Sizes a VM may have: the custom-server limits, RAM in whole GB (v1 counts it in GB). */
export function checkVmSize(size: Partial<Record<keyof typeof CUSTOM_LIMITS, number>>): void {
  const errors: FieldError[] = [];
  for (const [field, { min, max }] of Object.entries(CUSTOM_LIMITS) as [keyof typeof CUSTOM_LIMITS, { min: number; max: number }][]) {
    const v = size[field];
    if (v === undefined) continue;
    if (!Number.isSafeInteger(v) || v < min || v > max) errors.push({ field, code: 'INVALID', message: `must be a whole number from ${min} to ${max}` });
    else if (field === 'ram_mb' && v % 1024 !== 0) errors.push({ field, code: 'INVALID', message: 'must be a whole number of GB (a multiple of 1024)' });
  }
  if (errors.length) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
}
