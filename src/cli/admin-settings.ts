// `hostcloud admin settings branding get|set`: the installation's branding over the admin API.
// `set` changes the options given and sends the whole branding back (the API replaces it as a
// whole); a logo is read from a file (PNG or SVG) and sent as a data URL, the server checks it.
import fs from 'node:fs/promises';
import { type Out, parse, positionals, refuse } from './admin-args.ts';
import { record } from './admin-format.ts';
import { CliError, type Conn, type Json, call, worded } from './admin-http.ts';

export const SETTINGS_USAGE = {
  brandingGet: 'hostcloud admin settings branding get',
  brandingSet: 'hostcloud admin settings branding set [--name TEXT] [--logo FILE|none] [--color #RRGGBB] [--support-email EMAIL] [--support-url URL|none] [--terms-url URL|none] [--privacy-url URL|none]',
};

const FLAGS: Record<string, string> = {
  name: '--name', logo: '--logo', primary_color: '--color', support_email: '--support-email', support_url: '--support-url', terms_url: '--terms-url', privacy_url: '--privacy-url',
};

/** The branding as a table shows it: the logo as its type and size, not its bytes. */
function view(a: Json): string {
  const d = { ...(a.data as Record<string, unknown>) };
  if (typeof d.logo === 'string') d.logo = `${/^data:([^;,]*)/.exec(d.logo)?.[1] ?? 'data'} (${d.logo.length} characters; --json shows it)`;
  return `branding\n${record(d)}`;
}

async function logoFrom(file: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch (e) {
    throw new CliError(`--logo: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  const png = bytes.subarray(0, 4).toString('latin1') === '\x89PNG';
  if (!png && !/\.svg$/i.test(file) && !/<svg[\s>]/i.test(bytes.subarray(0, 4096).toString('utf8'))) refuse([`--logo must be a PNG or SVG file; ${file} is neither`]);
  return `data:${png ? 'image/png' : 'image/svg+xml'};base64,${bytes.toString('base64')}`;
}

/** Runs one of these commands; false when `settings ACTION` is not one. */
export async function settingsCommand(conn: Conn, out: Out, action: string | undefined, args: string[]): Promise<boolean> {
  if (action !== 'branding') return false;
  const [verb, ...rest] = args;
  if (verb === 'get') {
    positionals(parse(rest, {}, SETTINGS_USAGE.brandingGet).positionals, [], SETTINGS_USAGE.brandingGet);
    out.show(await call(conn, 'GET', '/settings/branding'), view);
    return true;
  }
  if (verb !== 'set') return false;
  const { values, positionals: pos } = parse(rest, {
    name: { type: 'string' }, logo: { type: 'string' }, color: { type: 'string' }, 'support-email': { type: 'string' },
    'support-url': { type: 'string' }, 'terms-url': { type: 'string' }, 'privacy-url': { type: 'string' },
  }, SETTINGS_USAGE.brandingSet);
  positionals(pos, [], SETTINGS_USAGE.brandingSet);
  if (Object.values(values).every((v) => v === undefined)) refuse([`nothing to set\nusage: ${SETTINGS_USAGE.brandingSet}`]);
  const now = (await call(conn, 'GET', '/settings/branding')).data as {
    name: string; logo: string | null; primary_color: string; support_email: string | null; support_url: string | null; terms_url: string | null; privacy_url: string | null;
  };
  const orNull = (v: string | undefined, was: string | null) => (v === undefined ? was : v === 'none' || v === '' ? null : v);
  const body = {
    name: values.name ?? now.name,
    logo: values.logo === undefined ? now.logo : values.logo === 'none' ? null : await logoFrom(values.logo),
    primary_color: values.color ?? now.primary_color,
    // Unset until first saved: the server names --support-email as missing then.
    support_email: values['support-email'] ?? now.support_email ?? '',
    support_url: orNull(values['support-url'], now.support_url),
    terms_url: orNull(values['terms-url'], now.terms_url),
    privacy_url: orNull(values['privacy-url'], now.privacy_url),
  };
  const answer = await worded((f) => ({ name: FLAGS[f.split(/[.[]/)[0]!] ?? f }), () => call(conn, 'PUT', '/settings/branding', body));
  out.show(answer, (a) => view(a).replace(/^branding/, 'branding: set'));
  return true;
}
