// The installation's branding (white label): the name, logo and primary colour customers see in
// the panel, on the checkout page, in the docs' title, in every mail (From name, signature) and on
// every invoice issued after it is saved, and the support, terms and privacy addresses. One row,
// replaced as a whole; until an operator saves one the defaults below hold and mails go out as
// SMTP_FROM says, unsigned.
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { findBrandingRow, replaceBrandingRow } from '../../db/queries/branding.ts';
import type { BrandingSettingsRow } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { ApiError, type FieldError } from '../errors.ts';
import type { Db } from '../types.ts';
import { LogoProblem, parseLogo } from './logo.ts';

// The same test as the API schemas' `format: "email"` (ajv-formats, full mode).
const EMAIL = fullFormats.email as RegExp;
const COLOR = /^#[0-9a-fA-F]{6}$/;
export const NAME_MAX = 100;
export const URL_MAX = 2000;

export interface Branding {
  name: string;
  /** A data URL (image/png or image/svg+xml), or null for none. */
  logo: string | null;
  /** #rrggbb, lower case. */
  primary_color: string;
  /** null only while nothing has been saved. */
  support_email: string | null;
  support_url: string | null;
  terms_url: string | null;
  privacy_url: string | null;
  /** When it was saved; null while the defaults hold. */
  updated_at: Date | null;
}

export const DEFAULT_BRANDING: Branding = Object.freeze({
  name: 'Hostcloud', logo: null, primary_color: '#1f5fbf', support_email: null,
  support_url: null, terms_url: null, privacy_url: null, updated_at: null,
});

export interface BrandingInput {
  name: string;
  logo: string | null;
  primary_color: string;
  support_email: string;
  support_url?: string | null;
  terms_url?: string | null;
  privacy_url?: string | null;
}

const fromRow = (r: BrandingSettingsRow): Branding => ({
  name: r.name, logo: r.logo, primary_color: r.primary_color, support_email: r.support_email,
  support_url: r.support_url, terms_url: r.terms_url, privacy_url: r.privacy_url, updated_at: r.updated_at,
});

/** The saved branding, or the defaults. */
export async function getBranding(db: Db): Promise<Branding> {
  const row = await findBrandingRow(db);
  return row ? fromRow(row) : DEFAULT_BRANDING;
}

/** The saved branding, or null while the defaults hold (mails and invoices then stay as they were). */
export async function savedBranding(db: Db): Promise<Branding | null> {
  const row = await findBrandingRow(db);
  return row ? fromRow(row) : null;
}

function httpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** Every problem of a branding (fields named as in the API body). */
export function brandingProblems(b: BrandingInput): FieldError[] {
  const errors: FieldError[] = [];
  const bad = (field: string, message: string, code = 'INVALID') => errors.push({ field, code, message });
  const name = b.name.trim();
  if (name === '') bad('name', 'must not be blank');
  else if (name.length > NAME_MAX) bad('name', `must be at most ${NAME_MAX} characters`);
  // It is a mail's From display name: a line break there would write headers.
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  else if (/[\u0000-\u001f\u007f]/.test(name)) bad('name', 'must be one line without control characters');
  if (!COLOR.test(b.primary_color)) bad('primary_color', 'must be a colour written #rrggbb, such as #1f5fbf');
  const email = b.support_email.trim();
  if (email.length > 254 || !EMAIL.test(email)) bad('support_email', 'must be an email address like support@example.com');
  for (const field of ['support_url', 'terms_url', 'privacy_url'] as const) {
    const v = b[field];
    if (v === undefined || v === null) continue;
    if (v.length > URL_MAX || !httpUrl(v.trim())) bad(field, 'must be an http:// or https:// URL');
  }
  if (b.logo !== null) {
    try {
      parseLogo(b.logo);
    } catch (e) {
      if (!(e instanceof LogoProblem)) throw e;
      bad('logo', e.message, /script/.test(e.message) ? 'UNSAFE' : 'INVALID');
    }
  }
  return errors;
}

/** Replaces the branding as a whole (the fields left out are cleared), after checking all of it. */
export async function setBranding(db: Db, input: BrandingInput, now: Date): Promise<Branding> {
  const errors = brandingProblems(input);
  if (errors.length > 0) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
  const url = (v: string | null | undefined) => (v === undefined || v === null ? null : v.trim());
  const values = {
    name: input.name.trim(), logo: input.logo, primary_color: input.primary_color.toLowerCase(), support_email: input.support_email.trim(),
    support_url: url(input.support_url), terms_url: url(input.terms_url), privacy_url: url(input.privacy_url),
  };
  // A transaction of its own, so that an admin write's audit row commits with it (db/transaction.ts).
  return fromRow(await inTransaction(db, (trx) => replaceBrandingRow(trx, values, now)));
}

/** The lines a mail ends with: the conventional "-- " separator, the name and how to reach support. */
export function mailSignature(b: Branding): string {
  return ['-- ', b.name, b.support_email, b.support_url].filter((l): l is string => !!l).join('\n');
}
