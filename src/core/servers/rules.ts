// Pure rules of server input: passwords, hostnames, custom sizes, billing periods.
import { ApiError, invalid } from '../errors.ts';

const PASSWORD_MIN = 8;

export const PASSWORD_RULE = `at least ${PASSWORD_MIN} characters with an upper-case letter, a lower-case letter, a digit and a symbol`;

/**
 * At least 8 characters with upper case, lower case, a digit and a symbol (the API's rule). The
 * message states the whole rule, then what this password lacks, so one fix is enough.
 */
export function passwordProblem(password: string): string | null {
  const missing: string[] = [];
  if (password.length < PASSWORD_MIN) missing.push(`is shorter than ${PASSWORD_MIN} characters`);
  if (!/[A-Z]/.test(password)) missing.push('has no upper-case letter');
  if (!/[a-z]/.test(password)) missing.push('has no lower-case letter');
  if (!/[0-9]/.test(password)) missing.push('has no digit');
  if (!/[^A-Za-z0-9]/.test(password)) missing.push('has no symbol');
  return missing.length ? `The password must have ${PASSWORD_RULE}; this one ${missing.join(', ')}` : null;
}

export function checkPassword(password: string, field = 'password'): void {
  const problem = passwordProblem(password);
  if (problem) throw new ApiError('INVALID_PASSWORD', problem, [{ field, code: 'INVALID_PASSWORD', message: problem }]);
}

/** RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens; at most 253. */
const LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;

export function checkHostname(name: string, field = 'name'): void {
  if (name.length > 253 || !name.split('.').every((l) => LABEL.test(l))) {
    throw invalid(field, 'must be a host name: letters, digits and hyphens in dot-separated labels (e.g. web-1.example.com)');
  }
}

/** Custom-mode limits. RAM is sold in whole GB. */
export const CUSTOM_LIMITS = {
  cpu_cores: { min: 1, max: 64 },
  ram_mb: { min: 1024, max: 262_144 },
  storage_gb: { min: 10, max: 4000 },
} as const;

export function checkRamMb(ramMb: number, field = 'ram_mb'): void {
  if (ramMb % 1024 !== 0) throw invalid(field, 'must be a whole number of GB (a multiple of 1024)');
}

/** A monthly cycle: same day next month (clamped to the month's last day), same time. */
export function addMonth(from: Date): Date {
  const d = new Date(from.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + 1);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

const HOUR = 3_600_000;

/** Whole hours of the current cycle, and those not yet used (what a refund or upgrade prorates). */
export function cycleHours(periodStart: Date, nextBilling: Date, now: Date): { period: number; remaining: number } {
  const period = Math.max(1, Math.round((nextBilling.getTime() - periodStart.getTime()) / HOUR));
  const remaining = Math.max(0, Math.min(period, Math.floor((nextBilling.getTime() - now.getTime()) / HOUR)));
  return { period, remaining };
}
