// Pure rules of a new API key's input, shared by the admin API and `hostcloud admin` (which
// checks a command's input before sending it).
import type { FieldError } from '../errors.ts';
import { ALL_SCOPES, type Scope } from '../types.ts';
import { normaliseEntry } from './ip-allowlist.ts';

export const MAX_ALLOWLIST_ENTRIES = 100;

export interface KeyInput {
  ipAllowlist: string[];
  scopes?: string[];
}

export interface CheckedKeyInput {
  /** Normalised CIDR entries, without duplicates. */
  entries: string[];
  /** null = every scope. */
  scopes: Scope[] | null;
  errors: FieldError[];
}

/** The allowlist and scopes normalised, with every problem (fields named as in the API body, under `prefix`). */
export function checkKeyInput(input: KeyInput, prefix = ''): CheckedKeyInput {
  const errors: FieldError[] = [];
  const entries: string[] = [];
  if (input.ipAllowlist.length === 0) {
    errors.push({ field: `${prefix}ip_allowlist`, code: 'INVALID', message: 'at least one IP address or CIDR range is required' });
  }
  if (input.ipAllowlist.length > MAX_ALLOWLIST_ENTRIES) {
    errors.push({ field: `${prefix}ip_allowlist`, code: 'INVALID', message: `at most ${MAX_ALLOWLIST_ENTRIES} entries` });
  }
  input.ipAllowlist.forEach((raw, i) => {
    const e = normaliseEntry(raw);
    if (e === null) errors.push({ field: `${prefix}ip_allowlist[${i}]`, code: 'INVALID', message: `"${raw}" is not an IP address or CIDR range` });
    else if (!entries.includes(e)) entries.push(e);
  });
  let scopes: Scope[] | null = null;
  if (input.scopes !== undefined) {
    const list: Scope[] = [];
    input.scopes.forEach((s, i) => {
      if (!(ALL_SCOPES as string[]).includes(s)) errors.push({ field: `${prefix}scopes[${i}]`, code: 'INVALID', message: `"${s}" is not a known scope` });
      else if (!list.includes(s as Scope)) list.push(s as Scope);
    });
    scopes = list;
  }
  return { entries, scopes, errors };
}
