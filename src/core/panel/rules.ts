// Pure rules of the panel's input: passwords and sign-in emails.
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { FieldError } from '../errors.ts';

const EMAIL = fullFormats.email as RegExp;
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

/** What is wrong with a new panel password, or null. Length is what makes a password strong. */
export function passwordProblem(password: string, email?: string): string | null {
  const chars = [...password];
  if (chars.length < PASSWORD_MIN) return `must be at least ${PASSWORD_MIN} characters`;
  if (chars.length > PASSWORD_MAX) return `must be at most ${PASSWORD_MAX} characters`;
  if (new Set(chars).size < 4) return 'must not be one or two characters repeated';
  if (email && password.trim().toLowerCase() === email.trim().toLowerCase()) return 'must not be your email address';
  return null;
}

export function passwordErrors(password: string, email?: string, field = 'password'): FieldError[] {
  const p = passwordProblem(password, email);
  return p ? [{ field, code: 'INVALID', message: p }] : [];
}

export function emailErrors(email: string, field = 'email'): FieldError[] {
  return email.length > 254 || !EMAIL.test(email.trim()) ? [{ field, code: 'INVALID', message: 'must be an email address like you@example.com' }] : [];
}
