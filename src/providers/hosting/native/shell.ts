// Shell words for commands run on a hosting node. Every value that reaches a command line goes
// through `q` (one single-quoted word: nothing inside is expanded, a `'` is closed, escaped and
// reopened), so a name can never become a second word or a command, whatever it holds. Names are
// also checked against strict patterns before any command is built (the order's validation
// already refuses anything else): the checks are the second fence, quoting the first.
import { HostingPanelError } from '../types.ts';
import { USERNAME_PATTERN } from '../username.ts';

/** One shell word whose value is `s`, exactly. */
export function q(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A string literal of MariaDB SQL (inside '…'): backslash and quote escaped. */
export function sqlString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A MariaDB identifier (inside `…`). */
export function sqlIdent(s: string): string {
  return `\`${s.replace(/`/g, '``')}\``;
}

/** A database name as a GRANT pattern: `_` and `%` are wildcards there, so they are escaped. */
export function grantDb(s: string): string {
  return sqlIdent(s.replace(/([_%\\])/g, '\\$1'));
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

function refuse(what: string, value: string): never {
  throw new HostingPanelError('UPSTREAM_ERROR', `Refused ${what} ${JSON.stringify(value)}: not a safe name for a hosting node`, false);
}

export function safeUsername(u: string): string {
  if (!USERNAME_PATTERN.test(u)) refuse('user name', u);
  return u;
}

export function safeDomain(d: string): string {
  if (!DOMAIN.test(d)) refuse('domain', d);
  return d;
}

/** An absolute path of plain characters (node configuration: written into nginx and PHP-FPM files). */
export function safePath(p: string): string {
  if (!/^\/[A-Za-z0-9._/-]*$/.test(p) || p.split('/').includes('..')) refuse('path', p);
  return p.replace(/\/+$/, '') || '/';
}
