// Writes the settings' reference from SETTINGS (src/config.ts) into docs/operations.md (the table
// between its settings markers) and deploy/hostcloud.env (the whole file), so neither can drift
// from what the code reads. `npm run settings:docs` writes both; `-- --check` only compares (exit 1
// and the names of the stale files when they differ). test/unit/settings-docs.test.ts compares too.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SETTINGS, type SettingDoc } from '../src/config.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OPERATIONS_DOC = path.join(ROOT, 'docs/operations.md');
export const ENV_TEMPLATE = path.join(ROOT, 'deploy/hostcloud.env');
const START = '<!-- settings:start (written by `npm run settings:docs` from src/config.ts; edit there) -->';
const END = '<!-- settings:end -->';

export function settingsTable(settings: readonly SettingDoc[] = SETTINGS): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const rows = settings.map((s) => `| \`${s.name}\` | ${cell(s.meaning)} | ${cell(s.default)} |`);
  return ['| setting | meaning | default |', '|---|---|---|', ...rows].join('\n');
}

/** docs/operations.md with its settings table replaced by the current one. */
export function withTable(doc: string, settings: readonly SettingDoc[] = SETTINGS): string {
  const a = doc.indexOf(START);
  const b = doc.indexOf(END);
  if (a < 0 || b < a) throw new Error(`docs/operations.md lacks the settings markers (${START} … ${END})`);
  return `${doc.slice(0, a + START.length)}\n${settingsTable(settings)}\n${doc.slice(b)}`;
}

/** Markdown to plain text for a comment: no backticks, links as their text. */
function plain(md: string): string {
  return md.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1').replace(/`/g, '').replace(/\\\|/g, '|');
}

function wrap(text: string, width = 98): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** A value as systemd's EnvironmentFile (and a POSIX shell) reads it. */
function quoted(v: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]*$/.test(v) ? v : `"${v.replace(/(["\\$`])/g, '\\$1')}"`;
}

export function envTemplate(settings: readonly SettingDoc[] = SETTINGS): string {
  const out = [
    '# Hostcloud\'s settings, read by `hostcloud serve` and `hostcloud worker` (the systemd units load',
    '# /etc/hostcloud/hostcloud.env). Every setting is listed with its default. The lines not commented',
    '# out are what a production installation sets; uncomment another to change it.',
    '# Written by `npm run settings:docs` from src/config.ts: change the list there, not this file.',
  ];
  for (const s of settings) {
    out.push('', ...wrap(`${s.name} — ${plain(s.meaning)}.`).map((l) => `# ${l}`));
    out.push(...wrap(`Default: ${plain(s.default)}`).map((l) => `# ${l}`));
    if (s.deploy !== undefined) out.push(`${s.name}=${quoted(s.deploy)}`);
    else out.push(`#${s.name}=${s.value === undefined ? '' : quoted(s.value)}`);
  }
  return `${out.join('\n')}\n`;
}

/** The files as they should be, by path. */
export function expectedFiles(): Map<string, string> {
  return new Map([
    [OPERATIONS_DOC, withTable(fs.readFileSync(OPERATIONS_DOC, 'utf8'))],
    [ENV_TEMPLATE, envTemplate()],
  ]);
}

function main() {
  const check = process.argv.includes('--check');
  const stale: string[] = [];
  for (const [file, text] of expectedFiles()) {
    const now = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (now === text) continue;
    stale.push(path.relative(ROOT, file));
    if (!check) fs.writeFileSync(file, text);
  }
  if (check && stale.length > 0) {
    process.stderr.write(`stale: ${stale.join(', ')} — run npm run settings:docs\n`);
    process.exit(1);
  }
  process.stdout.write(stale.length === 0 ? 'settings docs are up to date\n' : `wrote ${stale.join(', ')}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
