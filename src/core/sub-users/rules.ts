// Pure rules of sub-user input, shared by the v2 and admin APIs, v1 and `hostcloud admin`.
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { FieldError } from '../errors.ts';
import { ALL_SCOPES, type Scope } from '../types.ts';

const EMAIL = fullFormats.email as RegExp;
export const NAME_MAX = 100;
export const PHONE_MAX = 32;
/** A phone number without its country code: digits, spaces, ( ) . and -, at least one digit. */
export const PHONE = /^[0-9 ().-]+$/;
/** `+` and 1–4 digits (ITU-T E.164 country codes). */
export const COUNTRY_CODE = /^\+[0-9]{1,4}$/;
/** Statuses PATCH may set; `pending` is only ever the state of a new invitation. */
export const SETTABLE_STATUSES = ['active', 'inactive'] as const;

export interface InviteInput {
  email: string;
  first_name: string;
  last_name: string;
  /** v1 only: the sub-user's own password (stored hashed). */
  password?: string;
}

function nameProblem(value: string): string | null {
  if (value.trim() === '') return 'must not be blank';
  if ([...value].length > NAME_MAX) return `must be at most ${NAME_MAX} characters`;
  return null;
}

/** Every problem of an invitation, fields named as in the API body. */
export function inviteProblems(input: InviteInput): FieldError[] {
  const errors: FieldError[] = [];
  const bad = (field: string, message: string) => errors.push({ field, code: 'INVALID', message });
  if (input.email.length > 254 || !EMAIL.test(input.email.trim())) bad('email', 'must be an email address like you@example.com');
  for (const f of ['first_name', 'last_name'] as const) {
    const p = nameProblem(input[f]);
    if (p) bad(f, p);
  }
  return errors;
}

export interface ProfilePatch {
  first_name?: string;
  last_name?: string;
  phone?: string;
  phone_country_code?: string;
  status?: string;
}

export function patchProblems(patch: ProfilePatch): FieldError[] {
  const errors: FieldError[] = [];
  const bad = (field: string, message: string) => errors.push({ field, code: 'INVALID', message });
  for (const f of ['first_name', 'last_name'] as const) {
    const v = patch[f];
    const p = v === undefined ? null : nameProblem(v);
    if (p) bad(f, p);
  }
  if (patch.phone !== undefined && (patch.phone.length > PHONE_MAX || !PHONE.test(patch.phone) || !/[0-9]/.test(patch.phone))) {
    bad('phone', `must be a phone number of digits, spaces, ( ) . and - (at most ${PHONE_MAX}); the country code goes in phone_country_code`);
  }
  if (patch.phone_country_code !== undefined && !COUNTRY_CODE.test(patch.phone_country_code)) {
    bad('phone_country_code', 'must be + followed by 1 to 4 digits, like +31');
  }
  if (patch.status !== undefined && !(SETTABLE_STATUSES as readonly string[]).includes(patch.status)) {
    bad('status', `must be one of: ${SETTABLE_STATUSES.join(', ')}`);
  }
  return errors;
}

/** A permission set as given: known scope names only (each problem names its item), without duplicates, in scope order. */
export function checkPermissions(list: readonly string[], field = 'permissions'): { permissions: Scope[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  list.forEach((p, i) => {
    if (!(ALL_SCOPES as string[]).includes(p)) {
      errors.push({ field: `${field}[${i}]`, code: 'INVALID', message: `"${p}" is not a permission; permissions are the scope names (<area>:read or <area>:write)` });
    }
  });
  const wanted = new Set(list);
  return { permissions: ALL_SCOPES.filter((s) => wanted.has(s)), errors };
}
