// Control-panel usernames derived from the account's domain, as cPanel and Plesk want them: at most
// 16 characters, lower-case letters and digits, starting with a letter, unique on the panel server.
//
// The rule: the domain's labels without the last one (the TLD), each without an IDN's `xn--`
// prefix, joined, letters and digits only, leading digits dropped, cut to 16 ("shop.example.com" →
// "shopexample", "bücher.de" → "bcherkva"); nothing left → "site". Taken (or reserved for the
// system) → the next candidate: the base cut short enough to end in 1, 2, 3… ("example1",
// "examplexamplexa1" for a 16-character base).

export const USERNAME_MAX = 16;

/** System and panel accounts a customer account must never be named after. */
const RESERVED = new Set([
  'root', 'admin', 'administrator', 'bin', 'daemon', 'nobody', 'sys', 'mail', 'ftp', 'www', 'mysql', 'postgres', 'postgresql',
  'cpanel', 'whm', 'plesk', 'psaadm', 'virtfs', 'all', 'test',
]);

export const USERNAME_PATTERN = /^[a-z][a-z0-9]{0,15}$/;

/** The username a domain asks for before any collision. */
export function usernameBase(domain: string): string {
  const labels = domain.toLowerCase().replace(/\.$/, '').split('.');
  const owned = labels.length > 1 ? labels.slice(0, -1) : labels;
  const base = owned.map((l) => l.replace(/^xn--/, '')).join('').replace(/[^a-z0-9]/g, '').replace(/^[0-9]+/, '');
  return (base || 'site').slice(0, USERNAME_MAX);
}

/** The n-th candidate: the base itself for 0, else the base cut to make room for the digits of n. */
export function usernameCandidate(base: string, n: number): string {
  if (n === 0) return base;
  const suffix = String(n);
  return base.slice(0, USERNAME_MAX - suffix.length) + suffix;
}

/** The first candidate for `domain` that is neither reserved nor taken on the server. */
export function deriveUsername(domain: string, taken: (username: string) => boolean): string {
  return deriveFromBase(usernameBase(domain), taken);
}

/** The first candidate from `base` (a username itself, e.g. a node's prefix before the domain's base) that is free. */
export function deriveFromBase(base: string, taken: (username: string) => boolean): string {
  for (let n = 0; ; n++) {
    const candidate = usernameCandidate(base, n);
    if (!RESERVED.has(candidate) && !taken(candidate)) return candidate;
  }
}
