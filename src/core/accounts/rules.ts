// Pure rules of an account's profile, shared by the admin API and by `hostcloud admin`, which
// checks a command's input with them before it sends anything.
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { checkKeyInput } from '../api-keys/rules.ts';
import type { FieldError } from '../errors.ts';
import { depositCents } from '../money.ts';

// The same test as the API schemas' `format: "email"` (ajv-formats, full mode).
const EMAIL = fullFormats.email as RegExp;
const PHONE = /^\+?[0-9 ()-]+$/;
const COUNTRY = /^[A-Za-z]{2}$/;

export interface ProfileInput {
  email?: string;
  name?: string;
  company?: string | null;
  phone?: string | null;
  country?: string | null;
}

/** Every problem of a profile (fields named as in the API body, under `prefix`). */
export function profileProblems(p: ProfileInput, required: boolean, prefix = ''): FieldError[] {
  const errors: FieldError[] = [];
  const bad = (field: string, message: string) => errors.push({ field: `${prefix}${field}`, code: 'INVALID', message });
  if (p.email === undefined) {
    if (required) bad('email', 'is required');
  } else if (p.email.length > 254 || !EMAIL.test(p.email.trim())) bad('email', 'must be an email address like you@example.com');
  if (p.name === undefined) {
    if (required) bad('name', 'is required');
  } else if (p.name.trim() === '') bad('name', 'must not be blank');
  else if (p.name.length > 200) bad('name', 'must be at most 200 characters');
  if (typeof p.company === 'string' && p.company.length > 200) bad('company', 'must be at most 200 characters');
  if (typeof p.phone === 'string' && (p.phone.length < 3 || p.phone.length > 32 || !PHONE.test(p.phone))) {
    bad('phone', 'must be a phone number of digits, spaces, ( ) and -, with an optional leading +');
  }
  if (typeof p.country === 'string' && !COUNTRY.test(p.country)) bad('country', 'must be a two-letter country code like NL');
  return errors;
}

export interface OpenAccountInput {
  profile: ProfileInput;
  /** An opening deposit, as typed ("150.00"). */
  deposit?: { amount: string; description?: string };
  /** A first API key. */
  apiKey?: { name?: string; ipAllowlist: string[]; isTest?: boolean; scopes?: string[] };
}

/**
 * Every problem of an account opening, found before anything is written: the profile, the
 * deposit amount (`deposit.amount`) and the key (`api_key.ip_allowlist[i]`, `api_key.scopes[i]`).
 */
export function openAccountProblems(input: OpenAccountInput): FieldError[] {
  const errors = profileProblems(input.profile, true);
  if (input.deposit) {
    const amount = depositCents(input.deposit.amount);
    if ('problem' in amount) errors.push({ field: 'deposit.amount', code: 'INVALID', message: amount.problem });
  }
  if (input.apiKey) errors.push(...checkKeyInput(input.apiKey, 'api_key.').errors);
  return errors;
}
