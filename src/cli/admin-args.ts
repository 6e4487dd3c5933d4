// Argument handling of `hostcloud admin`: node's parseArgs with errors in the command's words,
// and the output switch (tables, or the API's JSON with --json).
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { CliError, type Json } from './admin-http.ts';

/** Where a command writes: the process's streams, or a caller's own (tests run commands in-process). */
export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
}

export interface Out {
  io: Io;
  json: boolean;
  /** Prints the API's answer: as JSON with --json, else as `human` renders it. */
  show(answer: Json, human: (answer: Json) => string): void;
}

export function outTo(io: Io, json: boolean): Out {
  return {
    io,
    json,
    show(answer, human) {
      io.stdout(`${json ? JSON.stringify(answer, null, 2) : human(answer)}\n`);
    },
  };
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs, strict, with its errors reworded: `unknown option --colour`, `--deposit needs a value`. */
export function parse<O extends Options>(args: string[], options: O, usage: string) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    const err = e as Error & { code?: string };
    const flag = /'(-{1,2}[^' ]+)/.exec(err.message)?.[1] ?? '';
    if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new CliError(`unknown option ${flag}\nusage: ${usage}`);
    if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      throw new CliError(`${flag} needs a value${options[flag.replace(/^-+/, '')]?.type === 'boolean' ? '' : ` (write ${flag}=VALUE for a value starting with "-")`}\nusage: ${usage}`);
    }
    throw new CliError(`${err.message}\nusage: ${usage}`);
  }
}

/** The positional arguments a command needs: `ACCOUNT_ID is missing`, or an unexpected extra one. */
export function positionals(got: string[], names: string[], usage: string): string[] {
  if (got.length < names.length) throw new CliError(`${names[got.length]} is missing\nusage: ${usage}`);
  if (got.length > names.length) throw new CliError(`unexpected argument "${got[names.length]}"\nusage: ${usage}`);
  return got;
}

/** `--page 2 --per-page 50` → `page=2&per_page=50` (checked: whole numbers in range). */
export function pageQuery(values: { page?: string; 'per-page'?: string }, extra: Record<string, string | undefined> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) q.set(k, v);
  for (const [flag, key, max] of [['page', 'page', 10_000_000], ['per-page', 'per_page', 100]] as const) {
    const v = values[flag];
    if (v === undefined) continue;
    if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > max) throw new CliError(`--${flag} must be a whole number from 1 to ${max}`);
    q.set(key, v);
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** Problems in the command's words, one per line; nothing is sent when there are any. */
export function refuse(lines: string[], what = 'nothing was done'): never {
  throw new CliError(lines.length === 1 ? lines[0]! : `${what}:\n  ${lines.join('\n  ')}`);
}
