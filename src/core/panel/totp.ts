// Time-based one-time passwords (RFC 6238) on the otpauth library: 6 digits, 30 s steps, SHA-1
// (what every authenticator app reads), one step of clock drift either way.
import { Secret, TOTP } from 'otpauth';
import { renderSVG } from 'uqr';

const PERIOD_S = 30;
const ISSUER = 'Hostcloud';

function totpOf(secret: string, email: string): TOTP {
  return new TOTP({ issuer: ISSUER, label: email, algorithm: 'SHA1', digits: 6, period: PERIOD_S, secret: Secret.fromBase32(secret) });
}

/** A new base32 secret (160 bits, RFC 4226's recommendation). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export interface Enrolment {
  secret: string;
  /** The otpauth:// URI an authenticator app reads from the QR code. */
  uri: string;
  /** The QR code of the URI as an SVG document. */
  qrSvg: string;
}

export function enrolment(secret: string, email: string): Enrolment {
  const uri = totpOf(secret, email).toString();
  return { secret, uri, qrSvg: renderSVG(uri, { border: 2 }) };
}

/** The time step a code belongs to (to accept each once), or null when it is not valid now. */
export function totpStep(secret: string, email: string, code: string, now: Date): number | null {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secret, email).validate({ token, timestamp: now.getTime(), window: 1 });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / PERIOD_S) + delta;
}

/** The code of a moment (tests, and the browser test's "authenticator app"). */
export function totpCode(secret: string, now: Date): string {
  return totpOf(secret, 'x').generate({ timestamp: now.getTime() });
}
