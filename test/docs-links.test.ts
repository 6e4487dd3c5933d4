// The README and the pages of docs/ stay true to the tree: every link between them reaches a file
// and a heading that exist, every `npm run X` they show is a script of package.json, and every
// `hostcloud …` and `hc …` command they show answers --help (so a renamed command or script fails
// here, not in a reader's terminal). References to a docs section from the code ("docs/x.md,
// "Heading"") are held to the same headings.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { runAdmin } from '../src/cli/admin.ts';
import { hc } from './helpers/hc.ts';

const execFileP = promisify(execFile);
const ROOT = path.resolve('.');
const PAGES = ['README.md', ...fs.readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const text = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** The file without its fenced code blocks (links and headings inside them are not). */
function prose(md: string): string {
  return md.split(/^```.*$/m).filter((_, i) => i % 2 === 0).join('\n');
}

/** The fenced code blocks and inline code spans of a file. */
function code(md: string): string[] {
  const blocks = md.split(/^```.*$/m).filter((_, i) => i % 2 === 1);
  const spans = [...prose(md).matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
  return [...blocks.flatMap((b) => b.split('\n')), ...spans];
}

/** GitHub's anchors of a file's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(md).matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const title = m[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
    const base = title.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

test('anchors are made as GitHub makes them', () => {
  const a = anchors('# The `hostcloud` command\n## High availability (Patroni)\n## Servers, operations, idempotency, sandbox\n## v1 (legacy)\n## Notes\n## Notes\n```\n## not a heading\n```\n## hc_event_snapshot\n');
  assert.deepEqual([...a], ['the-hostcloud-command', 'high-availability-patroni', 'servers-operations-idempotency-sandbox', 'v1-legacy', 'notes', 'notes-1', 'hc_event_snapshot']);
});

test('every link of the README and docs/ reaches a file, and a heading of it where it names one', () => {
  const broken: string[] = [];
  let count = 0;
  for (const page of PAGES) {
    for (const m of prose(text(page)).replace(/`[^`\n]*`/g, '').matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?: +"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      count++;
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const resolved = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
      if (!fs.existsSync(path.join(ROOT, resolved))) { broken.push(`${page}: ${target} (no ${resolved})`); continue; }
      if (anchor !== undefined && resolved.endsWith('.md') && !anchors(text(resolved)).has(anchor)) broken.push(`${page}: ${target} (no heading #${anchor} in ${resolved})`);
    }
  }
  assert.ok(count > 50, `only ${count} links found`);
  assert.deepEqual(broken, []);
});

test('the code names docs sections that exist ("docs/x.md, "Heading"")', () => {
  const broken: string[] = [];
  let count = 0;
  const walk = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? (e.name === 'node_modules' ? [] : walk(path.join(dir, e.name))) : /\.(ts|tsx|mjs|js)$/.test(e.name) ? [path.join(dir, e.name)] : []));
  for (const file of [...walk('src'), ...walk('test'), ...walk('packages').filter((f) => f.includes('/src/'))].filter((f) => !f.endsWith('docs-links.test.ts'))) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/\b(README|docs\/[\w-]+\.md)(?:'s)?,\s*(?:\/\/\s*|\*\s*)?"([^"]+)"/g)) {
      count++;
      const doc = m[1] === 'README' ? 'README.md' : m[1]!;
      const slug = [...anchors(`## ${m[2]}`)][0]!;
      if (!fs.existsSync(doc) || !anchors(text(doc)).has(slug)) broken.push(`${file}: ${m[0]}`);
    }
  }
  assert.ok(count >= 10, `only ${count} references found`);
  assert.deepEqual(broken, []);
});

test('every `npm run X` the docs show is a script of package.json', () => {
  const scripts = Object.keys(JSON.parse(text('package.json')).scripts as Record<string, string>);
  const missing: string[] = [];
  for (const page of PAGES) {
    for (const m of text(page).matchAll(/npm run ([a-z][\w:.-]*)/g)) if (!scripts.includes(m[1]!)) missing.push(`${page}: npm run ${m[1]}`);
  }
  assert.deepEqual(missing, []);
});

/** The command words of a line (`a b` of `hc a b --flag X`), up to the first flag or placeholder: `most` at the most. */
function words(rest: string, most: number): string[] {
  const out: string[] = [];
  for (const w of rest.trim().split(/\s+/)) {
    if (!/^[a-z][a-z0-9-]*$/.test(w) || out.length === most) break;
    out.push(w);
  }
  return out;
}

function commands(prefix: RegExp, hostcloud: boolean): Map<string, string> {
  const found = new Map<string, string>();
  for (const page of PAGES) {
    for (const line of code(text(page))) {
      for (const part of line.split(/;|&&|\|\||\$\(|\| /)) {
        const m = prefix.exec(part.trim().replace(/^\$ /, '').replace(/^([A-Z_]+=\S+ )+/, ''));
        if (!m) continue;
        const rest = part.trim().slice(part.trim().indexOf(m[0]) + m[0].length);
        // `hostcloud serve` takes no subcommand (a table's description follows it); `admin` and `hc` groups do.
        const w = words(rest, hostcloud ? 3 : 2).filter((x, i, all) => !hostcloud || i === 0 || all[0] === 'admin');
        if (w.length) found.set(w.join(' '), `${page}: ${part.trim()}`);
      }
    }
  }
  return found;
}

test('every `hostcloud …` command the docs show answers --help', async (t) => {
  const found = commands(/^(?:sudo -u \S+ )?(?:(?:\S*\/)?node (?:\S*\/)?bin\/hostcloud\.js|hostcloud|\/usr\/bin\/node \S+hostcloud\.js)(?= |$)/, true);
  assert.ok(found.size >= 10, [...found.keys()].join(', '));
  t.diagnostic(`hostcloud ${[...found.keys()].join(' · ')}`);
  const failed: string[] = [];
  const top = new Set<string>();
  for (const [cmd, where] of found) {
    const [first, ...rest] = cmd.split(' ');
    if (first === 'admin') {
      const args = rest[0] === 'help' ? ['help'] : [...rest, '--help'];
      let out = '';
      const code = await runAdmin(args, { stdout: (t) => { out += t; }, stderr: (t) => { out += t; } });
      if (code !== 0 || !/usage/i.test(out)) failed.push(`${where} (hostcloud admin ${args.join(' ')}: exit ${code}: ${out.split('\n')[0]})`);
    } else top.add(first!);
  }
  // serve, worker, migrate …: the real command, which starts nothing with --help.
  for (const c of top) {
    const r = await execFileP(process.execPath, ['bin/hostcloud.js', c, '--help'], { env: { ...process.env, HOSTCLOUD_FROM_SOURCE: '1' } }).catch((e: { code: number; stderr: string }) => e);
    if (!('stdout' in r) || !r.stdout.startsWith(`Usage: hostcloud ${c}`)) failed.push(`hostcloud ${c} --help: ${'stderr' in r ? r.stderr : ''}`);
  }
  assert.deepEqual(failed, []);
});

test('every `hc …` command the docs show answers --help', async (t) => {
  const found = commands(/^hc(?= )/, false);
  assert.ok(found.size >= 5, [...found.keys()].join(', '));
  t.diagnostic(`hc ${[...found.keys()].join(' · ')}`);
  const failed: string[] = [];
  for (const [cmd, where] of found) {
    const r = await hc([...cmd.split(' '), '--help']);
    if (r.code !== 0 || !r.stdout.startsWith(`Usage: hc ${cmd.split(' ')[0]}`)) failed.push(`${where} (hc ${cmd} --help: exit ${r.code}: ${r.stderr.split('\n')[0]})`);
  }
  assert.deepEqual(failed, []);
});
